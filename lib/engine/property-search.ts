/**
 * The search behind a property-based check (lib/engine/property.ts), free of any target: the inputs sampled with
 * the seed and sent side by side in batches the quota window allows (a fresh window between batches when the target
 * has a test clock: the clock moved past one, by this check or on the run's timeline by the others; a stop with the
 * count made when it has not), then the first failing input shrunk with fast-check's shrinker, one call at a time,
 * within a bound. Passing inputs are counted, not kept.
 */
import fc from 'fast-check';
import type { Evidence, PropertyEvidence } from './results.ts';

/** how the target answered one input */
export interface Trial {
  /** held: the target got it right; broken: wrong; unclear: no evidence either way (429, 5xx, another cause) */
  verdict: 'held' | 'broken' | 'unclear';
  /** what the target did, in words: "HTTP 422 naming account_id (refused)" */
  observed: string;
  /** broken: the ids of the check the answer breaks, when fewer than all (the failure names only these) */
  requirements?: readonly string[];
  /** the status that came, when one did (a 429 is never evidence: the input is sent again, in a fresh window) */
  status?: number;
  /**
   * a gate's refusal came (a 429 asking for a wait of GATE_WAIT_SECONDS at most: a spike arrest counts calls per
   * second, not the hourly quota): the seconds it asked for
   */
  gateWaitSeconds?: number;
}

/** what the search needs from its surroundings (a check context, or a test's fake) */
export interface SearchIO<T> {
  /** counts the calls of the leading inputs ahead in the current quota window; resolves with how many may be sent */
  reserve(inputs: readonly T[]): number;
  /**
   * runs a batch of calls of the leading `inputs` (a quota window of their operations, ctx.clock.window: no other
   * check moves the clock meanwhile, nor spends those operations); default: just runs it
   */
  batch?<R>(inputs: readonly T[], f: () => Promise<R>): Promise<R>;
  /**
   * resolves once the quota window the search spent is over (the test clock moved past it: on the run's timeline by
   * the others' moves when they make them); undefined when the target has no test clock
   */
  moveWindow?: () => Promise<void>;
  /** sends one input and judges the answer; its exchanges go to `evidence` (kept only for a counterexample) */
  trial(input: T): Promise<{ trial: Trial; evidence?: Evidence }>;
}

export interface SearchSettings {
  seed: number;
  runs: number;
  /** calls the shrinking may spend */
  shrinkCalls: number;
  /** inputs in flight at once, and in one batch (the target's in-flight window cuts it further); default WIDTH */
  width?: number;
  /** moves to a fresh window at most (a bound on the loop) */
  maxMoves?: number;
}

export interface Failure<T> {
  input: T;
  trial: Trial;
  evidence?: Evidence;
}

/** the counts as evidence.property gives them (results.ts), and the failures found */
export interface SearchOutcome<T> extends Pick<
  PropertyEvidence,
  'distinct' | 'runs' | 'held' | 'broken' | 'unclear' | 'windowMoves' | 'stopped'
> {
  /** the unclear answers, a few, in words */
  unclearSamples: string[];
  /** a gate's 429s waited out, the seconds waited in all, and the narrowest batch they cut the search to */
  gate?: { pauses: number; seconds: number; narrowest: number };
  /** the first failing input (by its place among the sampled inputs) and the smallest one shrinking found */
  first?: Failure<T>;
  smallest?: Failure<T> & { path: string; shrinkCalls: number };
}

/** the inputs a seed gives: the same as fast-check's own runs of a property on that seed (replay) */
export function sampleInputs<T>(arbitrary: fc.Arbitrary<T>, seed: number, runs: number): T[] {
  return runs > 0 ? fc.sample(arbitrary, { seed, numRuns: runs }) : [];
}

/**
 * an input's identity: its JSON (what a trial sends), so that two generated copies of one document (fast-check's
 * records may or may not have a prototype) are one input; fast-check's own text when it has no JSON form
 */
export function keyOf(input: unknown): string {
  try {
    return JSON.stringify(input) ?? fc.stringify(input);
  } catch {
    return fc.stringify(input);
  }
}

/** runs `f` over `items` with at most `width` in flight, results in order */
async function pool<A, B>(items: readonly A[], width: number, f: (a: A) => Promise<B>): Promise<B[]> {
  const out = new Array<B>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await f(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(width, items.length)) }, worker));
  return out;
}

/** one trial; a transport error (thrown as TransportError by the HTTP client) is no evidence */
async function attempt<T>(io: SearchIO<T>, input: T): Promise<{ trial: Trial; evidence?: Evidence }> {
  try {
    return await io.trial(input);
  } catch (e) {
    if (e instanceof Error && e.name === 'TransportError')
      return { trial: { verdict: 'unclear', observed: `no answer (${e.message})` } };
    throw e;
  }
}

/**
 * `send` on the calls the quota window grants the leading `wanted` inputs, reserved and sent under one lease of the
 * clock (no other check's move can fall between the count and the calls); when the window grants none, a move to a
 * fresh one (outside the lease: two members never wait on each other's lease to move) and again. Undefined when the
 * search must stop (no test clock, or the most moves made).
 */
async function inWindow<T, R>(
  io: SearchIO<T>,
  wanted: readonly T[],
  o: { moves: number; maxMoves: number },
  send: (granted: number) => Promise<R>,
): Promise<R | undefined> {
  const step = async (): Promise<{ r: R } | undefined> => {
    const granted = io.reserve(wanted);
    return granted === 0 ? undefined : { r: await send(granted) };
  };
  for (;;) {
    const done = await (io.batch ? io.batch(wanted, step) : step());
    if (done) return done.r;
    if (!io.moveWindow || o.moves >= o.maxMoves) return undefined;
    await io.moveWindow();
    o.moves++;
  }
}

/**
 * A gate's refusal (Trial.gateWaitSeconds: a spike arrest counts calls per second) is no evidence, and sending its
 * input again at once meets the same gate: after a batch with one, the search waits as long as it asked (the longest
 * of the batch) and halves its batches (one input at least), growing them back after a batch without one, and sends
 * the refused inputs again; at most GATE_PAUSES waits a search. A 429 of the quota (a longer Retry-After, or none) is
 * sent again once, in a fresh window, as before.
 */
export const GATE_PAUSES = 8;

/**
 * inputs in one batch by default (one round of calls: the target's in-flight window cuts it further): at 100 ms a
 * round, the property searches after the quota checks' windows are the end of a run (npm run bench -- --latency 100:
 * 64 took the far run from 7.74 to 7.51 s against 32, the 0 ms run unchanged); a gate's 429s halve it (afterGate)
 */
export const WIDTH = 64;

export async function search<T>(
  arbitrary: fc.Arbitrary<T>,
  io: SearchIO<T>,
  s: SearchSettings,
): Promise<SearchOutcome<T>> {
  const inputs = sampleInputs(arbitrary, s.seed, s.runs);
  const width = s.width ?? WIDTH;
  const moves = { moves: 0, maxMoves: s.maxMoves ?? Math.ceil(s.runs / 10) + 4 };
  const out: SearchOutcome<T> = { runs: 0, held: 0, broken: 0, unclear: 0, windowMoves: 0, unclearSamples: [] };
  /** verdicts by input (fast-check's own text of it), for the shrinker's replay of the inputs already sent */
  const known = new Map<string, Trial['verdict']>();
  const failures = new Map<string, Failure<T>>();
  // an input generated twice is sent once (a small input space): the first of its places stands for all
  const places = new Set<string>();
  let queue = inputs
    .map((input, index) => ({ index, input, again: false }))
    .filter((q) => {
      const key = keyOf(q.input);
      if (places.has(key)) return false;
      places.add(key);
      return true;
    });
  out.distinct = queue.length;
  let firstIndex = -1;
  // the batch's width now: `width`, halved after a batch a gate refused part of (GATE_PAUSE_MS)
  let now = width;
  while (queue.length > 0 && firstIndex < 0) {
    // a batch is at most `width` inputs (one round of calls in flight): a move that waits for the window ends after
    // one round, not after a whole quota window's worth (on the run's timeline no window begins while a move waits)
    const done = await inWindow(
      io,
      queue.slice(0, now).map((q) => q.input),
      moves,
      (granted) => {
        const batch = queue.slice(0, granted);
        queue = queue.slice(granted);
        return pool(batch, now, async (b) => ({ ...b, ...(await attempt(io, b.input)) }));
      },
    );
    if (!done) {
      out.stopped = io.moveWindow
        ? `${moves.moves} moves to a fresh quota window made, the most this search makes (runs / 10 + 4)`
        : 'the quota window allows no more calls (the quota less one) and the target has no test clock to move to a fresh one';
      break;
    }
    for (const d of done) {
      // a 429 or another unclear answer: the input once more (a fresh window, a token renewed), then no evidence; a
      // gate's 429 again after each wait for the gate while the search may still wait (GATE_PAUSES)
      const gated = d.trial.gateWaitSeconds !== undefined && (out.gate?.pauses ?? 0) < GATE_PAUSES;
      if (d.trial.verdict === 'unclear' && (!d.again || gated)) {
        queue.push({ index: d.index, input: d.input, again: true });
        continue;
      }
      out.runs++;
      const key = keyOf(d.input);
      known.set(key, d.trial.verdict);
      if (d.trial.verdict === 'held') out.held++;
      else if (d.trial.verdict === 'unclear') {
        out.unclear++;
        if (out.unclearSamples.length < 3) out.unclearSamples.push(d.trial.observed);
      } else {
        out.broken++;
        failures.set(key, { input: d.input, trial: d.trial, ...(d.evidence ? { evidence: d.evidence } : {}) });
        if (firstIndex < 0 || d.index < firstIndex) firstIndex = d.index;
      }
    }
    // outside the quota window's lease: the others' moves are not held up by the wait
    now = await afterGate(out, done, now, width, queue.length > 0 && firstIndex < 0);
  }
  out.windowMoves = moves.moves;
  if (firstIndex < 0) return out;
  out.first = failures.get(keyOf(inputs[firstIndex]!))!;
  out.smallest = await shrink(arbitrary, io, s, { firstIndex, known, failures, moves });
  out.windowMoves = moves.moves;
  return out;
}

/**
 * after a batch: a gate's refusals in it waited out (as long as they asked, when `more` inputs are to be sent and
 * GATE_PAUSES allow) and the next batches halved; or, without one, the batches grown back. The next batch's width.
 */
async function afterGate<T>(
  out: SearchOutcome<T>,
  done: readonly { trial: Trial }[],
  now: number,
  width: number,
  more: boolean,
): Promise<number> {
  const wait = Math.max(0, ...done.map((d) => d.trial.gateWaitSeconds ?? 0));
  if (wait === 0) return Math.min(width, now * 2);
  const next = Math.max(1, Math.floor(now / 2));
  const gate = (out.gate ??= { pauses: 0, seconds: 0, narrowest: next });
  gate.narrowest = Math.min(gate.narrowest, next);
  if (more && gate.pauses < GATE_PAUSES) {
    gate.pauses++;
    gate.seconds += wait;
    await new Promise((resolve) => setTimeout(resolve, wait * 1000));
  }
  return next;
}

/**
 * fast-check's own run of the property on the seed, up to the first failing input: the inputs already sent are
 * answered from `known` (no call), the shrinker's candidates are sent one at a time, `shrinkCalls` at most; past
 * that bound a candidate counts as held without a call, so that the shrinker ends on the smallest failure found.
 */
async function shrink<T>(
  arbitrary: fc.Arbitrary<T>,
  io: SearchIO<T>,
  s: SearchSettings,
  st: {
    firstIndex: number;
    known: Map<string, Trial['verdict']>;
    failures: Map<string, Failure<T>>;
    moves: { moves: number; maxMoves: number };
  },
): Promise<Failure<T> & { path: string; shrinkCalls: number }> {
  let calls = 0;
  const property = fc.asyncProperty(arbitrary, async (input) => {
    const key = keyOf(input);
    const seen = st.known.get(key);
    if (seen !== undefined) return seen !== 'broken';
    if (calls >= s.shrinkCalls) return true;
    const sent = await inWindow(io, [input], st.moves, () => {
      calls++;
      return attempt(io, input);
    });
    if (!sent) {
      calls = s.shrinkCalls;
      return true;
    }
    const { trial, evidence } = sent;
    // a 429 or another unclear answer is no evidence: the candidate counts as held
    st.known.set(key, trial.verdict);
    if (trial.verdict === 'broken') st.failures.set(key, { input, trial, ...(evidence ? { evidence } : {}) });
    return trial.verdict !== 'broken';
  });
  const r = await fc.check(property, { seed: s.seed, numRuns: st.firstIndex + 1 });
  const first = st.failures.get(keyOf(r.counterexample?.[0]));
  const found = r.failed && r.counterexample && first ? first : undefined;
  if (!found) {
    // cannot happen while the target answers the same input the same way: the first failure stands
    const original = [...st.failures.values()][0]!;
    return { ...original, path: String(st.firstIndex), shrinkCalls: calls };
  }
  return { ...found, path: r.counterexamplePath ?? String(st.firstIndex), shrinkCalls: calls };
}
