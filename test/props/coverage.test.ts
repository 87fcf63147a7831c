/**
 * The coverage phase (PropertySpec.coverage, lib/engine/property/property-search.ts): every class sent first, all of them, in
 * order, each distinct input once; then the random inputs of the seed, exactly those a replay sends; a coverage input
 * that breaks the property is the counterexample as it is; the counts say how many classes were covered and random
 * inputs judged.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { search, type SearchIO, type Trial } from '../../lib/engine/property/property-search.ts';
import { searchWords, randomRuns, CLOCK_RANDOM_RUNS } from '../../lib/engine/property/property-plan.ts';
import { evidenceShortfall } from '../../lib/engine/property/property.ts';
import { FullProfile } from '../../lib/profile/schema.ts';

/** a target that gets the inputs in `breaks` wrong; what it was sent, in order */
function target(o: {
  perWindow?: number;
  clock?: boolean;
  breaks?: ReadonlySet<number>;
  unclear?: ReadonlySet<number>;
}) {
  let used = 0;
  const io: SearchIO<number> & { sent: number[] } = {
    sent: [],
    reserve: (inputs) => {
      const n = Math.min(inputs.length, (o.perWindow ?? 10_000) - used);
      used += n;
      return n;
    },
    trial: async (input): Promise<{ trial: Trial }> => {
      io.sent.push(input);
      if (o.unclear?.has(input)) return { trial: { verdict: 'unclear', observed: 'no answer' } };
      const broken = o.breaks?.has(input) ?? false;
      return { trial: { verdict: broken ? 'broken' : 'held', observed: broken ? 'accepted' : 'refused' } };
    },
    ...(o.clock ? { moveWindow: async () => void (used = 0) } : {}),
  };
  return io;
}

const random = fc.integer({ min: 1000, max: 1_000_000 });

/**
 * the oracle of "the seed's random inputs": what fast-check's own runner draws for a property with this seed and
 * number of runs (the replay `fc.check(property, { seed })` gives), written apart from the search's sampling
 */
function replayed<T>(arb: fc.Arbitrary<T>, seed: number, runs: number): T[] {
  const drawn: T[] = [];
  fc.check(
    fc.property(arb, (x) => {
      drawn.push(x);
      return true;
    }),
    { seed, numRuns: runs },
  );
  return drawn;
}
const coverage = [1, 2, 3, 2, 4] as const;

describe('the coverage phase', () => {
  it('sends every class first, in order, once each, then the seed’s random inputs', async () => {
    expect.hasAssertions();
    const io = target({});
    const o = await search(random, io, { seed: 11, runs: 20, shrinkCalls: 0, coverage });
    expect(io.sent.slice(0, 4)).toEqual([1, 2, 3, 4]);
    const seeded = [...new Set(replayed(random, 11, 20))];
    expect(seeded.length).toBeGreaterThan(15);
    expect(io.sent.slice(4)).toEqual(seeded);
    expect(o.coverage).toEqual({ classes: 4, covered: 4 });
    expect(o.randomJudged).toBe(seeded.length);
    expect(evidenceShortfall(o, 'inputs', 20)).toBeUndefined();
    expect(searchWords(o, 11, 20).join('; ')).toMatch(/4 of 4 coverage classes covered; \d+ random judged/);
  });

  it('is judged before any random input, even in batches narrower than the classes', async () => {
    expect.hasAssertions();
    const io = target({});
    const classes = Array.from({ length: 10 }, (_, i) => i);
    await search(random, io, { seed: 3, runs: 5, shrinkCalls: 0, coverage: classes, width: 3 });
    expect(io.sent.slice(0, 10)).toEqual(classes);
  });

  it('a coverage input that breaks the property is the counterexample, as it is, by its place in the list', async () => {
    expect.hasAssertions();
    const io = target({ breaks: new Set([3]) });
    const o = await search(random, io, { seed: 11, runs: 20, shrinkCalls: 50, coverage });
    expect(o.smallest?.input).toBe(3);
    expect(o.smallest?.path).toBe('coverage 2');
    expect(o.smallest?.shrinkCalls).toBe(0);
    // no random input is sent once a class is broken
    expect(io.sent).toEqual([1, 2, 3, 4]);
  });

  it('with a test clock too: a batch of the classes alone, no random input sent once one is broken', async () => {
    expect.hasAssertions();
    const io = target({ clock: true, breaks: new Set([3]) });
    const o = await search(random, io, { seed: 11, runs: 20, shrinkCalls: 50, coverage, width: 8 });
    expect(o.smallest?.path).toBe('coverage 2');
    expect(io.sent).toEqual([1, 2, 3, 4]);
  });

  it('the same classes give the same verdict in every run, whatever the seed', async () => {
    expect.hasAssertions();
    for (const seed of [1, 2, 3]) {
      const o = await search(random, target({ breaks: new Set([4]) }), { seed, runs: 20, shrinkCalls: 0, coverage });
      expect(o.smallest?.input).toBe(4);
    }
  });

  it('a class not judged leaves the property unverified, saying so', async () => {
    expect.hasAssertions();
    const o = await search(random, target({ unclear: new Set([2]) }), { seed: 11, runs: 20, shrinkCalls: 0, coverage });
    expect(o.coverage).toEqual({ classes: 4, covered: 3 });
    expect(evidenceShortfall(o, 'inputs', 20)).toMatch(/only 3 of 4 coverage classes of inputs could be judged/);
  });

  it('without a test clock, the classes first and what the window leaves of the random inputs, stated', async () => {
    expect.hasAssertions();
    const io = target({ perWindow: 9 });
    const o = await search(random, io, { seed: 11, runs: 20, shrinkCalls: 0, coverage });
    expect(o.coverage).toEqual({ classes: 4, covered: 4 });
    expect(o.randomJudged).toBe(5);
    expect(o.stopped).toMatch(/no test clock/);
    expect(searchWords(o, 11, 20).join('; ')).toMatch(/9 sent of \d+: the quota window allows no more calls/);
  });
});

describe('random inputs planned', () => {
  const run = (properties: object) => ({ run: FullProfile.shape.run.parse({ properties }) });
  it(`with a test clock ${CLOCK_RANDOM_RUNS} at least, unless the profile says; without one the default`, () => {
    expect.hasAssertions();
    expect(randomRuns(run({}), { embedded: false }, true)).toBe(CLOCK_RANDOM_RUNS);
    expect(randomRuns(run({}), { embedded: false }, false)).toBe(20);
    expect(randomRuns(run({}), { embedded: true }, true)).toBe(200);
    expect(randomRuns(run({ runs: 7 }), { embedded: false }, true)).toBe(7);
  });
});
