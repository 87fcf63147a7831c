/**
 * The clock of the run's deliberate waits (lib/waits.ts): real time by default, a stop ending a wait at once; and the
 * tests' clock (test/fixtures/waits.ts), which records each wait and moves to its end, waits side by side ending in
 * the order of their ends.
 */
import { afterEach, expect, test, vi } from 'vitest';
import { realWaits } from '../../lib/waits.ts';
import { TestWaits } from '../fixtures/waits.ts';

afterEach(() => {
  vi.useRealTimers();
});

test('real time: a wait ends once its time has passed on the process timers, not before', async () => {
  vi.useFakeTimers();
  let ended = false;
  const wait = realWaits.sleep(1000).then(() => (ended = true));
  await vi.advanceTimersByTimeAsync(999);
  expect(ended).toBe(false);
  await vi.advanceTimersByTimeAsync(1);
  await wait;
  expect(ended).toBe(true);
});

test('real time: a stop ends a wait at once with its reason, and leaves no timer', async () => {
  vi.useFakeTimers();
  const stop = new AbortController();
  const wait = realWaits.sleep(60_000, stop.signal);
  stop.abort(new Error('the check was stopped'));
  await expect(wait).rejects.toThrow('the check was stopped');
  expect(vi.getTimerCount()).toBe(0);
});

test("the test's clock: waits recorded, the clock at each one's end as it ends, in the order of their ends", async () => {
  const waits = new TestWaits();
  const seen: string[] = [];
  const at = (what: string) => () => seen.push(`${what} at ${waits.now()}`);
  await Promise.all([
    waits.sleep(1000).then(at('a')),
    waits.sleep(200).then(at('b')),
    waits.sleep(0).then(at('c')),
    waits.sleep(200).then(at('d')),
  ]);
  expect(seen).toEqual(['c at 0', 'b at 200', 'd at 200', 'a at 1000']);
  expect(waits.asked).toEqual([1000, 200, 200]);
  // a wait asked later ends after the clock's time then
  await waits.sleep(1);
  expect(waits.now()).toBe(1001);
});

test("the test's clock: a stop ends a wait at once with its reason; the clock does not move for it", async () => {
  const waits = new TestWaits();
  const stop = new AbortController();
  const wait = waits.sleep(5000, stop.signal);
  stop.abort(new Error('stopped'));
  await expect(wait).rejects.toThrow('stopped');
  await waits.sleep(10);
  expect(waits.now()).toBe(10);
});
