/**
 * The search behind a property-based check (lib/engine/property/property.ts), free of any target: the inputs sampled with
 * the seed and sent side by side in batches the quota window allows (a fresh window between batches when the target
 * has a test clock: the clock moved past one, by this check or on the run's timeline by the others; a stop with the
 * count made when it has not), then the first failing input shrunk with fast-check's shrinker, one call at a time,
 * within a bound. Passing inputs are counted, not kept.
 */
import fc from 'fast-check';
import { inPool } from '../../pool.ts';
import type { Evidence } from '../results.ts';
import {
  attempt,
  inWindow,
  keyOf,
  type Failure,
  type Moves,
  type SearchIO,
  type SearchOutcome,
  type SearchSettings,
  type Trial,
} from './property-io.ts';
import { realWaits, type Waits } from '../../waits.ts';

export { keyOf } from './property-io.ts';
export type { Failure, SearchIO, SearchOutcome, SearchSettings, Trial } from './property-io.ts';

/** the inputs a seed gives: the same as fast-check's own runs of a property on that seed (replay) */
export function sampleInputs<T>(arbitrary: fc.Arbitrary<T>, seed: number, runs: number): T[] {
  return runs > 0 ? fc.sample(arbitrary, { seed, numRuns: runs }) : [];
}
/**
 * A gate's refusal (Trial.gateWaitSeconds: a spike arrest counts calls per second) is no evidence, and sending its
 * input again at once meets the same gate: after a batch with one, the search waits as long as it asked (the longest
 * of the batch) and halves its batches (one input at least), growing them back after a batch without one, and sends
 * the refused inputs again; at most GATE_PAUSES waits a search. The contract's quota answer (Trial.quota) is sent
 * again in a fresh window (a move first), or stops the search without a test clock.
 */
export const GATE_PAUSES = 8;

/**
 * inputs in one batch by default (one round of calls: the target's in-flight window cuts it further, the quota window
 * what it leaves): at 100 ms a round, the property searches after the quota checks' windows are the end of a run.
 * More than the contract's 100 calls a window: on the run's timeline a move waits for the batches in progress and no
 * batch begins while it waits, so a search sends one batch a window; at 64 it left a third of each window unspent and
 * the searches took one or two windows (moves) more after the maximum-age walk (a closing UAT 100 ms away, clock far,
 * alternated three times: 9.27, 9.90, 9.43 s at 64, 8.78, 8.80, 8.54 s at 128, the fresh windows after the walk 2 to 1;
 * 64 had taken the far run from 7.74 to 7.51 s against 32). A gate's 429s halve it (afterGate).
 */
export const WIDTH = 128;

/** one input in the queue: its position among the sampled inputs (random), or in the coverage list */
interface Queued<T> {
  index: number;
  input: T;
  again: boolean;
  coverage: boolean;
}

/** the coverage inputs, then the random ones, each distinct input once (the first of its positions stands for all) */
function queueOf<T>(coverage: readonly T[], inputs: readonly T[]): { queue: Queued<T>[]; classes: number } {
  const places = new Set<string>();
  const once = (q: Queued<T>): boolean => {
    const key = keyOf(q.input);
    if (places.has(key)) return false;
    places.add(key);
    return true;
  };
  const covered = coverage.map((input, index) => ({ index, input, again: false, coverage: true })).filter(once);
  const random = inputs.map((input, index) => ({ index, input, again: false, coverage: false })).filter(once);
  return { queue: [...covered, ...random], classes: covered.length };
}

/**
 * inputs to send again: a coverage input within the coverage phase (before the random inputs), a random one at the
 * end, or `first` (a fresh window's first calls)
 */
function requeued<T>(queue: readonly Queued<T>[], items: readonly Queued<T>[], first: boolean): Queued<T>[] {
  const cover = items.filter((q) => q.coverage);
  const random = items.filter((q) => !q.coverage);
  const cut = queue.findIndex((q) => !q.coverage);
  const covering = cut < 0 ? [...queue] : queue.slice(0, cut);
  const rest = cut < 0 ? [] : queue.slice(cut);
  return first ? [...cover, ...covering, ...random, ...rest] : [...covering, ...cover, ...rest, ...random];
}

const STOP_NO_CLOCK =
  'the quota window allows no more calls (the quota less one) and the target has no test clock to move to a fresh one';
const STOP_QUOTA_NO_CLOCK =
  "the target answered with the contract's quota answer (its window is spent) and has no test clock to move to a fresh one";
const stopMoves = (m: Moves): string =>
  `${m.moves} moves to a fresh quota window made, the most this search makes (inputs / 10 + 4)`;

/** what the search found so far: the counts, the verdicts by input, the failures and the first of each phase */
interface Found<T> {
  out: SearchOutcome<T>;
  /** verdicts by input (fast-check's own text of it), for the shrinker's replay of the inputs already sent */
  known: Map<string, Trial['verdict']>;
  failures: Map<string, Failure<T>>;
  /** the first failing random input's position among the sampled inputs (-1: none) */
  firstIndex: number;
  firstCoverage?: Failure<T> & { index: number };
}

type Answered<T> = Queued<T> & { trial: Trial; evidence?: Evidence };

/**
 * one answer counted: 'spent' (the contract's quota answer: the input again in a fresh window, not its one more
 * try), 'again' (a 429 or another unclear answer: the input once more, a token renewed, then no evidence; a gate's
 * 429 again after each wait for the gate while the search may still wait, GATE_PAUSES), or 'counted'
 */
function tally<T>(f: Found<T>, d: Answered<T>): 'spent' | 'again' | 'counted' {
  const { out } = f;
  if (d.trial.quota) return 'spent';
  const gated = d.trial.gateWaitSeconds !== undefined && (out.gate?.pauses ?? 0) < GATE_PAUSES;
  if (d.trial.verdict === 'unclear' && (!d.again || gated)) return 'again';
  out.runs++;
  const key = keyOf(d.input);
  f.known.set(key, d.trial.verdict);
  if (d.trial.verdict !== 'unclear') {
    if (d.coverage) out.coverage!.covered++;
    else out.randomJudged++;
  }
  if (d.trial.verdict === 'held') out.held++;
  else if (d.trial.verdict === 'unclear') {
    out.unclear++;
    if (out.unclearSamples.length < 3) out.unclearSamples.push(d.trial.observed);
  } else {
    out.broken++;
    const failure = { input: d.input, trial: d.trial, ...(d.evidence ? { evidence: d.evidence } : {}) };
    f.failures.set(key, failure);
    if (d.coverage) {
      if (!f.firstCoverage || d.index < f.firstCoverage.index) f.firstCoverage = { ...failure, index: d.index };
    } else if (f.firstIndex < 0 || d.index < f.firstIndex) f.firstIndex = d.index;
  }
  return 'counted';
}

/**
 * the leading inputs of one phase (the coverage phase's are judged before any random one is sent), `now` at most: a
 * broken class stops the search before any random input is sent, with a test clock too (random inputs beside the last
 * classes each met a throttle's waits where a broken class was answered with a 5xx: docs/performance.md)
 */
function headOf<T>(queue: readonly Queued<T>[], now: number): Queued<T>[] {
  const phase = queue[0]!.coverage;
  const cut = queue.findIndex((q) => q.coverage !== phase);
  return queue.slice(0, Math.min(now, cut < 0 ? queue.length : cut));
}

export async function search<T>(
  arbitrary: fc.Arbitrary<T>,
  io: SearchIO<T>,
  s: SearchSettings<T>,
): Promise<SearchOutcome<T>> {
  const inputs = sampleInputs(arbitrary, s.seed, s.runs);
  const width = s.width ?? WIDTH;
  const { queue: all, classes } = queueOf(s.coverage ?? [], inputs);
  const moves: Moves = { moves: 0, maxMoves: s.maxMoves ?? Math.ceil(all.length / 10) + 4, quotaAnswers: 0 };
  const out: SearchOutcome<T> = {
    ...{ runs: 0, held: 0, broken: 0, unclear: 0, windowMoves: 0, unclearSamples: [], randomJudged: 0 },
    ...{ quotaAnswers: 0, distinct: all.length - classes },
    ...(s.coverage ? { coverage: { classes, covered: 0 } } : {}),
  };
  const f: Found<T> = { out, known: new Map(), failures: new Map(), firstIndex: -1 };
  const going = (): boolean => f.firstIndex < 0 && !f.firstCoverage;
  let queue = all;
  // the batch's width now: `width`, halved after a batch a gate refused part of (GATE_PAUSE_MS); grown back after a
  // batch without one up to `ceiling`, the width after the last gate's refusal (a spike arrest counts calls per
  // second: growing past the width it let through only meets it again, one more wait each time)
  let now = width;
  let ceiling = width;
  while (queue.length > 0 && going()) {
    // a batch is at most `width` inputs (one round of calls in flight): a move that waits for the window ends after
    // one round, not after a whole quota window's worth (on the run's timeline no window begins while a move waits)
    const wanted = headOf(queue, now).map((q) => q.input);
    const done = await inWindow(io, wanted, moves, (granted) => {
      const batch = queue.slice(0, granted);
      queue = queue.slice(granted);
      return inPool(batch, now, async (b): Promise<Answered<T>> => ({ ...b, ...(await attempt(io, b.input)) }));
    });
    if (!done) {
      out.stopped = io.moveWindow ? stopMoves(moves) : STOP_NO_CLOCK;
      break;
    }
    const spent: Queued<T>[] = [];
    for (const d of done) {
      const t = tally(f, d);
      const q = { index: d.index, input: d.input, again: t === 'again' || d.again, coverage: d.coverage };
      if (t === 'spent') spent.push(q);
      else if (t === 'again') queue = requeued(queue, [q], false);
    }
    if (spent.length > 0) {
      moves.quotaAnswers += spent.length;
      queue = requeued(queue, spent, true);
      if (going() && (!io.moveWindow || moves.moves >= moves.maxMoves)) {
        out.stopped = io.moveWindow ? stopMoves(moves) : STOP_QUOTA_NO_CLOCK;
        break;
      }
      if (going()) {
        await io.moveWindow!();
        moves.moves++;
      }
    }
    // outside the quota window's lease: the others' moves are not held up by the wait
    const gated = done.some((d) => d.trial.gateWaitSeconds !== undefined);
    now = await afterGate(out, done, now, ceiling, queue.length > 0 && going(), s.waits ?? realWaits);
    if (gated) ceiling = now;
  }
  return finish(arbitrary, io, s, { f, moves, inputs });
}

/** the counterexample: a coverage input as it is, or the first random one shrunk */
async function finish<T>(
  arbitrary: fc.Arbitrary<T>,
  io: SearchIO<T>,
  s: SearchSettings<T>,
  { f, moves, inputs }: { f: Found<T>; moves: Moves; inputs: readonly T[] },
): Promise<SearchOutcome<T>> {
  const { out } = f;
  if (f.firstCoverage) {
    // a coverage input is its class's own representative: reported as it is, not shrunk (its path names its position
    // in the coverage list, which replays it: fast-check's path does not reach it)
    const { index, ...first } = f.firstCoverage;
    out.first = first;
    out.smallest = { ...first, path: `coverage ${index}`, shrinkCalls: 0 };
  } else if (f.firstIndex >= 0) {
    out.first = f.failures.get(keyOf(inputs[f.firstIndex]!))!;
    out.smallest = await shrink(arbitrary, io, s, { ...f, moves });
  }
  out.windowMoves = moves.moves;
  out.quotaAnswers = moves.quotaAnswers;
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
  waits: Waits,
): Promise<number> {
  const wait = Math.max(0, ...done.map((d) => d.trial.gateWaitSeconds ?? 0));
  if (wait === 0) return Math.min(width, now * 2);
  const next = Math.max(1, Math.floor(now / 2));
  const gate = (out.gate ??= { pauses: 0, seconds: 0, narrowest: next });
  gate.narrowest = Math.min(gate.narrowest, next);
  if (more && gate.pauses < GATE_PAUSES) {
    gate.pauses++;
    gate.seconds += wait;
    await waits.sleep(wait * 1000);
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
  s: SearchSettings<T>,
  st: {
    firstIndex: number;
    known: Map<string, Trial['verdict']>;
    failures: Map<string, Failure<T>>;
    moves: Moves;
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
