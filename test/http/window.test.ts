/** lib/http/connections/window.ts: the in-flight window grows on prompt answers and is cut by late ones and timeouts. */
import { describe, expect, test } from 'vitest';
import { INITIAL, InFlightWindow, LATE_FLOOR_MS, type Outcome } from '../../lib/http/connections/window.ts';

/** takes `n` places at once (each a call), ends them all with the outcome given */
async function round(w: InFlightWindow, n: number, outcome: Outcome) {
  const slots = await Promise.all(Array.from({ length: n }, () => w.acquire()));
  for (const s of slots) s.done([outcome]);
  return slots;
}

/** a window whose vacate records how many idle connections it was told to keep */
function vacating(): { w: InFlightWindow; keeps: number[] } {
  const keeps: number[] = [];
  const w = new InFlightWindow({
    vacate: (keep) => {
      keeps.push(keep);
      return Promise.resolve();
    },
  });
  return { w, keeps };
}

describe('in-flight window', () => {
  test('starts modest and doubles after each round answered promptly while it is used', async () => {
    const w = new InFlightWindow();
    expect(w.limit()).toBe(INITIAL);
    await round(w, INITIAL, { firstByteMs: 5 });
    expect(w.limit()).toBe(2 * INITIAL);
    await round(w, 2 * INITIAL, { firstByteMs: 5 });
    expect(w.limit()).toBe(4 * INITIAL);
    // not used (one call in a window of 32): no growth
    await round(w, 1, { firstByteMs: 5 });
    expect(w.limit()).toBe(4 * INITIAL);
  });

  test("the fastest answer counts from the request's write (answerMs), not from the call's start (its connect, its waits)", async () => {
    const w = new InFlightWindow();
    expect(w.fastestAnswerMs()).toBe(Number.POSITIVE_INFINITY);
    // a call whose connect took long and whose answer came at once; a burst's (no write time): not counted
    await round(w, 1, { firstByteMs: 80 });
    expect(w.fastestAnswerMs()).toBe(Number.POSITIVE_INFINITY);
    await round(w, 1, { firstByteMs: 80, answerMs: 3 });
    await round(w, 1, { firstByteMs: 2, answerMs: 7 });
    expect(w.fastestAnswerMs()).toBe(3);
  });

  test('no more in flight than the window: the next call waits until one ends', async () => {
    const w = new InFlightWindow();
    const slots = await Promise.all(Array.from({ length: INITIAL }, () => w.acquire()));
    let granted = false;
    const next = w.acquire().then((s) => {
      granted = true;
      return s;
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(granted).toBe(false);
    slots[0]!.done([{ firstByteMs: 1 }]);
    (await next).done([]);
    expect(granted).toBe(true);
    for (const s of slots.slice(1)) s.done([]);
  });

  test("a prerequisite's call (first) goes before the calls waiting, after the first ones before it", async () => {
    const w = new InFlightWindow();
    const slots = await Promise.all(Array.from({ length: INITIAL }, () => w.acquire()));
    const order: string[] = [];
    const wait = (name: string, first?: boolean) =>
      w.acquire(1, first ? { first } : {}).then((s) => {
        order.push(name);
        return s;
      });
    const waiting = [wait('a'), wait('p1', true), wait('b'), wait('p2', true)];
    // one place at a time: each freed place goes to the head of the queue
    for (const s of slots.slice(0, 4)) {
      s.done([]);
      await Promise.resolve();
    }
    for (const s of await Promise.all(waiting)) s.done([]);
    for (const s of slots.slice(4)) s.done([]);
    expect(order).toEqual(['p1', 'p2', 'a', 'b']);
  });

  test('a late answer halves the window and sets a ceiling under the level it was sent at', async () => {
    const w = new InFlightWindow();
    await round(w, INITIAL, { firstByteMs: 5 });
    await round(w, 2 * INITIAL, { firstByteMs: 5 });
    expect(w.limit()).toBe(32);
    // 20 in flight, one answered after a dropped SYN's second
    const slots = await Promise.all(Array.from({ length: 20 }, () => w.acquire()));
    slots[19]!.done([{ firstByteMs: LATE_FLOOR_MS + 600 }]);
    for (const s of slots.slice(0, 19)) s.done([{ firstByteMs: 5 }]);
    expect(w.limit()).toBe(10);
    // grows back up to the ceiling (19), not past it
    await round(w, 10, { firstByteMs: 5 });
    await round(w, 19, { firstByteMs: 5 });
    await round(w, 19, { firstByteMs: 5 });
    expect(w.limit()).toBe(19);
    expect(w.summary()).toMatchObject({ initial: INITIAL, lateAnswers: 1, timeouts: 0, smallest: INITIAL, final: 19 });
  });

  test('timeouts among others halve down to one; a call alone is told so', async () => {
    const w = new InFlightWindow();
    // 8 calls in flight time out together: half of them may be in flight, then half again…
    for (const [n, after] of [
      [8, 4],
      [4, 2],
      [2, 1],
    ] as const) {
      const slots = await Promise.all(Array.from({ length: n }, () => w.acquire()));
      expect(slots[0]!.alone()).toBe(false);
      for (const s of slots) s.done([{ timedOut: true }]);
      expect(w.limit()).toBe(after);
    }
    const alone = await w.acquire();
    alone.done([{ timedOut: true }]);
    expect(alone.alone()).toBe(true);
    expect(w.limit()).toBe(1);
    expect(w.summary()).toMatchObject({ timeouts: 15, smallest: 1 });
  });

  test('a burst takes its places at once, cut to the largest burst the target accepted', async () => {
    const w = new InFlightWindow();
    // nothing known of the target yet: the whole burst, once nothing else is in flight
    const b = await w.acquire(20);
    expect(b.size).toBe(20);
    w.burstAccepted(b.size, 5);
    b.done([]);
    expect(w.burstSize(20)).toBe(5);
    expect(w.summary().burstLimit).toBe(5);
  });
});

describe('in-flight window: connections the target does not keep', () => {
  test('answers after which the target closed the connection neither cut nor cap the window (a style, not a limit)', async () => {
    const w = new InFlightWindow();
    // every answer closes its connection (Connection: close, as Python's http.server): the window grows as usual
    await round(w, INITIAL, { firstByteMs: 5, closed: true });
    expect(w.limit()).toBe(2 * INITIAL);
    await round(w, 2 * INITIAL, { firstByteMs: 5, closed: true });
    expect(w.limit()).toBe(4 * INITIAL);
    expect(w.limited()).toBe(false);
    expect(w.places()).toBeUndefined();
    expect(w.summary()).toMatchObject({ closedByTarget: 3 * INITIAL, smallest: INITIAL, largest: 2 * INITIAL });
    expect(w.summary().resets).toBeUndefined();
  });

  test('the target closes after its answers only when it closed after nine in ten of those that tell (not now and then)', async () => {
    const w = new InFlightWindow();
    // a small target closing a connection now and then to serve the one waiting: not a target that closes
    for (let i = 0; i < 9; i++) await round(w, 1, { firstByteMs: 5, closed: false });
    await round(w, 1, { firstByteMs: 5, closed: true });
    expect(w.closes()).toBe(false);
    // answers that do not tell (a refusal, a burst's) are not counted either way
    const other = new InFlightWindow();
    await round(other, 1, { firstByteMs: 5, closed: true });
    await round(other, 5, { firstByteMs: 5 });
    expect(other.closes()).toBe(true);
    await round(other, 8, { firstByteMs: 5, closed: true });
    await round(other, 1, { firstByteMs: 5, closed: false });
    // 9 of 10 that tell
    expect(other.closes()).toBe(true);
    await round(other, 1, { firstByteMs: 5, closed: false });
    expect(other.closes()).toBe(false);
  });

  test('a connect refused or reset, or a connection reset before its answer, cuts the window as a late answer does', async () => {
    const w = new InFlightWindow();
    await round(w, INITIAL, { firstByteMs: 5 });
    expect(w.limit()).toBe(2 * INITIAL);
    const slots = await Promise.all(Array.from({ length: 2 * INITIAL }, () => w.acquire()));
    slots[0]!.done([{ reset: true }]);
    for (const s of slots.slice(1)) s.done([{ firstByteMs: 5 }]);
    expect(w.limit()).toBe(INITIAL);
    expect(w.limited()).toBe(true);
    expect(w.summary()).toMatchObject({ resets: 1, smallest: INITIAL });
  });

  test('a burst that had the target to itself bounds the window one under the places it found', async () => {
    const w = new InFlightWindow();
    await round(w, INITIAL, { firstByteMs: 5 });
    expect(w.limit()).toBe(2 * INITIAL);
    const b = await w.acquire(20);
    expect(b.exclusive).toBe(false);
    expect(b.level).toBe(b.size);
    w.burstAccepted(b.size, 6, { alone: b.alone() });
    b.done([]);
    expect(w.limit()).toBe(5);
    // it stays there: prompt rounds do not grow it past the places
    for (let i = 0; i < 4; i++) await round(w, 5, { firstByteMs: 5 });
    expect(w.limit()).toBe(5);
  });

  test('a burst beside other calls says what it got, but not the places: the window is not bounded by it', async () => {
    const w = new InFlightWindow();
    const other = await w.acquire();
    const b = await w.acquire(4);
    expect(b.alone()).toBe(false);
    w.burstAccepted(b.size, 2, { alone: b.alone() });
    b.done([]);
    other.done([]);
    expect(w.burstSize(20)).toBe(2);
    expect(w.limit()).toBeGreaterThanOrEqual(INITIAL);
  });

  test('before a burst alone, the idle connections a target with no limit shown held beside such a burst stay open', async () => {
    const { w, keeps } = vacating();
    // 32 calls answered promptly in flight at once: the target held 32 connections together
    await round(w, INITIAL, { firstByteMs: 5 });
    await round(w, 2 * INITIAL, { firstByteMs: 5 });
    await round(w, 4 * INITIAL, { firstByteMs: 5 });
    expect(w.summary().largest).toBe(32);
    const b = await w.acquire(20);
    expect(b.level).toBe(b.size);
    await w.vacate(b.size);
    b.done([]);
    // 12 idle beside the 20 of the burst: places the target has shown
    expect(keeps).toEqual([12]);
  });

  test('before a burst alone, every idle connection is closed when the target held no more than the burst, or showed a limit', async () => {
    const { w, keeps } = vacating();
    await round(w, INITIAL, { firstByteMs: 5 });
    const first = await w.acquire(INITIAL);
    await w.vacate(first.size);
    first.done([]);
    // a late answer: a limit shown (the largest in flight no longer proves places)
    await round(w, 2 * INITIAL, { firstByteMs: 5 });
    await round(w, 4 * INITIAL, { firstByteMs: 5 });
    const slots = await Promise.all(Array.from({ length: 20 }, () => w.acquire()));
    slots[0]!.done([{ firstByteMs: LATE_FLOOR_MS + 600 }]);
    for (const s of slots.slice(1)) s.done([{ firstByteMs: 5 }]);
    expect(w.limited()).toBe(true);
    const second = await w.acquire(4);
    await w.vacate(second.size);
    second.done([]);
    expect(keeps).toEqual([0, 0]);
  });
});
