/**
 * lib/pool.ts, the harness's one concurrency limiter (the property search's batches, the partner run's scenarios,
 * the suites' rounds of calls): at most `width` calls in flight, results in the items' order, nothing started once
 * `stop()` says so or a call failed, and every call started ended before the failure is thrown.
 */
import { expect, it } from 'vitest';
import { inPool, indices } from '../../lib/pool.ts';

const tick = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

it('keeps at most `width` calls in flight and answers in the order of the items', async () => {
  let inFlight = 0;
  let most = 0;
  const out = await inPool(indices(10), 3, async (i) => {
    most = Math.max(most, ++inFlight);
    await tick(10 - i);
    inFlight--;
    return i * 2;
  });
  expect(out).toEqual(indices(10).map((i) => i * 2));
  expect(most).toBe(3);
});

it('starts no call once stop() says so, and answers with the calls started', async () => {
  const seen: number[] = [];
  const out = await inPool(
    indices(10),
    2,
    async (i) => (seen.push(i), i),
    () => seen.length >= 4,
  );
  expect(out).toEqual([0, 1, 2, 3]);
  expect(seen).toEqual([0, 1, 2, 3]);
});

it('starts no call after a failure and throws it once every call started has ended', async () => {
  const ended: number[] = [];
  const run = inPool(indices(10), 3, async (i) => {
    if (i === 1) throw new Error('call 1 failed');
    await tick(20);
    ended.push(i);
  });
  await expect(run).rejects.toThrow('call 1 failed');
  // calls 0 and 2 were in flight when call 1 failed: both ended before the throw, and no later call was started
  expect(ended.sort((a, b) => a - b)).toEqual([0, 2]);
});

it('an empty list makes no call', async () => {
  expect(await inPool([], 4, () => Promise.reject(new Error('called')))).toEqual([]);
});
