/**
 * One-bug variants a property is there to find are found in every run, whatever the seed: the property against the
 * mock fault with several data seeds and a real target's default of 20 random inputs fails every time (the coverage
 * phase sends every class first), naming the rule broken.
 */
import { describe, expect, it } from 'vitest';
import { prepare } from '../../lib/engine/run/prepare.ts';
import type { CheckResult } from '../../lib/engine/results.ts';
import { runChecks } from '../../lib/engine/run/runner.ts';
import { createSession } from '../../lib/engine/session/session.ts';
import { EmbeddedProfile, type Environment } from '../../lib/profile/schema.ts';
import { allChecks } from '../../suites/index.ts';

async function run(env: Environment, fault: string, check: string, dataSeed: number): Promise<CheckResult> {
  const profile = EmbeddedProfile.parse({
    name: `seeds-${env}`,
    environment: env,
    embedded: { faults: [fault] },
    run: { dataSeed, properties: { runs: 20, shrinkCalls: 10 } },
  });
  const prepared = await prepare(profile, { checkTimeoutMs: 120_000 });
  const session = await createSession(prepared.runtime);
  try {
    return (
      await runChecks(
        allChecks.filter((c) => c.id === check),
        session,
        prepared.runtime.options,
      )
    )[0]!;
  } finally {
    await session.close();
    await prepared.close();
  }
}

const SEEDS = [1, 2, 3, 4];
const CASES = [
  ['amount-string-500', 'errors.invalid-documents-property', 'sandbox'],
  ['amount-number-accepted', 'errors.invalid-documents-property', 'uat'],
  ['mask-last-three-only', 'masking.near-miss-masks-refused-property', 'sandbox'],
  ['accept-unmasked-id', 'masking.clear-identifiers-refused-property', 'uat'],
  ['jose-tag-unchecked-other-recipient', 'jose.tampered-envelopes-property', 'uat'],
] as const;

/** the verdict and the failed ids each case must give */
function expected(check: string): [string, readonly string[] | undefined] {
  if (check.startsWith('errors.')) return ['fail', ['ERR-03']];
  if (check.includes('clear')) return ['warn', undefined];
  if (check.startsWith('jose.')) return ['fail', ['JOSE-08']];
  return ['fail', undefined];
}

describe(
  'a fault a property is there to find fails it whatever the seed (20 random inputs)',
  { timeout: 240_000 },
  () => {
    for (const [fault, check, env] of CASES)
      it(`${fault} (${env}): ${check} fails on seeds ${SEEDS.join(', ')}`, async () => {
        expect.hasAssertions();
        const rs = await Promise.all(SEEDS.map((s) => run(env, fault, check, s)));
        expect(rs.map((r) => [r.verdict, r.failed])).toEqual(rs.map(() => expected(check)));
      });
  },
);
