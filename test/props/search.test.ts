/**
 * The property search (lib/engine/property/property-search.ts) against a fake target and a fake quota: the runs planned
 * against the window (moves with a test clock, a stop without), replay from the seed, bounded shrinking, and a 429
 * never counted as a refusal.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  GATE_PAUSES,
  keyOf,
  sampleInputs,
  search,
  type SearchIO,
  type Trial,
} from '../../lib/engine/property/property-search.ts';
import { evidenceShortfall, plannedRuns, propertySeed } from '../../lib/engine/property/property.ts';
import { gateWait } from '../../lib/engine/property/property-gate.ts';
import { QuotaBudget } from '../../lib/engine/session/spend.ts';
import { FullProfile } from '../../lib/profile/schema.ts';
import { TestWaits } from '../fixtures/waits.ts';

/** a quota of `perWindow` calls, a target that breaks on inputs over `breaksOver`; what it was sent */
function fakeTarget<T extends number>(o: {
  perWindow: number;
  clock: boolean;
  breaksOver?: number;
  answer?: (input: T, attempt: number) => Trial | undefined;
}): SearchIO<T> & { sent: T[]; moves: number } {
  let used = 0;
  const attempts = new Map<T, number>();
  const io = {
    sent: [] as T[],
    moves: 0,
    reserve: (inputs: readonly T[]): number => {
      const n = Math.min(inputs.length, o.perWindow - used);
      used += n;
      return n;
    },
    trial: async (input: T): Promise<{ trial: Trial }> => {
      io.sent.push(input);
      const a = (attempts.get(input) ?? 0) + 1;
      attempts.set(input, a);
      const own = o.answer?.(input, a);
      if (own) return { trial: own };
      const broken = o.breaksOver !== undefined && input > o.breaksOver;
      return { trial: { verdict: broken ? 'broken' : 'held', observed: broken ? 'accepted' : 'refused' } };
    },
    ...(o.clock
      ? {
          moveWindow: async (): Promise<void> => {
            io.moves++;
            used = 0;
          },
        }
      : {}),
  };
  return io;
}

const ints = fc.integer({ min: 0, max: 1_000_000 });

describe('budget planning', () => {
  it('with a test clock, moves to a fresh window each time one is spent, and sends every input', async () => {
    expect.hasAssertions();
    const io = fakeTarget<number>({ perWindow: 10, clock: true });
    const o = await search(ints, io, { seed: 1, runs: 25, shrinkCalls: 0 });
    expect(o.runs).toBe(o.distinct);
    expect(o.held).toBe(o.distinct);
    expect(io.moves).toBe(2);
    expect(o.windowMoves).toBe(2);
    expect(o.stopped).toBeUndefined();
  });

  it('without a test clock, stops at what the window allows and says why', async () => {
    expect.hasAssertions();
    const io = fakeTarget<number>({ perWindow: 10, clock: false });
    const o = await search(ints, io, { seed: 1, runs: 25, shrinkCalls: 0 });
    expect(o.runs).toBe(10);
    expect(io.sent).toHaveLength(10);
    expect(o.stopped).toMatch(/no test clock/);
  });

  it('moves at most maxMoves times (a bound on the loop)', async () => {
    expect.hasAssertions();
    const io = fakeTarget<number>({ perWindow: 1, clock: true });
    const o = await search(ints, io, { seed: 1, runs: 50, shrinkCalls: 0, maxMoves: 3 });
    expect(o.runs).toBe(4);
    expect(o.stopped).toMatch(/3 moves/);
  });

  it('plans 200 runs on the embedded mock, 20 on a real target, the profile figure when it gives one', () => {
    expect.hasAssertions();
    const run = (properties: object) => ({ run: FullProfile.shape.run.parse({ properties }) });
    expect(plannedRuns(run({}), { embedded: true })).toBe(200);
    expect(plannedRuns(run({}), { embedded: false })).toBe(20);
    expect(plannedRuns(run({ runs: 7 }), { embedded: true })).toBe(7);
  });

  it('refuses a bad run.properties value, naming it', () => {
    expect.hasAssertions();
    for (const runs of [0, 1.5, -3, 'many', 10_001]) {
      const r = FullProfile.shape.run.safeParse({ properties: { runs } });
      expect(r.success).toBe(false);
      expect(r.error?.issues[0]?.message).toMatch(/run\.properties\.runs must be a whole number from 1 to 10000/);
    }
  });

  it('QuotaBudget grants what is left of the window, and the sends of reserved calls are not counted again', () => {
    expect.hasAssertions();
    const profile = { contract: { quota: { perHour: 10, windowSeconds: 3600 } } } as unknown as FullProfile;
    const b = new QuotaBudget(profile, false);
    const h = { 'x-gateway-client-id': 'c1' };
    b.take('validate', h)();
    b.take('validate', h)();
    expect(b.left('c1', 'validate')).toBe(7); // the quota less one, less two sent
    expect(b.reserve('c1', 'validate', 5)).toBe(5);
    for (let i = 0; i < 5; i++) b.take('validate', h)();
    expect(b.left('c1', 'validate')).toBe(2);
    expect(b.reserve('c1', 'validate', 5)).toBe(2);
    expect(b.left('c2', 'validate')).toBe(9);
    b.moved(3601);
    expect(b.left('c1', 'validate')).toBe(9);
  });
});

describe('replay', () => {
  it('the same seed gives the same inputs, in the same order, as fast-check itself', async () => {
    expect.hasAssertions();
    const arb = fc.tuple(fc.string(), fc.nat(99));
    expect(sampleInputs(arb, 42, 30)).toEqual(sampleInputs(arb, 42, 30));
    expect(sampleInputs(arb, 42, 30)).not.toEqual(sampleInputs(arb, 43, 30));
    const seen: unknown[] = [];
    await fc.check(
      fc.asyncProperty(arb, async (v) => {
        seen.push(v);
        return true;
      }),
      { seed: 42, numRuns: 30 },
    );
    expect(seen).toEqual(sampleInputs(arb, 42, 30));
  });

  it('two searches with one seed send the same inputs and shrink to the same counterexample, at the same path', async () => {
    expect.hasAssertions();
    const a = fakeTarget<number>({ perWindow: 1000, clock: false, breaksOver: 500_000 });
    const b = fakeTarget<number>({ perWindow: 1000, clock: false, breaksOver: 500_000 });
    const oa = await search(ints, a, { seed: 7, runs: 40, shrinkCalls: 100 });
    const ob = await search(ints, b, { seed: 7, runs: 40, shrinkCalls: 100 });
    expect(a.sent).toEqual(b.sent);
    expect(oa.smallest?.input).toBe(ob.smallest?.input);
    expect(oa.smallest?.path).toBe(ob.smallest?.path);
    // the path replays the counterexample in fast-check
    const r = await fc.check(
      fc.property(ints, (v) => v <= 500_000),
      { seed: 7, path: oa.smallest!.path },
    );
    expect(r.counterexample?.[0]).toBe(oa.smallest?.input);
  });

  it('derives a property seed per check from the run seed', () => {
    expect.hasAssertions();
    expect(propertySeed(123, 'masking.a')).toBe(propertySeed(123, 'masking.a'));
    expect(propertySeed(123, 'masking.a')).not.toBe(propertySeed(123, 'masking.b'));
    expect(propertySeed(124, 'masking.a')).not.toBe(propertySeed(123, 'masking.a'));
    expect(propertySeed(2 ** 31 - 1, 'x')).toBeLessThan(2 ** 31);
  });
});

describe('repeated inputs', () => {
  it('an input generated twice is sent once, whatever its prototype', async () => {
    expect.hasAssertions();
    expect(keyOf(Object.assign(Object.create(null), { a: 1 }))).toBe(keyOf({ a: 1 }));
    const io = fakeTarget<number>({ perWindow: 1000, clock: false });
    const o = await search(fc.integer({ min: 0, max: 4 }), io, { seed: 9, runs: 100, shrinkCalls: 0 });
    expect(o.distinct).toBeLessThanOrEqual(5);
    expect(io.sent).toHaveLength(o.distinct!);
  });
});

describe('shrinking', () => {
  it('finds the smallest failing input when the bound allows', async () => {
    expect.hasAssertions();
    const io = fakeTarget<number>({ perWindow: 10_000, clock: false, breaksOver: 1000 });
    const o = await search(ints, io, { seed: 3, runs: 50, shrinkCalls: 200 });
    expect(o.smallest?.input).toBe(1001);
    expect(o.first!.input).toBeGreaterThan(1000);
    expect(o.smallest!.shrinkCalls).toBeLessThanOrEqual(200);
  });

  it('spends at most shrinkCalls calls, and reports the smallest failure found by then', async () => {
    expect.hasAssertions();
    const io = fakeTarget<number>({ perWindow: 10_000, clock: false, breaksOver: 1000 });
    const o = await search(ints, io, { seed: 3, runs: 50, shrinkCalls: 3 });
    const searchCalls = io.sent.length - o.smallest!.shrinkCalls;
    expect(o.smallest!.shrinkCalls).toBe(3);
    expect(searchCalls).toBeLessThanOrEqual(50);
    expect(o.smallest!.input).toBeGreaterThan(1000);
    expect(o.smallest!.input).toBeLessThanOrEqual(o.first!.input);
  });

  it('with shrinkCalls 0, reports the first failure as it is', async () => {
    expect.hasAssertions();
    const io = fakeTarget<number>({ perWindow: 10_000, clock: false, breaksOver: 1000 });
    const o = await search(ints, io, { seed: 3, runs: 50, shrinkCalls: 0 });
    expect(o.smallest?.input).toBe(o.first?.input);
    expect(o.smallest?.shrinkCalls).toBe(0);
  });
});

describe('no evidence', () => {
  it('a 429 is never counted as a refusal: the input is sent again, and counted only on a real answer', async () => {
    expect.hasAssertions();
    const io = fakeTarget<number>({
      perWindow: 10_000,
      clock: false,
      answer: (_, attempt) => (attempt === 1 ? { verdict: 'unclear', observed: 'HTTP 429', status: 429 } : undefined),
    });
    const o = await search(ints, io, { seed: 5, runs: 20, shrinkCalls: 0 });
    expect(o.held).toBe(o.distinct);
    expect(o.unclear).toBe(0);
    expect(io.sent).toHaveLength(2 * o.distinct!);
  });

  it('an input answered 429 twice stays unclear, never held', async () => {
    expect.hasAssertions();
    const io = fakeTarget<number>({
      perWindow: 10_000,
      clock: false,
      answer: () => ({ verdict: 'unclear', observed: 'HTTP 429', status: 429 }),
    });
    const o = await search(ints, io, { seed: 5, runs: 20, shrinkCalls: 0 });
    expect(o.held).toBe(0);
    expect(o.unclear).toBe(o.distinct);
    expect(o.unclearSamples[0]).toBe('HTTP 429');
  });

  it('a 429 during shrinking is no failure: the candidate counts as held', async () => {
    expect.hasAssertions();
    // the smallest failing inputs (1001..1999) answer 429: shrinking cannot end on them
    const io = fakeTarget<number>({
      perWindow: 10_000,
      clock: false,
      breaksOver: 1000,
      answer: (v) => (v > 1000 && v < 2000 ? { verdict: 'unclear', observed: 'HTTP 429', status: 429 } : undefined),
    });
    const o = await search(ints, io, { seed: 3, runs: 50, shrinkCalls: 500 });
    expect(o.smallest!.input).toBeGreaterThanOrEqual(2000);
    expect(o.smallest!.trial.verdict).toBe('broken');
  });

  it('a transport error is no evidence', async () => {
    expect.hasAssertions();
    const io = fakeTarget<number>({ perWindow: 10_000, clock: false });
    const e = Object.assign(new Error('connect ECONNREFUSED'), { name: 'TransportError' });
    const o = await search(
      ints,
      {
        ...io,
        trial: async () => {
          throw e;
        },
      },
      { seed: 5, runs: 5, shrinkCalls: 0 },
    );
    expect(o.held).toBe(0);
    expect(o.unclear).toBe(o.distinct);
  });
});

describe('a gate that refuses bursts (HTTP 429, a spike arrest)', () => {
  it(
    'is waited out with narrower batches: nearly every input judged, the waits said',
    { timeout: 30_000 },
    async () => {
      expect.hasAssertions();
      // a spike arrest of 10 calls, refilled only once a second has passed since its first refusal (as the mock's
      // spikeArrest refill 'after-refusal'): the 11th call is refused however slowly the machine sends (a gate of 10
      // calls in each real second lets every call of a slow machine through); beyond, 429 (not counted)
      let left = 10;
      let refusedAt: number | undefined;
      // the gate's second and the search's wait on the test's clock: the wait recorded, not spent
      const waits = new TestWaits();
      const io = fakeTarget<number>({
        perWindow: 1000,
        clock: true,
        answer: () => {
          if (left === 0 && refusedAt !== undefined && waits.now() - refusedAt >= 1000) {
            left = 10;
            refusedAt = undefined;
          }
          if (left === 0) {
            refusedAt ??= waits.now();
            return { verdict: 'unclear', observed: 'HTTP 429', status: 429, gateWaitSeconds: 1 };
          }
          left--;
          return undefined;
        },
      });
      const o = await search(ints, io, { seed: 3, runs: 40, shrinkCalls: 0, waits });
      expect(o.gate).toBeDefined();
      // each pause as long as the gate's Retry-After asked
      expect(waits.asked).toEqual(Array<number>(o.gate!.pauses).fill(1000));
      expect(o.gate!.pauses).toBeGreaterThan(0);
      expect(o.gate!.pauses).toBeLessThanOrEqual(GATE_PAUSES);
      expect(o.gate!.narrowest).toBeLessThan(32);
      expect(o.held).toBeGreaterThanOrEqual(o.distinct! - 2);
      expect(evidenceShortfall(o, 'inputs')).toBeUndefined();
    },
  );

  it('a property held by the few inputs that got through is not verified', () => {
    expect.hasAssertions();
    expect(evidenceShortfall({ held: 2, unclear: 136 }, 'tampered envelopes')).toBe(
      'only 2 of 138 tampered envelopes sent could be judged',
    );
    expect(evidenceShortfall({ held: 0, unclear: 0 }, 'inputs')).toBe('no inputs could be judged');
    expect(evidenceShortfall({ held: 94, unclear: 37 }, 'inputs')).toBeUndefined();
    // more must be judged than not (docs/properties.md): as many judged as not is not enough
    expect(evidenceShortfall({ held: 5, unclear: 5 }, 'inputs')).toBe('only 5 of 10 inputs sent could be judged');
    expect(evidenceShortfall({ held: 6, unclear: 5 }, 'inputs')).toBeUndefined();
  });

  it("a 429 of the quota (a long Retry-After, or none) is not a gate's: no wait, sent again once in a fresh window", async () => {
    expect.hasAssertions();
    expect(gateWait(429, '1', 429)).toBe(1);
    expect(gateWait(429, '0', 429)).toBe(1);
    expect(gateWait(429, '5', 429)).toBe(5);
    expect(gateWait(429, '3600', 429)).toBeUndefined();
    expect(gateWait(429, undefined, 429)).toBeUndefined();
    expect(gateWait(503, '1', 429)).toBeUndefined();
    // the profile's quota status, not 429 only
    expect(gateWait(503, '2', 503)).toBe(2);
    // every input refused once by the quota: each sent again once (a fresh window), none waited for
    const io = fakeTarget<number>({
      perWindow: 1000,
      clock: true,
      answer: (_input, attempt) =>
        attempt === 1 ? { verdict: 'unclear', observed: 'HTTP 429', status: 429 } : undefined,
    });
    const o = await search(ints, io, { seed: 5, runs: 20, shrinkCalls: 0 });
    expect(o.gate).toBeUndefined();
    expect(o.held).toBe(o.distinct);
    expect(io.sent).toHaveLength(2 * o.distinct!);
  });
});
