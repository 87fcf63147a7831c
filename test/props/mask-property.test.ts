/**
 * The masking property checks end to end against the embedded mock (docs/properties.md): a fault the fixed-input checks
 * miss is found and shrunk, the counterexample is shown with its exchange and no clear identifier reaches the result,
 * the same data seed replays the same search, and `--seed` sets it.
 */
import { describe, expect, it } from 'vitest';
import { parseCertifyArgs } from '../../lib/cli/args.ts';
import { prepare } from '../../lib/engine/run/prepare.ts';
import type { CheckResult } from '../../lib/engine/results.ts';
import { runChecks } from '../../lib/engine/run/runner.ts';
import { createSession } from '../../lib/engine/session/session.ts';
import { EmbeddedProfile, type Environment } from '../../lib/profile/schema.ts';
import { allChecks } from '../../suites/index.ts';

const PROPERTY = 'masking.near-miss-masks-refused-property';
const CLEAR = 'masking.clear-identifiers-refused-property';

async function run(
  env: Environment,
  faults: string[],
  ids: string[],
  dataSeed: number,
): Promise<{ results: CheckResult[]; clearIds: string[] }> {
  const profile = EmbeddedProfile.parse({
    name: `props-${env}`,
    environment: env,
    embedded: { faults },
    run: { dataSeed, properties: { runs: 60, shrinkCalls: 20 } },
  });
  const prepared = await prepare(profile, { checkTimeoutMs: 120_000 });
  const session = await createSession(prepared.runtime);
  try {
    const results = await runChecks(
      allChecks.filter((c) => ids.includes(c.id)),
      session,
      prepared.runtime.options,
    );
    const clearIds = prepared.runtime.profile.customers.flatMap((c) => [c.accountId, c.emiratesId ?? '']);
    return { results, clearIds: clearIds.filter((x) => x.length > 0) };
  } finally {
    await session.close();
    await prepared.close();
  }
}

const byId = (rs: CheckResult[], id: string): CheckResult => rs.find((r) => r.checkId === id)!;

describe('masking properties', { timeout: 240_000 }, () => {
  it('mask-last-three-only: the fixed checks pass, the property fails with a shrunk counterexample; replayable', async () => {
    expect.hasAssertions();
    const ids = [PROPERTY, 'masking.target-refuses-other-mask-characters', 'masking.target-refuses-wrong-length-mask'];
    const [a, b] = await Promise.all([
      run('sandbox', ['mask-last-three-only'], ids, 4242),
      run('sandbox', ['mask-last-three-only'], ids, 4242),
    ]);
    expect(byId(a.results, 'masking.target-refuses-other-mask-characters').verdict).toBe('pass');
    expect(byId(a.results, 'masking.target-refuses-wrong-length-mask').verdict).toBe('pass');
    const p = byId(a.results, PROPERTY);
    expect(p.verdict).toBe('fail');
    expect(p.reason).toMatch(
      /^accepted ".+" \(.+\) as a mask of the (account|emirates) id of customer "\w+": HTTP 200/,
    );
    expect(p.evidence.property?.counterexample?.shrinkCalls).toBeLessThanOrEqual(20);
    expect(p.evidence.property?.counterexample?.path).toMatch(/^(coverage \d+|\d+(:\d+)*)$/);
    expect(p.evidence.property?.seed).toBe(byId(b.results, PROPERTY).evidence.property?.seed);
    // the same seed, the same search (the mock's clear ids differ per start, the inputs' shapes do not)
    expect(p.evidence.property?.counterexample?.path).toBe(
      byId(b.results, PROPERTY).evidence.property?.counterexample?.path,
    );
    const shown = p.evidence.exchanges.filter((x) => x.label?.startsWith('counterexample (shrunk)'));
    expect(shown).toHaveLength(1);
    expect(shown[0]?.response?.status).toBe(200);
    // passing inputs are counted, not stored: of the inputs, the counterexample only (beside the controls of every
    // customer and kind of id, their tokens and the clock moves)
    const stored = p.evidence.exchanges.filter((x) => x.label?.includes('property input'));
    expect(stored.map((x) => x.label)).toEqual(['counterexample (shrunk): property input: near-miss mask']);
  });

  it('accept-unmasked-id (UAT): the clear-id property warns; no clear id, nor a look-alike, reaches the result', async () => {
    expect.hasAssertions();
    const { results, clearIds } = await run('uat', ['accept-unmasked-id'], [CLEAR], 99);
    const r = byId(results, CLEAR);
    expect(r.verdict).toBe('warn'); // MASK-03 is a SHOULD
    expect(r.evidence.property?.counterexample?.input).toMatch(/sent clear$/);
    const shown = r.evidence.exchanges.find((x) => x.label?.startsWith('counterexample (shrunk)'));
    expect(shown?.sealedPlaintext).toMatch(/\[clear (account|emirates) id of /);
    const text = JSON.stringify(r);
    expect(clearIds.filter((id) => text.includes(id))).toEqual([]);
  });

  it('--seed sets the run seed; a bad one is a usage error', () => {
    expect.hasAssertions();
    expect(parseCertifyArgs(['--seed', '1234'])).toMatchObject({ seed: 1234 });
    expect(() => parseCertifyArgs(['--seed', '-1'])).toThrow(/--seed/);
    expect(() => parseCertifyArgs(['--seed', 'abc'])).toThrow(/--seed: "abc" is not a whole number/);
  });
});
