/**
 * The bank as a bank configures it: one client id registered for the code, partner and client-credentials grants
 * (MockOptions.oneClient), 100 calls an hour per client id and operation in fixed windows opened per client id by its
 * first call (quotaWindow 'client'), every call past the API key, token and scope checks counted, `Connection: close`
 * after each answer, a test clock, every leniency the rules allow, in UAT and sandbox — run as a real target is (its
 * profile: the ledger enforced when not destructive). PASS in both modes: destructive, and not destructive with the four rules only an
 * exhausted quota shows waived as a CI gate waives them (the profile's waivers: QUOTA-01, QUOTA-03, QUOTA-04, RACE-04).
 * Before, the masking checks met the quota's answer (destructive), or were not run at the ledger's budget (not).
 */
import { describe, expect, test } from 'vitest';
import { defaultRunOptions } from '../../lib/engine/run/runner.ts';
import type { CheckResult } from '../../lib/engine/results.ts';
import { applyWaivers } from '../../lib/engine/verdict.ts';
import { startMockBank } from '../../lib/mock/index.ts';
import { testPki } from '../../lib/pki/index.ts';
import { FullProfile, type Environment } from '../../lib/profile/schema.ts';
import { runOn } from '../fixtures/run.ts';
import { allChecks } from '../../suites/index.ts';

const line = (r: CheckResult): string => `${r.checkId} [${r.requirements.join(' ')}] ${r.verdict}: ${r.reason ?? ''}`;

/** what only an exhausted quota shows: a CI gate's waivers for a run that is not destructive */
const EXHAUSTION = ['QUOTA-01', 'QUOTA-03', 'QUOTA-04', 'RACE-04'].map((id) => ({
  id,
  reason: 'only an exhausted quota shows it: verified by the destructive run',
}));

/** a canary the target can reach is the profile's matter (run.canaryHost), not the bank's */
const needsCanary = (r: CheckResult): boolean => r.checkId === 'jose.header-key-urls-not-fetched';

async function certify(mode: Environment, destructive: boolean): Promise<CheckResult[]> {
  const mock = await startMockBank({
    mode,
    pki: await testPki(),
    faults: [],
    lenient: true,
    connectionClose: true,
    quotaCounts: 'every',
    oneClient: true,
    quotaWindow: 'client',
  });
  try {
    const profile = FullProfile.parse({
      ...mock.profile('one-client-bank'),
      ...(destructive ? {} : { waivers: EXHAUSTION }),
    });
    const results = await runOn(profile, { ...defaultRunOptions, destructive, checkTimeoutMs: 120_000 }, allChecks);
    return applyWaivers(results, profile.waivers);
  } finally {
    await mock.close();
  }
}

describe.concurrent('a bank with one client id for every grant, 100 calls an hour, a test clock', () => {
  for (const mode of ['uat', 'sandbox'] as const)
    for (const destructive of [true, false])
      test(
        `${mode}, ${destructive ? 'destructive' : 'not destructive, the exhaustion rules waived'}: PASS`,
        {
          timeout: 300_000,
        },
        async () => {
          const results = await certify(mode, destructive);
          const must = results.filter((r) => r.level === 'MUST');
          expect(must.filter((r) => ['fail', 'error'].includes(r.verdict)).map(line)).toEqual([]);
          const unverified = must.filter(
            (r) => ['inconclusive', 'not-run'].includes(r.verdict) && r.waived === undefined && !needsCanary(r),
          );
          expect(unverified.map(line)).toEqual([]);
          // the waivers excuse exactly the four rules, and nothing else was waived
          const waived = [...new Set(results.filter((r) => r.waived !== undefined).flatMap((r) => r.requirements))];
          expect(waived.sort()).toEqual(destructive ? [] : ['QUOTA-01', 'QUOTA-03', 'QUOTA-04', 'RACE-04']);
          // never the quota's answer outside the checks that fill a window on purpose: the last call of each window
          // is never sent
          const refused = results
            .filter((r) => r.suite !== 'quota' && r.suite !== 'race')
            .flatMap((r) =>
              r.evidence.exchanges
                .filter((e) => e.response?.status === 429)
                .map((e) => `${r.checkId}: ${e.label ?? ''}`),
            );
          expect(refused).toEqual([]);
        },
      );
});
