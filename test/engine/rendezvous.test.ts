/**
 * Clock groups (lib/engine/clock/rendezvous.ts, CheckDefinition.clockGroup) and the order checks start in
 * (lib/engine/run/runner.ts): one move for a group, the largest asked; a wait rides the others' moves and moves the
 * clock itself only once nobody else may; a move already in flight when a wait begins does not count for it.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ClockRendezvous } from '../../lib/engine/clock/rendezvous.ts';
import { Inconclusive, type CheckDefinition } from '../../lib/engine/check.ts';
import type { CheckContext } from '../../lib/engine/session/context.ts';
import { fakeClock } from './fake-clock.ts';
import { defaultRunOptions, runChecks, type ContextFactory } from '../../lib/engine/run/runner.ts';
import { startMockBank, type MockBank } from '../../lib/mock/index.ts';
import { testPki } from '../../lib/pki/index.ts';
import { FullProfile } from '../../lib/profile/schema.ts';

const tick = (ms = 5): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('a clock group moves the clock once, by the largest move asked', () => {
  test('three members ask 10, 50 and 30 s: one move of 50 s; each goes on with 50', async () => {
    const clock = fakeClock();
    const r = new ClockRendezvous(3);
    const notes: string[] = [];
    const members = [r.member(), r.member(), r.member()].map((m) => m.clock(clock, (t) => notes.push(t)));
    const moved = await Promise.all([
      members[0]!.advanceTogether(10),
      members[1]!.advanceTogether(50),
      members[2]!.advanceTogether(30),
    ]);
    expect(moved).toEqual([50, 50, 50]);
    expect(clock.moves).toEqual([50]);
    expect(notes).toHaveLength(3);
  });

  test('the move waits for every member: one still busy holds it back; one that ends does not', async () => {
    const clock = fakeClock();
    const r = new ClockRendezvous(3);
    const [a, b, c] = [r.member(), r.member(), r.member()];
    let done = false;
    const asked = a
      .clock(clock, () => {})
      .advanceTogether(20)
      .then((s) => {
        done = true;
        return s;
      });
    const askedToo = b.clock(clock, () => {}).advanceTogether(5);
    await tick();
    expect(done).toBe(false);
    expect(clock.moves).toEqual([]);
    // c never asks: it ends (a check that failed before its move)
    c.end();
    expect(await Promise.all([asked, askedToo])).toEqual([20, 20]);
    expect(clock.moves).toEqual([20]);
  }, 5_000);

  test('a member that tolerates less than the group moved is inconclusive, the others go on', async () => {
    const clock = fakeClock();
    const r = new ClockRendezvous(2);
    const [a, b] = [r.member().clock(clock, () => {}), r.member().clock(clock, () => {})];
    const [ra, rb] = await Promise.allSettled([a.advanceTogether(100), b.advanceTogether(10, 50)]);
    expect(ra).toEqual({ status: 'fulfilled', value: 100 });
    expect(rb.status).toBe('rejected');
    expect((rb as PromiseRejectedResult).reason).toBeInstanceOf(Inconclusive);
    expect(clock.moves).toEqual([100]);
  });

  test('after the group move, advanceTogether is a move of the member alone', async () => {
    const clock = fakeClock();
    const r = new ClockRendezvous(1);
    const m = r.member().clock(clock, () => {});
    expect(await m.advanceTogether(7)).toBe(7);
    expect(await m.advanceTogether(9)).toBe(9);
    expect(clock.moves).toEqual([7, 9]);
  });
});

describe('waitFor: time passes on the moves of the others', () => {
  test('rides two moves of another member (60 + 60 s for a wait of 100 s); moves nothing itself', async () => {
    const clock = fakeClock();
    const r = new ClockRendezvous(2);
    const [a, b] = [r.member(), r.member()];
    const waiter = a.clock(clock, () => {});
    const mover = b.clock(clock, () => {});
    let passed: number | undefined;
    const waiting = waiter.waitFor(100).then((s) => (passed = s));
    await mover.advance(60);
    await tick();
    expect(passed).toBeUndefined();
    await mover.advance(60);
    await waiting;
    expect(passed).toBe(120);
    expect(clock.moves).toEqual([60, 60]);
    b.end();
    a.end();
  });

  test('moves what is left itself once the others have ended', async () => {
    const clock = fakeClock();
    const r = new ClockRendezvous(2);
    const [a, b] = [r.member(), r.member()];
    const waiting = a.clock(clock, () => {}).waitFor(100);
    await b.clock(clock, () => {}).advance(30);
    b.end();
    expect(await waiting).toBe(100);
    expect(clock.moves).toEqual([30, 70]);
  });

  test('a move already in flight when the wait began does not count for it', async () => {
    const clock = fakeClock(30);
    const r = new ClockRendezvous(2);
    const [a, b] = [r.member(), r.member()];
    const inFlight = b.clock(clock, () => {}).advance(500);
    await tick(1);
    const waiting = a.clock(clock, () => {}).waitFor(50);
    await inFlight;
    b.end();
    // the 500 s move may have reached the target before whatever the waiter did last: it waits its 50 s itself
    expect(await waiting).toBe(50);
    expect(clock.moves).toEqual([500, 50]);
  });

  test('several waiters and nobody else: one moves at a time, each gets at least its wait', async () => {
    const clock = fakeClock();
    const r = new ClockRendezvous(2);
    const [a, b] = [r.member(), r.member()];
    const got = await Promise.all([a.clock(clock, () => {}).waitFor(40), b.clock(clock, () => {}).waitFor(100)]);
    expect(got[0]).toBeGreaterThanOrEqual(40);
    expect(got[1]).toBeGreaterThanOrEqual(100);
    expect(clock.moves.reduce((x, y) => x + y, 0)).toBeLessThanOrEqual(140);
  });
});

describe('stopwatch: every move started since, whoever made it, and every one not yet made at its start', () => {
  test("counts the other members' moves, and one in flight at its start (it may reach the target after it)", async () => {
    const clock = fakeClock(20);
    const r = new ClockRendezvous(2);
    const [a, b] = [r.member().clock(clock, () => {}), r.member().clock(clock, () => {})];
    await b.advance(7); // made before: not counted
    const before = b.advance(1000);
    await tick(1);
    const since = a.stopwatch();
    const inFlight = b.advance(30);
    expect(since()).toBe(1030);
    await Promise.all([before, inFlight, a.advance(5)]);
    expect(since()).toBe(1035);
  });

  test('a move that waits for a lease when a token is fetched ages that token: the stopwatch counts it', async () => {
    // the near-miss property's 401s (sandbox, seeds 1, 3, 6): a member's move started, then waited for the lease of
    // another member's batch; a token fetched by that batch meanwhile was taken for fresh after the move was made
    let release!: () => void;
    const lease = new Promise<void>((go) => (release = go));
    const clock = { ...fakeClock(1), advance: async (_s: number) => lease };
    const r = new ClockRendezvous(2);
    const [a, b] = [r.member().clock(clock, () => {}), r.member().clock(clock, () => {})];
    const move = b.advance(3601); // started; its lease wait keeps it from the target
    await tick(1);
    const token = a.stopwatch(); // a token fetched now
    expect(token()).toBe(3601);
    release();
    await move;
    expect(token()).toBe(3601);
  });
});

describe('a member holding a lease on the clock (ctx.clock.hold)', () => {
  test('asking for the group move or a wait is refused: the move would wait for its own lease', async () => {
    const clock = { ...fakeClock(), holding: () => true };
    const r = new ClockRendezvous(2);
    const [a, b] = [r.member(), r.member()];
    await expect(a.clock(clock, () => {}).advanceTogether(10)).rejects.toThrow(/holds a lease on the clock/);
    await expect(b.clock(clock, () => {}).waitFor(10)).rejects.toThrow(/holds a lease on the clock/);
    expect(clock.moves).toEqual([]);
    a.end();
    b.end();
  });
});

describe('runChecks: the order checks start in', () => {
  let mock: MockBank;
  let profile: FullProfile;
  beforeAll(async () => {
    mock = await startMockBank({ mode: 'sandbox', pki: await testPki() });
    profile = FullProfile.parse(mock.profile('order'));
  });
  afterAll(async () => {
    await mock.close();
  });

  test('shared checks that start early first; quota spenders before clock movers; a clock group side by side', async () => {
    const log: string[] = [];
    const clock = fakeClock();
    const check = (name: string, extra: Partial<CheckDefinition>, body?: (ctx: CheckContext) => Promise<void>) =>
      ({
        id: `t.${name}`,
        suite: 't',
        requirements: ['TOK-05'],
        title: name,
        ...extra,
        run: async (ctx: CheckContext) => {
          log.push(`start ${name}`);
          await (body ? body(ctx) : tick(2));
          log.push(`end ${name}`);
        },
      }) as CheckDefinition;
    const defs = [
      check('shared-a', {}),
      check('shared-early', { startEarly: true }),
      check('clock-only', { exclusive: true, needs: ['clock'] }),
      check('g1', { exclusive: true, needs: ['clock'], clockGroup: 'g' }, async (ctx) => {
        await ctx.clock.advanceTogether(10);
      }),
      check('quota', { exclusive: true, needs: ['clock', 'destructive'] }),
      check('g2', { exclusive: true, needs: ['clock'], clockGroup: 'g' }, async (ctx) => {
        await ctx.clock.advanceTogether(20);
      }),
    ];
    const factory: ContextFactory = {
      profile: { ...profile, run: { ...profile.run, concurrency: 1 } },
      redact: (t) => t,
      context: (_def, evidence) =>
        ({ clock, note: (t: string) => evidence.notes.push(t), dispose: () => {} }) as unknown as CheckContext,
    };
    const results = await runChecks(defs, factory, { ...defaultRunOptions, embedded: true });
    expect(results.map((r) => [r.checkId, r.verdict])).toEqual(defs.map((d) => [d.id, 'pass']));
    expect(log.filter((l) => l.startsWith('start'))).toEqual([
      'start shared-early',
      'start shared-a',
      'start quota',
      'start clock-only',
      'start g1',
      'start g2',
    ]);
    // the group's two checks overlapped: both started before either ended, and the clock moved once, by 20 s
    expect(log.indexOf('start g2')).toBeLessThan(log.indexOf('end g1'));
    expect(clock.moves).toEqual([20]);
  });
});
