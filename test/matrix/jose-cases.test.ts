/**
 * The JOSE negative cases, one by one (lib/negative/catalogue.ts): every case the JOSE checks send fails under some
 * fault of the mock (shown in a table: case -> faults that fail it), the clean mock fails none, and the lenient mock
 * (every leniency the rules allow) fails no case of a MUST check (the hardening checks, HARD-01..03, warn there).
 * Only the JOSE checks run: against each fault, those naming one of the fault's requirement ids.
 */
import { expect, test } from 'vitest';
import { FAULTS } from '../../lib/mock/faults.ts';
import { inPool } from '../../lib/pool.ts';
import { EmbeddedProfile } from '../../lib/profile/schema.ts';
import { prepare } from '../../lib/engine/run/prepare.ts';
import { createSession } from '../../lib/engine/session/session.ts';
import { runChecks } from '../../lib/engine/run/runner.ts';
import type { CheckResult } from '../../lib/engine/results.ts';
import { allChecks } from '../../suites/index.ts';

const joseChecks = allChecks.filter((c) => c.suite === 'jose');
/** the checks that send cases (a property check sends generated inputs, no cases: the fault matrix shows it able to fail) */
const withCases = (faultIds: readonly string[]): typeof joseChecks =>
  joseChecks.filter((c) => c.property !== true && c.requirements.some((id) => faultIds.includes(id)));
const joseFaults = FAULTS.filter((f) => f.environments.includes('uat') && withCases(f.requirements).length > 0);

async function run(checks: typeof joseChecks, faults: string[], lenient = false): Promise<CheckResult[]> {
  const profile = EmbeddedProfile.parse({
    name: `jose-cases-${faults.join('+') || (lenient ? 'lenient' : 'clean')}`,
    environment: 'uat',
    embedded: { faults, ...(lenient ? { lenient: true } : {}) },
  });
  const prepared = await prepare(profile, { checkTimeoutMs: 120_000 });
  const session = await createSession(prepared.runtime);
  try {
    return await runChecks(checks, session, prepared.runtime.options);
  } finally {
    await session.close();
    await prepared.close();
  }
}

type CaseKey = string;
const key = (r: CheckResult, id: string): CaseKey => `${r.checkId} ${id}`;
const casesOf = (results: CheckResult[], verdict: string): CaseKey[] =>
  results.flatMap((r) => (r.evidence.cases ?? []).filter((c) => c.verdict === verdict).map((c) => key(r, c.id)));

test(
  'jose cases: the clean mock refuses every case, the lenient mock every MUST case',
  { timeout: 300_000 },
  async () => {
    const [clean, lenient] = await Promise.all([run(joseChecks, []), run(joseChecks, [], true)]);
    expect(casesOf(clean, 'fail'), 'cases the clean mock does not refuse').toEqual([]);
    expect(
      clean.filter((r) => r.verdict !== 'pass').map((r) => `${r.checkId}: ${r.verdict} ${r.reason ?? ''}`),
    ).toEqual([]);
    const mustBroken = lenient.filter((r) => r.level === 'MUST' && r.verdict !== 'pass');
    expect(
      mustBroken.map((r) => `${r.checkId}: ${r.verdict} ${r.reason ?? ''}`),
      'MUST checks the lenient mock breaks',
    ).toEqual([]);
    // the lenient mock takes what the hardening checks probe: they warn (and are shown able to)
    const hard = lenient.filter((r) => r.requirements.some((id) => id.startsWith('HARD-')));
    expect(hard.length).toBeGreaterThan(0);
    expect(hard.map((r) => `${r.checkId}: ${r.verdict}`)).toEqual(hard.map((r) => `${r.checkId}: warn`));
  },
);

test('jose cases: every case sent fails under some fault (table in the output)', { timeout: 600_000 }, async () => {
  const clean = await run(joseChecks, []);
  const all = [...casesOf(clean, 'pass')];
  expect(all.length).toBeGreaterThan(40);
  const perFault = await inPool(joseFaults, 3, async (f) => ({
    fault: f.id,
    failed: casesOf(await run(withCases(f.requirements), [f.id]), 'fail'),
  }));
  const failedBy = new Map<CaseKey, string[]>(all.map((c) => [c, []]));
  for (const { fault, failed } of perFault) for (const c of failed) failedBy.get(c)?.push(fault);
  const table = [...failedBy].map(([c, faults]) => `${c.padEnd(48)} ${faults.length ? faults.join(', ') : '(none)'}`);
  console.log(`JOSE case -> faults that fail it\n${table.join('\n')}`);
  expect(
    [...failedBy].filter(([, faults]) => faults.length === 0).map(([c]) => c),
    'cases no fault fails',
  ).toEqual([]);
});
