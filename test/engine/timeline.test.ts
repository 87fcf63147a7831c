/**
 * The run's timeline (docs/design.md, lib/engine/clock/rendezvous.ts with lib/engine/clock/windows.ts): with a test clock every
 * exclusive check rides one sequence of moves. Quota windows (ctx.clock.window) begin once the operations they spend
 * are fresh, on the moves the others make; windows of different operations run side by side once QUOTA-02's window
 * showed them counted apart, one after another until then; no move is made under a window, and none begins while a
 * move waits.
 */
import { describe, expect, test } from 'vitest';
import { ClockRendezvous } from '../../lib/engine/clock/rendezvous.ts';
import { QuotaCounters } from '../../lib/engine/clock/windows.ts';
import { fakeClock } from './fake-clock.ts';

const WINDOW = 3601;

const tick = (ms = 5): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** a window that logs its start and end around a few ms of work */
function work(log: string[], name: string, ms = 10): () => Promise<void> {
  return async () => {
    log.push(`start ${name}`);
    await tick(ms);
    log.push(`end ${name}`);
  };
}

describe('quota windows on the run’s timeline', () => {
  test('until shown apart one window at a time; then each operation fresh on its own, a window’s length moved between uses', async () => {
    const log: string[] = [];
    const clock = fakeClock(2, log);
    const r = new ClockRendezvous(3, new QuotaCounters(WINDOW, false));
    const [a, b, c] = [r.member(), r.member(), r.member()];
    const notes: string[] = [];
    const [ca, cb, cc] = [a, b, c].map((m) => m.clock(clock, (t) => notes.push(t)));
    await Promise.all([
      ca!
        .window({ spends: ['validate'], calls: ['get'], showsApart: true }, 'apart', work(log, 'apart'))
        .then(() => a.end()),
      cb!.window({ spends: ['get'] }, 'get', work(log, 'get')).then(() => b.end()),
      cc!.window({ spends: ['create'] }, 'create', work(log, 'create')).then(() => c.end()),
    ]);
    // the checks before the timeline called every operation: a move first; the window that may show the operations
    // apart alone (until then one counter); then create at once (fresh since that move), get (called by the first
    // window) after the next move, which waits for create's window
    expect(log).toEqual([
      `move ${WINDOW}`,
      'start apart',
      'end apart',
      'start create',
      'end create',
      `move ${WINDOW}`,
      'start get',
      'end get',
    ]);
    // those that rode a move they did not make say so
    expect(notes.some((n) => /the clock moved \d+ s for the run's timeline/.test(n))).toBe(true);
  });

  test('a plan-wide quota: windows of different operations never side by side', async () => {
    const log: string[] = [];
    const clock = fakeClock(2, log);
    const r = new ClockRendezvous(2, new QuotaCounters(WINDOW, true));
    const [a, b] = [r.member(), r.member()];
    await Promise.all([
      a
        .clock(clock, () => {})
        .window({ spends: ['validate'], calls: ['get'], showsApart: true }, 'apart', work(log, 'apart'))
        .then(() => a.end()),
      b
        .clock(clock, () => {})
        .window({ spends: ['create'] }, 'create', work(log, 'create'))
        .then(() => b.end()),
    ]);
    expect(log).toEqual([`move ${WINDOW}`, 'start apart', 'end apart', `move ${WINDOW}`, 'start create', 'end create']);
  });

  test('a window rides the moves of another member; a move waits for the window in progress', async () => {
    const log: string[] = [];
    const clock = fakeClock(2, log);
    const r = new ClockRendezvous(2, new QuotaCounters(WINDOW, false));
    const [walker, quota] = [r.member(), r.member()];
    const w = walker.clock(clock, () => {});
    const q = quota.clock(clock, () => {});
    const walk = (async () => {
      expect(await w.advanceTogether(100_000)).toBe(100_000);
      await tick(1);
      await w.advance(200_000);
      walker.end();
    })();
    await q.window({ calls: ['get'], spends: ['validate'] }, 'q', work(log, 'q', 20));
    quota.end();
    await walk;
    // the window began on the group's move (its own need was smaller), the walker's next move waited for its end
    expect(log).toEqual(['move 100000', 'start q', 'end q', 'move 200000']);
  });

  test('a move inside a window waits for the other windows only; inside a window no group move is asked', async () => {
    const log: string[] = [];
    const clock = fakeClock(2, log);
    const r = new ClockRendezvous(2, new QuotaCounters(WINDOW, false));
    const [a, b] = [r.member(), r.member()];
    const ca = a.clock(clock, () => {});
    const cb = b.clock(clock, () => {});
    await Promise.all([
      ca
        .window({ calls: ['get'] }, 'a', async () => {
          log.push('start a');
          await expect(ca.advanceTogether(5)).rejects.toThrow(/inside a quota window/);
          await ca.advance(WINDOW);
          log.push('end a');
        })
        .then(() => a.end()),
      cb.window({ calls: ['get'] }, 'b', work(log, 'b', 20)).then(() => b.end()),
    ]);
    expect(log.indexOf(`move ${WINDOW}`)).toBeGreaterThan(log.indexOf('end b'));
    expect(log.at(-1)).toBe('end a');
  });
});
