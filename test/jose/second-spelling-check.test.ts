/**
 * HARD-07 end to end against the embedded mock (UAT): the clean mock refuses every second spelling (the check
 * passes); the lenient mock and the jose-accept-second-spelling fault read them as their bytes, as a bank whose
 * JOSE library computes the AAD from the decoded protected header does: HARD-07 warns (a SHOULD), and the
 * tampered-envelopes property (JOSE-06/08/14) and the tamper family (JOSE-08) stay green there — a second spelling
 * is no tampering.
 */
import { describe, expect, it } from 'vitest';
import { prepare } from '../../lib/engine/run/prepare.ts';
import type { CheckResult } from '../../lib/engine/results.ts';
import { runChecks } from '../../lib/engine/run/runner.ts';
import { createSession } from '../../lib/engine/session/session.ts';
import { EmbeddedProfile } from '../../lib/profile/schema.ts';
import { allChecks } from '../../suites/index.ts';

const IDS = ['jose.second-spelling-refused', 'jose.tampered-envelopes-property', 'jose.tampering-refused'];
const checks = allChecks.filter((c) => IDS.includes(c.id));

async function run(embedded: { faults?: string[]; lenient?: boolean }): Promise<Record<string, string>> {
  const profile = EmbeddedProfile.parse({
    name: 'second-spelling',
    environment: 'uat',
    embedded,
    run: { properties: { runs: 40 } },
  });
  const prepared = await prepare(profile, { checkTimeoutMs: 120_000 });
  const session = await createSession(prepared.runtime);
  try {
    const results: CheckResult[] = await runChecks(checks, session, prepared.runtime.options);
    return Object.fromEntries(results.map((r) => [r.checkId, `${r.verdict}${r.reason ? `: ${r.reason}` : ''}`]));
  } finally {
    await session.close();
    await prepared.close();
  }
}

const verdicts = (r: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v.split(':')[0]!]));

describe.concurrent('a second spelling of the same bytes (HARD-07)', { timeout: 240_000 }, () => {
  it('the clean mock refuses it: every check passes', async () => {
    const r = await run({});
    expect(verdicts(r), JSON.stringify(r, null, 1)).toEqual(Object.fromEntries(IDS.map((id) => [id, 'pass'])));
  });

  it.each([
    ['the lenient mock', { lenient: true }],
    ['the jose-accept-second-spelling fault', { faults: ['jose-accept-second-spelling'] }],
  ])('%s reads it as its bytes: HARD-07 warns, JOSE-06/08/14 pass', async (_what, embedded) => {
    const r = await run(embedded);
    expect(verdicts(r), JSON.stringify(r, null, 1)).toEqual({
      'jose.second-spelling-refused': 'warn',
      'jose.tampered-envelopes-property': 'pass',
      'jose.tampering-refused': 'pass',
    });
    expect(r['jose.second-spelling-refused']).toMatch(/N1 .*JWE protected header written with its last character/);
  });
});
