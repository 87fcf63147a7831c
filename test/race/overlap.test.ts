/** suites/race/burst.ts: the overlap rule, and the inconclusive verdict when no burst can be shown to overlap. */
import { describe, expect, test, vi } from 'vitest';
import { Inconclusive } from '../../lib/engine/check.ts';
import type { CheckContext } from '../../lib/engine/session/context.ts';
import type { BurstResult } from '../../lib/http/burst/burst.ts';
import { overlapGroup, overlapped, repeatBursts, tally } from '../../suites/race/burst.ts';

/** a burst of `sent` replies, `ready` of them released evenly over `spread` ms (each its release time) */
const result = (ready: number, spread: number, sent = ready): BurstResult => ({
  replies: Array.from({ length: sent }, (_, i) => ({
    ready: i < ready,
    ...(i < ready ? { releasedAt: 1000 + (ready > 1 ? (i * spread) / (ready - 1) : 0) } : {}),
    response: { status: 200, headers: {}, text: '', json: undefined },
  })),
  ready,
  releaseSpreadMs: spread,
});

/** a burst whose requests were released at these times (ms): a harness preempted during the release */
const releasedAt = (times: number[]): BurstResult => ({
  replies: times.map((t) => ({
    ready: true,
    releasedAt: t,
    response: { status: 200, headers: {}, text: '', json: undefined },
  })),
  ready: times.length,
  releaseSpreadMs: Math.max(...times) - Math.min(...times),
});

/** a context whose bursts come back as given (only burst and note are used) */
function fakeCtx(results: BurstResult[]): { ctx: CheckContext; notes: string[]; sent: number[] } {
  const notes: string[] = [];
  const sent: number[] = [];
  const ctx = {
    burst: async (reqs: readonly unknown[]) => {
      sent.push(reqs.length);
      return results.shift()!;
    },
    note: (t: string) => notes.push(t),
  } as unknown as CheckContext;
  return { ctx, notes, sent };
}

describe('race bursts', () => {
  test('overlap: every request ready and released within less than the control took', () => {
    expect(overlapped(result(20, 0.5), 3)).toBe(true);
    // 19 gaps of 5 ms: no two within the control's 3 ms
    expect(overlapped(result(20, 95), 3)).toBe(false);
    // 19 of 20 connected in time: the 19 released together overlapped (the 20th was abandoned unsent)
    expect(overlapped(result(19, 0.5, 20), 3)).toBe(true);
    expect(overlapped(result(1, 0.5, 20), 3)).toBe(false);
    // a burst the window cut to 8 of 20: judged on the 8 it sent; one alone never overlaps
    expect(overlapped({ ...result(8, 0.5), asked: 20 }, 3)).toBe(true);
    expect(overlapped(result(1, 0), 3)).toBe(false);
    expect(tally(result(2, 0).replies)).toBe('200 ×2');
    // statuses in their own order, whichever answered first: the same burst reads the same every run
    const [first, second, third] = result(3, 0).replies;
    const answered = (status: number) => ({ ...first!, response: { ...first!.response!, status } });
    const spelled = (order: number[]) => tally(order.map(answered));
    expect(spelled([400, 200, 400])).toBe('200 ×1, 400 ×2');
    expect(spelled([200, 400, 400])).toBe('200 ×1, 400 ×2');
    expect(tally([{ ...second!, response: undefined, error: 'ECONNRESET' }, third!])).toBe('200 ×1, ECONNRESET ×1');
  });

  test('a busy machine: a release spread past the control (0.854 ms against 0.80) still shows the requests overlapped', () => {
    // 20 writes 45 µs apart: the whole release took longer than the control's answer, 18 of them within it
    const busy = result(20, 0.854);
    expect(busy.releaseSpreadMs).toBeGreaterThan(0.8);
    expect(overlapGroup(busy, 0.8)).toBe(18);
    expect(overlapped(busy, 0.8)).toBe(true);
    // preempted twice during the release (5 ms each): three groups, the largest of 8 overlapped
    const preempted = releasedAt([0, 0.02, 0.04, 5.06, 5.08, 5.1, 5.12, 5.14, 5.16, 5.18, 5.2, 10.22, 10.24]);
    expect(overlapGroup(preempted, 0.8)).toBe(8);
    expect(overlapped(preempted, 0.8)).toBe(true);
  });

  test('overlap needs two ready requests released within less than the control, nothing less', () => {
    // every write delayed to the control's answer time or more: no two overlapped
    expect(overlapGroup(releasedAt([0, 1, 2, 3]), 1)).toBe(1);
    expect(overlapped(releasedAt([0, 1, 2, 3]), 1)).toBe(false);
    expect(overlapped(releasedAt([0, 0.79]), 0.8)).toBe(true);
    // a reply a gateway throttled (released, not ready: took no part) makes no pair
    const throttled = releasedAt([0, 0.1]);
    throttled.replies[1] = { ...throttled.replies[1]!, ready: false };
    expect(overlapped({ ...throttled, ready: 1 }, 0.8)).toBe(false);
    expect(overlapGroup(releasedAt([]), 0.8)).toBe(0);
  });

  test('a race past a quota: more requests than the room left must overlap', () => {
    // 4 of 6 within the control, the room left 3: overlapped; the room left 4: not
    const burst = releasedAt([0, 0.1, 0.2, 0.3, 5, 10]);
    expect(overlapped(burst, 0.8, 4)).toBe(true);
    expect(overlapped(burst, 0.8, 5)).toBe(false);
  });

  test('no burst overlapped: inconclusive with the measured spreads, after the extra bursts', async () => {
    const { ctx, notes, sent } = fakeCtx(Array.from({ length: 8 }, () => result(4, 9)));
    const run = repeatBursts(ctx, {
      n: 4,
      repeats: 3,
      controlMs: 2,
      make: async () => [1, 2, 3, 4].map(() => ({ method: 'POST', url: 'x', body: 'y' })),
      judge: async () => {},
    });
    await expect(run).rejects.toBeInstanceOf(Inconclusive);
    await expect(run).rejects.toThrow(
      "within the budget (8 bursts): no 2 requests released within less than the control's 2.00 ms answer time of one another (the largest group of each burst, of those ready: 1/4, 1/4, 1/4, 1/4, 1/4, 1/4, 1/4, 1/4;",
    );
    expect(sent).toEqual([4, 4, 4, 4, 4, 4, 4, 4]);
    expect(notes.at(-1)).toBe('0 of 8 bursts overlapped (budget while none has: 8 bursts)');
  });

  test('on a busy machine (7 s a burst) the bursts that could not be shown to overlap are repeated as on an idle one', async () => {
    // the machine's clock as the bursts see it: each burst takes 7 s (a loaded client, a slow release)
    let now = 0;
    const clock = vi.spyOn(performance, 'now').mockImplementation(() => now);
    try {
      const { ctx, notes, sent } = fakeCtx([...Array.from({ length: 4 }, () => result(4, 9)), result(4, 0.1)]);
      const burst = ctx.burst.bind(ctx);
      (ctx as { burst: typeof ctx.burst }).burst = async (reqs) => {
        now += 7_000;
        return burst(reqs);
      };
      const j = await repeatBursts(ctx, {
        n: 4,
        repeats: 3,
        controlMs: 2,
        make: async () => [],
        judge: async () => {},
      });
      // the fifth burst, at 35 s, overlapped: the same verdict as on an idle machine
      expect(j).toMatchObject({ bursts: 5, overlapped: 1 });
      expect(sent).toHaveLength(5);
      expect(notes.at(-1)).toBe('1 of 5 bursts overlapped (budget while none has: 8 bursts)');
    } finally {
      clock.mockRestore();
    }
  });

  test('a serialising target (connections not all ready) is not shown to overlap', async () => {
    const { ctx } = fakeCtx([result(1, 0, 4), result(1, 0, 4)]);
    await expect(
      repeatBursts(ctx, { n: 4, repeats: 1, maxBursts: 2, controlMs: 2, make: async () => [], judge: async () => {} }),
    ).rejects.toBeInstanceOf(Inconclusive);
  });

  test('repeats only as asked once a burst overlapped; the judge sees every burst', async () => {
    const { ctx, notes } = fakeCtx([result(4, 9), result(4, 0.1), result(4, 0.1)]);
    const judged: number[] = [];
    const j = await repeatBursts(ctx, {
      n: 4,
      repeats: 3,
      controlMs: 2,
      make: async () => [],
      judge: async (_r, i) => void judged.push(i),
    });
    expect(j).toMatchObject({ bursts: 3, overlapped: 2 });
    expect(judged).toEqual([0, 1, 2]);
    expect(notes.at(-1)).toBe('2 of 3 bursts overlapped (budget while none has: 8 bursts)');
  });

  test('a burst the target cut says so; fewer than 2 at once is inconclusive, never an error', async () => {
    const { ctx, notes } = fakeCtx([
      { ...result(8, 0.1), asked: 20 },
      { ...result(1, 0), asked: 20 },
    ]);
    const run = repeatBursts(ctx, { n: 20, repeats: 2, controlMs: 2, make: async () => [], judge: async () => {} });
    await expect(run).rejects.toBeInstanceOf(Inconclusive);
    await expect(run).rejects.toThrow(/fewer than 2 requests at once/);
    expect(notes[0]).toMatch(/8\/8 ready \(8 of the 20 asked: as many as the target was seen to accept at once\)/);
  });
  test('calls alongside a burst are sent while it is in flight; their failure comes once the burst is noted', async () => {
    const { ctx, notes } = fakeCtx([result(4, 0.1), result(4, 0.1), result(4, 0.1)]);
    const log: string[] = [];
    const burst = ctx.burst.bind(ctx);
    (ctx as { burst: typeof ctx.burst }).burst = async (reqs) => {
      log.push('burst start');
      await new Promise((r) => setTimeout(r, 5));
      log.push('burst end');
      return burst(reqs);
    };
    const run = repeatBursts(ctx, {
      n: 4,
      repeats: 3,
      controlMs: 2,
      make: async () => [],
      judge: async (_r, i) => void log.push(`judge ${i}`),
      alongside: async (i) => {
        log.push(`alongside ${i}`);
        if (i === 1) throw new Error('the read of burst 1 found a second payment');
      },
    });
    await expect(run).rejects.toThrow(/a second payment/);
    // burst 1's call went out with it (before it ended), burst 1 was noted, neither judged nor followed by burst 2
    expect(log).toEqual([
      'burst start',
      'alongside 0',
      'burst end',
      'judge 0',
      'burst start',
      'alongside 1',
      'burst end',
    ]);
    expect(notes).toHaveLength(2);
  });
});
