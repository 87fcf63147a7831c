/**
 * The target's test clock is shared (docs/design.md, "The shared test clock"): a check that moves it must not move it
 * under a time-bound exchange of another check (a code between /authorize and its exchange: the lease), nor before the
 * prerequisites settled (the prerequisites' gate). Each clock-moving check, alone and all of them together, runs as
 * certify runs it, with the interleaving forced by events rather than by random real offsets: the mock holds one
 * request unanswered (its intercept) until a mover has asked its move, every continuation has run and a move that was
 * made has reached the mock; then the request is answered. The outcome is the mock's own: the held code exchange answered (the code not
 * expired under it), the mock's clock still at its start when the held prerequisite is answered. Each defect fails
 * here alone: a lease not held (the clock moved under the held exchange: every mover that must move, and the property
 * movers whose inputs overflow a window), a move not waiting for the prerequisites (the clock moved under the held
 * prerequisite: every mover that must move). The run's data seed is fixed: the same cases every run.
 */
import { afterEach, describe, expect, test, vi } from 'vitest';
import type { CheckDefinition } from '../../lib/engine/check.ts';
import { ClockLeases } from '../../lib/engine/clock/leases.ts';
import type { CheckResult, Evidence, RecordedExchange } from '../../lib/engine/results.ts';
import { defaultRunOptions, runChecks } from '../../lib/engine/run/runner.ts';
import { establishPrerequisites } from '../../lib/engine/session/prerequisites.ts';
import { createSession, type Session } from '../../lib/engine/session/session.ts';
import { startMockBank, type MockBank } from '../../lib/mock/index.ts';
import type { MockIntercept } from '../../lib/mock/types.ts';
import { testPki } from '../../lib/pki/index.ts';
import { FullProfile } from '../../lib/profile/schema.ts';
import { allChecks } from '../../suites/index.ts';

/** the checks that move the clock: every exclusive one (each is shown to ask a move below) */
const movers = allChecks.filter((c) => c.exclusive);
/** property checks move it only when their inputs overflow a quota window (a small input space may not) */
const mayStay = new Set(movers.filter((c) => c.property === true).map((c) => c.id));
/** the one check that asks for an expired code (TOK-05): its refusal is asked for */
const ASKS_FOR_EXPIRED_CODE = 'tokens.code-expires';
const options = { ...defaultRunOptions, embedded: true };
/** the run's data seed (a failing case replays with it) */
const DATA_SEED = 45;

/** a promise resolved from outside */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => {};
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** lets every pending continuation run (bounded): a move no lease or gate holds back is made by then */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
}

/**
 * the mock, holding the first request that `held` matches unanswered until `release`; every move asked of the
 * session's leases is seen (asked, and the moves made, whose requests reached the mock once they settled)
 */
interface Stage {
  mock: MockBank;
  session: Session;
  /** from now on, the first request that `held` matches is held at the mock until release */
  arm(held: (path: string, body: string) => boolean): void;
  /** resolves once the matched request reached the mock (and waits there) */
  arrived: Promise<void>;
  release(): void;
  /** resolves at the first move asked */
  asked: Promise<void>;
  /** the moves made so far (their requests to the test clock) */
  made: Promise<unknown>[];
  /** the mock clock's offset (s): 0 until a move reached it */
  offset(): number;
}

let stage: Stage | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  stage?.release();
  await stage?.session.close();
  await stage?.mock.close();
  stage = undefined;
});

async function staged(): Promise<Stage> {
  const arrived = deferred();
  const gate = deferred();
  let armed: ((path: string, body: string) => boolean) | undefined;
  const intercept: MockIntercept = async ({ req, body }, next) => {
    if (armed?.(req.url ?? '', body?.toString('utf8') ?? '')) {
      armed = undefined;
      arrived.resolve();
      await gate.promise;
    }
    return next();
  };
  const mock = await startMockBank({ mode: 'sandbox', pki: await testPki(), intercept });
  // one data seed: a property check's inputs (and whether they overflow a quota window) are the same every run
  const parsed = FullProfile.parse(mock.profile('clock-leases'));
  const profile = { ...parsed, run: { ...parsed.run, dataSeed: DATA_SEED } };
  expect(profile.target.clock).toBeDefined();
  const asked = deferred();
  const made: Promise<unknown>[] = [];
  const move = ClockLeases.prototype.move;
  vi.spyOn(ClockLeases.prototype, 'move').mockImplementation(function (this: ClockLeases, holder, seconds, f) {
    asked.resolve();
    return move.call(this, holder, seconds, () => {
      const p = f();
      made.push(p.catch(() => undefined));
      return p;
    });
  });
  const session = await createSession({ profile, options, faults: [] });
  const start = mock.clock.offsetSeconds();
  stage = {
    mock,
    session,
    arm: (held) => void (armed = held),
    arrived: arrived.promise,
    release: gate.resolve,
    asked: asked.promise,
    made,
    offset: () => mock.clock.offsetSeconds() - start,
  };
  return stage;
}

/**
 * `mover` run as certify runs it while the stage's request is held: released once the mover asked its move (or its
 * run ended without one), every continuation ran and each move made reached the mock; says whether the move was
 * asked while the request was held, and the clock's offset at the release
 */
async function runWhileHeld(
  s: Stage,
  checks: CheckDefinition | readonly CheckDefinition[],
): Promise<{ askedWhileHeld: boolean; offsetAtRelease: number; result: Promise<CheckResult[]> }> {
  let asked = false;
  void s.asked.then(() => (asked = true));
  const result = runChecks(Array.isArray(checks) ? checks : [checks], s.session, options);
  result.catch(() => undefined);
  await Promise.race([s.asked, result]);
  await settle();
  await Promise.all(s.made);
  // what had happened while the request was held
  const [askedWhileHeld, offsetAtRelease] = [asked, s.offset()];
  s.release();
  return { askedWhileHeld, offsetAtRelease, result };
}

/** a code exchange the target refused with invalid_grant (an expired or otherwise unusable code) */
function refusedCodeExchange(x: RecordedExchange): boolean {
  return (
    x.label === 'token (authorization_code)' &&
    x.response?.status === 400 &&
    /invalid_grant/.test(x.response.body ?? '')
  );
}

/** the check moved the clock: a move shared on the run's timeline is made once, by one member; the others note it */
function movedTheClock(r: CheckResult): boolean {
  return (
    r.evidence.exchanges.some((x) => x.label?.startsWith('test clock +')) ||
    r.evidence.notes.some((n) => /the clock moved \d+ s (at once for its clock group|for the run's timeline)/.test(n))
  );
}

/** what is wrong with a mover's result: blocked, failed, an error, or a code refused it did not ask for */
function wrong(r: CheckResult): string[] {
  const out: string[] = [];
  if (r.blockedBy !== undefined || r.verdict === 'fail' || r.verdict === 'error')
    out.push(`${r.checkId} ${r.verdict}: ${r.reason ?? ''}`);
  const refused = r.evidence.exchanges.filter(refusedCodeExchange);
  for (const x of refused.slice(r.checkId === ASKS_FOR_EXPIRED_CODE ? 1 : 0))
    out.push(`${r.checkId}: unasked ${x.response?.body ?? ''}`);
  return out;
}

const def = (id: string): CheckDefinition => ({
  id,
  suite: 'prerequisites',
  requirements: [],
  title: id,
  run: async () => {},
});

/**
 * another check's code grant (/authorize answered, its exchange held at the mock) while `mover` runs: no move reached
 * the clock while the code waited, the exchange is answered (the code not expired), the mover's result is right
 */
async function underCodeExchange(
  mover: CheckDefinition | readonly CheckDefinition[],
): Promise<{ askedWhileHeld: boolean; moved: boolean; offsetAtRelease: number; results: CheckResult[] }> {
  const s = await staged();
  const established = await establishPrerequisites(s.session, s.session.prerequisites);
  expect(established.results.filter((p) => p.verdict !== 'pass' && p.verdict !== 'not-applicable')).toEqual([]);
  s.arm((path, body) => /grant_type=authorization_code/.test(body) && /token/.test(path));
  const e1: Evidence = { exchanges: [], notes: [], tls: [] };
  const granting = s.session.context(def('test.grant'), e1);
  const grant = granting.tokens.codeGrant(granting.customer(0));
  grant.catch(() => undefined);
  await s.arrived;
  const { askedWhileHeld, offsetAtRelease, result } = await runWhileHeld(s, mover);
  expect(offsetAtRelease).toBe(0);
  const g = await grant;
  expect(typeof g.access).toBe('string');
  expect(e1.exchanges.filter(refusedCodeExchange)).toEqual([]);
  const results = await result;
  expect(results.flatMap(wrong)).toEqual([]);
  return { askedWhileHeld, moved: s.offset() > 0, offsetAtRelease, results };
}

describe('the shared test clock: no move under a time-bound exchange, none before the prerequisites', () => {
  test('the clock movers: every exclusive check', () => {
    expect(movers.length).toBeGreaterThanOrEqual(8);
  });

  test.each(movers.filter((c) => !mayStay.has(c.id)).map((c) => [c.id, c] as const))(
    "%s: asked while another check's code waits for its exchange, the move waits for the exchange (the lease)",
    { timeout: 60_000 },
    async (_id, mover) => {
      const { askedWhileHeld, moved, offsetAtRelease } = await underCodeExchange(mover);
      expect(offsetAtRelease).toBe(0);
      // the scenario happened: the move was asked while the exchange was held, and made after it
      expect([askedWhileHeld, moved]).toEqual([true, true]);
    },
  );

  // a property check moves the clock only when its inputs overflow a quota window (the run's data seed decides):
  // when it does, the same holds
  test.each(movers.filter((c) => mayStay.has(c.id)).map((c) => [c.id, c] as const))(
    "%s (property): run while another check's code waits for its exchange, no move under it (the lease)",
    { timeout: 60_000 },
    async (_id, mover) => {
      const { offsetAtRelease } = await underCodeExchange(mover);
      expect(offsetAtRelease).toBe(0);
    },
  );

  test(
    "all of them together, while another check's code waits for its exchange: no move under it",
    { timeout: 120_000 },
    async () => {
      const { askedWhileHeld, offsetAtRelease, results } = await underCodeExchange(movers);
      expect([askedWhileHeld, offsetAtRelease]).toEqual([true, 0]);
      // every mover that must move the clock did (itself, or with its clock group on the run's timeline)
      const moved = results.filter((r) => movedTheClock(r)).map((r) => r.checkId);
      expect(moved).toEqual(expect.arrayContaining(movers.filter((c) => !mayStay.has(c.id)).map((c) => c.id)));
    },
  );

  test.each(movers.filter((c) => !mayStay.has(c.id)).map((c) => [c.id, c] as const))(
    '%s: asked while a prerequisite waits for its answer, the move waits for the prerequisites',
    { timeout: 60_000 },
    async (_id, mover) => {
      // the partner's client-credentials token (a prerequisite no lease holds) held at the mock
      const s = await staged();
      s.arm((path) => path.startsWith('/oauth/partner_auth/token'));
      const establishing = establishPrerequisites(s.session, s.session.prerequisites);
      await s.arrived;
      const { askedWhileHeld, offsetAtRelease, result } = await runWhileHeld(s, mover);
      expect(offsetAtRelease).toBe(0);
      const established = await establishing;
      expect(established.results.filter((p) => p.verdict !== 'pass' && p.verdict !== 'not-applicable')).toEqual([]);
      const [r] = await result;
      expect(wrong(r!)).toEqual([]);
      expect([askedWhileHeld, s.offset() > 0]).toEqual([true, true]);
    },
  );
});
