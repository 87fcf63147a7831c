/**
 * Leases on the shared test clock (lib/engine/clock/leases.ts, ctx.clock.hold): a move waits until no other holder holds
 * a lease, and for the prerequisites; a lease asked during a move waits for it; a holder's own lease does not hold
 * its own move back; movers that hold each other back are refused, not left waiting. Then the same through a
 * session against the mock: a move asked while a code grant is between /authorize and its exchange waits for it.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ClockLeases } from '../../lib/engine/clock/leases.ts';
import { Inconclusive, type CheckDefinition } from '../../lib/engine/check.ts';
import type { Evidence } from '../../lib/engine/results.ts';
import { prepare, type PreparedTarget } from '../../lib/engine/run/prepare.ts';
import { createSession } from '../../lib/engine/session/session.ts';
import { loadProfile } from '../../lib/profile/load.ts';
import { ROOT } from '../../lib/root.ts';

/** a promise resolved from outside */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => {};
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** lets every pending continuation run (bounded) */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
}

describe('ClockLeases', () => {
  test("a move waits for another holder's lease and names it", async () => {
    const leases = new ClockLeases();
    const a = { name: 'check.a' };
    const b = { name: 'check.b' };
    const exchange = deferred();
    const log: string[] = [];
    const held = leases.hold(a, 'a code between /authorize and its exchange', async () => {
      await exchange.promise;
      log.push('exchange answered');
    });
    const moved = leases.move(b, 3601, async () => void log.push('moved'));
    await settle();
    expect(log).toEqual([]);
    exchange.resolve();
    await held;
    const { wait } = await moved;
    expect(log).toEqual(['exchange answered', 'moved']);
    expect(wait.leases).toEqual(['a code between /authorize and its exchange (check.a)']);
  });

  test("a holder's own lease does not hold its own move back", async () => {
    const leases = new ClockLeases();
    const a = { name: 'quota.window' };
    const out = await leases.hold(a, 'a quota window being filled and judged', async () => {
      expect(leases.holds(a)).toBe(true);
      const { wait } = await leases.move(a, 3601, async () => 'moved');
      expect(wait.leases).toEqual([]);
      return 'done';
    });
    expect(out).toBe('done');
    expect(leases.holds(a)).toBe(false);
  });

  test('a lease asked while a move is in flight waits for the move to end', async () => {
    const leases = new ClockLeases();
    const log: string[] = [];
    const post = deferred();
    const moved = leases.move({ name: 'mover' }, 60, async () => {
      await post.promise;
      log.push('moved');
    });
    await settle();
    const held = leases.hold({ name: 'holder' }, 'a token until its control', async () => void log.push('held'));
    await settle();
    expect(log).toEqual([]);
    post.resolve();
    await Promise.all([moved, held]);
    expect(log).toEqual(['moved', 'held']);
  });

  test('no move before the leases are ready (the prerequisites settled)', async () => {
    const ready = deferred();
    const leases = new ClockLeases(() => ready.promise);
    let moved = false;
    const m = leases.move({ name: 'mover' }, 1, async () => void (moved = true));
    await settle();
    expect(moved).toBe(false);
    ready.resolve();
    await m;
    expect(moved).toBe(true);
  });

  test('moves are made one at a time', async () => {
    const leases = new ClockLeases();
    let inFlight = 0;
    let most = 0;
    const move = (name: string): Promise<unknown> =>
      leases.move({ name }, 1, async () => {
        most = Math.max(most, ++inFlight);
        await settle();
        inFlight--;
      });
    await Promise.all([move('a'), move('b'), move('c')]);
    expect(most).toBe(1);
  });

  test('two movers that each hold a lease the other waits for: one is refused, the other moves', async () => {
    const leases = new ClockLeases();
    const a = { name: 'check.a' };
    const b = { name: 'check.b' };
    const both = deferred();
    let ready = 0;
    const run = (h: { name: string }): Promise<string> =>
      leases.hold(h, `${h.name}'s window`, async () => {
        if (++ready === 2) both.resolve();
        await both.promise;
        await leases.move(h, 10, async () => {});
        return 'moved';
      });
    const outcomes = await Promise.allSettled([run(a), run(b)]);
    const refused = outcomes.filter((o) => o.status === 'rejected');
    expect(refused).toHaveLength(1);
    expect(refused[0]!.status === 'rejected' && refused[0]!.reason).toBeInstanceOf(Inconclusive);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
  });
});

describe('through a session: the clock stays still under a code grant', () => {
  let prepared: PreparedTarget;
  beforeAll(async () => {
    const profile = await loadProfile(`${ROOT}/profiles/mock-sandbox.json`);
    if (!('embedded' in profile)) throw new Error('mock-sandbox.json is an embedded profile');
    // answers 30 ms late: /authorize and the exchange take long enough for a move to be asked in between
    prepared = await prepare({ ...profile, embedded: { ...profile.embedded, latencyMs: 30 } });
  });
  afterAll(async () => {
    await prepared.close();
  });

  const def = (id: string): CheckDefinition => ({
    id,
    suite: 'prerequisites',
    requirements: [],
    title: id,
    run: async () => {},
  });

  test('a move asked between /authorize and the exchange waits for the exchange; the code is not expired', async () => {
    const session = await createSession(prepared.runtime);
    try {
      const e1: Evidence = { exchanges: [], notes: [], tls: [] };
      const e2: Evidence = { exchanges: [], notes: [], tls: [] };
      const granting = session.context(def('test.grant'), e1);
      const moving = session.context(def('test.mover'), e2);
      const grant = granting.tokens.codeGrant(granting.customer(0));
      // the move is asked once /authorize has been answered: the exchange is then on its way (polled; the bound only
      // stops a test that would hang, however slow the machine)
      const authorized = (): boolean => e1.exchanges.some((x) => x.label === 'authorize');
      for (let i = 0; i < 4000 && !authorized(); i++) await new Promise((r) => setTimeout(r, 5));
      expect(authorized()).toBe(true);
      expect(granting.clock.holding()).toBe(true);
      const seconds = prepared.runtime.profile.contract.tokens.codeSeconds + 3600;
      await moving.clock.advance(seconds);
      const g = await grant;
      expect(typeof g.access).toBe('string');
      const exchanged = e1.exchanges.find((x) => x.label === 'token (authorization_code)')!;
      const clock = e2.exchanges.find((x) => x.label === `test clock +${seconds} s`)!;
      expect(exchanged.response?.status).toBe(200);
      expect(Date.parse(clock.startedAt)).toBeGreaterThanOrEqual(
        Date.parse(exchanged.startedAt) + exchanged.durationMs - 1,
      );
      expect(e2.notes.join('\n')).toMatch(
        /the clock move of \d+ s waited \d+ ms for time-bound exchanges in flight: a code between \/authorize and its exchange \(test\.grant\)/,
      );
    } finally {
      await session.close();
    }
  });
});
