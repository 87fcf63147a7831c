/**
 * The target's test clock is shared (docs/design.md, "The shared test clock"): a check that moves it must not move it
 * under a time-bound exchange of another check or of a prerequisite (a code between /authorize and its exchange, a
 * token between its issue and the call that must find it valid). Each clock-moving check alone, and all of them
 * together, run as certify runs them (prerequisites established side by side, lib/engine/run/schedule.ts), alone 5
 * times each and together 20 times, with a shuffled start order against the embedded mock with 60 s codes: no
 * prerequisite fails, no code expires unasked.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, test } from 'vitest';
import { prepare, type PreparedTarget } from '../../lib/engine/run/prepare.ts';
import { createSession } from '../../lib/engine/session/session.ts';
import { runSessionChecks } from '../../lib/engine/run/schedule.ts';
import type { CheckDefinition } from '../../lib/engine/check.ts';
import type { CheckResult, RecordedExchange } from '../../lib/engine/results.ts';
import { loadProfile } from '../../lib/profile/load.ts';
import { ROOT } from '../../lib/root.ts';
import { allChecks } from '../../suites/index.ts';
import { seeded } from '../../lib/data/seed.ts';

/** the rounds of all the movers together: each round a shuffled order, a mover's first move at a new stage */
const ROUNDS = 20;
/**
 * the rounds of each mover alone (against the prerequisites only): fewer, as a mover alone meets the prerequisites'
 * exchanges at few stages (its start is 0 to 3 latencies after they settled); a move under one is still met (shown
 * with the leases not held)
 */
const ROUNDS_ALONE = 5;
/** the one check that asks for an expired code (TOK-05): its refusal is asked for */
const ASKS_FOR_EXPIRED_CODE = 'tokens.code-expires';

/** every API answer of the mock this late (a target that is not on the same machine): exchanges take time */
const LATENCY_MS = 10;

/** the embedded sandbox mock, its answers LATENCY_MS late: one per series of rounds (a series owns its clock) */
async function target(): Promise<PreparedTarget> {
  const profile = await loadProfile(`${ROOT}/profiles/mock-sandbox.json`);
  if (!('embedded' in profile)) throw new Error('mock-sandbox.json is an embedded profile');
  return prepare({ ...profile, embedded: { ...profile.embedded, latencyMs: LATENCY_MS } });
}

/** the checks that move the clock: every exclusive one (each is shown to move it below) */
const movers = allChecks.filter((c) => c.exclusive);
/** property checks move it only when their inputs overflow a quota window (a small input space may not) */
const mayStay = new Set(movers.filter((c) => c.property === true).map((c) => c.id));
/** the movers expected to have moved the clock: every one, but a property check that did not need to */
const expectedMovers = (ids: readonly string[], moved: ReadonlySet<string>): Set<string> =>
  new Set(ids.filter((id) => moved.has(id) || !mayStay.has(id)));

/** a small seeded generator (mulberry32): a failing round can be replayed */
const random = seeded;

/**
 * the checks in a shuffled order, each starting a random 0 to 3 latencies after its prerequisites settled (so that
 * its first move meets the prerequisites' exchanges at every stage)
 */
function shuffled(list: readonly CheckDefinition[], seed: number): CheckDefinition[] {
  const next = random(seed);
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out.map((def) => {
    const delay = Math.floor(next() * 3 * LATENCY_MS);
    return { ...def, run: (ctx) => sleep(delay).then(() => def.run(ctx)) };
  });
}

/** a code exchange the target refused with invalid_grant (an expired or otherwise unusable code) */
function refusedCodeExchange(x: RecordedExchange): boolean {
  return (
    x.label === 'token (authorization_code)' &&
    x.response?.status === 400 &&
    /invalid_grant/.test(x.response.body ?? '')
  );
}

interface Round {
  prerequisiteFailures: string[];
  unaskedRefusals: string[];
  moved: Set<string>;
  wrong: string[];
}

async function round(prepared: PreparedTarget, checks: readonly CheckDefinition[], seed: number): Promise<Round> {
  const session = await createSession(prepared.runtime);
  const out: Round = { prerequisiteFailures: [], unaskedRefusals: [], moved: new Set(), wrong: [] };
  try {
    const { results, established } = await runSessionChecks(session, shuffled(checks, seed), prepared.runtime.options);
    for (const p of established.results) {
      if (p.verdict !== 'pass' && p.verdict !== 'not-applicable')
        out.prerequisiteFailures.push(`seed ${seed}: ${p.id} ${p.verdict}: ${p.reason ?? ''}`);
      for (const x of p.evidence.exchanges.filter(refusedCodeExchange))
        out.unaskedRefusals.push(`seed ${seed}: prerequisite ${p.id}: ${x.response?.body ?? ''}`);
    }
    for (const r of results) judge(r, seed, out);
  } finally {
    await session.close();
  }
  return out;
}

function judge(r: CheckResult, seed: number, out: Round): void {
  // a move shared on the run's timeline is made once, by one member: the others say so in a note
  const moves =
    r.evidence.exchanges.some((x) => x.label?.startsWith('test clock +')) ||
    r.evidence.notes.some((n) => /the clock moved \d+ s (at once for its clock group|for the run's timeline)/.test(n));
  if (moves) out.moved.add(r.checkId);
  const refused = r.evidence.exchanges.filter(refusedCodeExchange);
  const asked = r.checkId === ASKS_FOR_EXPIRED_CODE ? 1 : 0;
  for (const x of refused.slice(asked))
    out.unaskedRefusals.push(`seed ${seed}: ${r.checkId}: ${x.response?.body ?? ''}`);
  if (r.blockedBy !== undefined || r.verdict === 'fail' || r.verdict === 'error')
    out.wrong.push(`seed ${seed}: ${r.checkId} ${r.verdict}: ${r.reason ?? ''}`);
}

/** `n` rounds one after another, each in a session of its own, against a mock of their own */
async function rounds(checks: readonly CheckDefinition[], base: number, n: number): Promise<Round> {
  const all: Round = { prerequisiteFailures: [], unaskedRefusals: [], moved: new Set(), wrong: [] };
  const prepared = await target();
  try {
    expect(prepared.runtime.profile.contract.tokens.codeSeconds).toBe(60);
    expect(prepared.runtime.profile.target.clock).toBeDefined();
    for (let i = 0; i < n; i++) {
      const r = await round(prepared, checks, base + i);
      all.prerequisiteFailures.push(...r.prerequisiteFailures);
      all.unaskedRefusals.push(...r.unaskedRefusals);
      all.wrong.push(...r.wrong);
      for (const id of r.moved) all.moved.add(id);
    }
  } finally {
    await prepared.close();
  }
  return all;
}

describe('the shared test clock: no move under a time-bound exchange', () => {
  test('the clock movers: every exclusive check', () => {
    expect(movers.length).toBeGreaterThanOrEqual(8);
  });

  // each series has a mock of its own: the series run side by side (their time is mostly the mocks' latency)
  test.concurrent.each(movers.map((c, i) => [c.id, i] as const))(
    `%s alone, ${ROUNDS_ALONE} shuffled rounds`,
    { timeout: 120_000 },
    async (id, i) => {
      const r = await rounds(
        movers.filter((c) => c.id === id),
        1000 * (i + 1),
        ROUNDS_ALONE,
      );
      expect(r.moved).toEqual(expectedMovers([id], r.moved));
      expect(r.prerequisiteFailures).toEqual([]);
      expect(r.unaskedRefusals).toEqual([]);
      expect(r.wrong).toEqual([]);
    },
  );

  test.concurrent(`all of them together, ${ROUNDS} shuffled rounds`, { timeout: 300_000 }, async () => {
    const r = await rounds(movers, 99_000, ROUNDS);
    expect(r.moved).toEqual(
      expectedMovers(
        movers.map((c) => c.id),
        r.moved,
      ),
    );
    expect(r.prerequisiteFailures).toEqual([]);
    expect(r.unaskedRefusals).toEqual([]);
    expect(r.wrong).toEqual([]);
  });
});
