/**
 * A bank nobody here wrote, as far as the mock can be made one: every leniency the rules allow at once (lenient:
 * its JOSE library reads a second spelling of a member as its bytes, so the tag's AAD is computed over the decoded
 * protected header), a quota that counts every call past the API key, token and scope checks (docs/contract.md
 * "Quotas"), an answer that says `Connection: close` and a connection closed after each one — run as a real target
 * is (its profile, not embedded: the ledger enforced, a real target's property plans, its test clock), destructive
 * (the quota checks fill its windows). No MUST fails and none is left unverified; the hardening ids it does not keep
 * warn (HARD-07 among them). Behind a gateway that throttles the same bank gets no FAIL either (at most INCOMPLETE,
 * naming the throttle) on the checks a throttle could fool (test/fixtures/throttle-fooled.ts, as
 * test/engine/throttle-gateway.test.ts runs them): the others' verdicts against this bank are shown without it above.
 */
import { describe, expect, test } from 'vitest';
import { startMockBank, type MockBank } from '../../lib/mock/index.ts';
import type { MockOptions } from '../../lib/mock/types.ts';
import { testPki } from '../../lib/pki/index.ts';
import { FullProfile } from '../../lib/profile/schema.ts';
import { defaultRunOptions } from '../../lib/engine/run/runner.ts';
import type { CheckResult } from '../../lib/engine/results.ts';
import type { Environment } from '../../lib/profile/schema.ts';
import { runOn } from '../fixtures/run.ts';
import { allChecks } from '../../suites/index.ts';
import type { CheckDefinition } from '../../lib/engine/check.ts';
import { selects } from '../../lib/engine/run/select.ts';
import { THROTTLE_FOOLED } from '../fixtures/throttle-fooled.ts';

const line = (r: CheckResult): string => `${r.checkId} [${r.requirements.join(' ')}] ${r.verdict}: ${r.reason ?? ''}`;

async function certifyAsRealTarget(
  mode: Environment,
  shape: Partial<MockOptions>,
  checks: readonly CheckDefinition[] = allChecks,
): Promise<CheckResult[]> {
  const mock: MockBank = await startMockBank({
    mode,
    pki: await testPki(),
    faults: [],
    lenient: true,
    connectionClose: true,
    quotaCounts: 'every',
    ...shape,
  });
  const profile = FullProfile.parse(mock.profile(`independent-${mode}`));
  return runOn(profile, { ...defaultRunOptions, destructive: true, checkTimeoutMs: 120_000 }, checks).finally(() =>
    mock.close(),
  );
}

/** a canary the target can reach is the profile's matter (run.canaryHost), not the bank's */
const needsCanary = (r: CheckResult): boolean => r.checkId === 'jose.header-key-urls-not-fetched';

describe.concurrent('an independent bank that follows the contract', () => {
  // the second spelling is its own hardening id (UAT: sealed bodies): a warning, and the tamper property verified
  const verdicts: Record<Environment, Record<string, string>> = {
    sandbox: {},
    uat: { 'jose.second-spelling-refused': 'warn', 'jose.tampered-envelopes-property': 'pass' },
  };
  for (const mode of ['sandbox', 'uat'] as const)
    test(
      `${mode}: lenient, counts every call, closes every connection: no MUST fails, none unverified`,
      {
        timeout: 240_000,
      },
      async () => {
        const results = await certifyAsRealTarget(mode, {});
        const must = results.filter((r) => r.level === 'MUST');
        expect(must.filter((r) => ['fail', 'error'].includes(r.verdict)).map(line)).toEqual([]);
        const unverified = must.filter((r) => ['inconclusive', 'not-run'].includes(r.verdict) && !needsCanary(r));
        expect(unverified.map(line)).toEqual([]);
        const byId = new Map(results.map((r) => [r.checkId, r.verdict] as const));
        expect(Object.fromEntries(Object.keys(verdicts[mode]).map((id) => [id, byId.get(id)]))).toEqual(verdicts[mode]);
        for (const r of results.filter((x) => x.evidence.property)) expect(r.verdict, line(r)).toMatch(/pass|warn/);
      },
    );

  test('uat, behind a gateway that throttles at 200 calls/s: never FAIL', { timeout: 300_000 }, async () => {
    const fooled = allChecks.filter((c) => selects({ suites: [], only: THROTTLE_FOOLED }, c));
    const results = await certifyAsRealTarget('uat', { throttle: { perSecond: 200 } }, fooled);
    expect(results.length).toBeGreaterThan(4);
    expect(results.filter((r) => ['fail', 'error'].includes(r.verdict) && r.level === 'MUST').map(line)).toEqual([]);
    for (const r of results.filter((x) => x.level === 'MUST' && x.verdict === 'inconclusive' && !needsCanary(x)))
      expect(r.reason ?? '', line(r)).toMatch(/thrott/i);
    // the gateway did throttle the run (else nothing here is shown)
    expect(results.some((r) => r.evidence.notes.some((n) => /throttled by a gateway/.test(n)))).toBe(true);
  });
});
