/**
 * What the property search (property-search.ts) needs from its surroundings and how it sends: the search's types,
 * an input's identity, a bounded pool of calls, one trial (a transport error is no evidence), and a batch in a quota
 * window (a fresh one on a move, the positive control's quota answer included).
 */
import fc from 'fast-check';
import type { Evidence, PropertyEvidence } from '../results.ts';
import { QuotaAnswered } from './property-gate.ts';
import type { Waits } from '../../waits.ts';

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
  /**
   * the contract's quota answer came (property-gate.ts isQuotaAnswer): the target's window is spent, whatever the
   * harness counted; the input is sent again in a fresh window (test clock), or the search stops
   */
  quota?: boolean;
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

export interface SearchSettings<T = unknown> {
  seed: number;
  /** random inputs planned (sampled from the arbitrary with the seed) */
  runs: number;
  /**
   * the coverage phase (PropertySpec.coverage): inputs sent first, all of them, in order, an input listed twice sent
   * once; a random input equal to one of them is not sent again
   */
  coverage?: readonly T[];
  /** calls the shrinking may spend */
  shrinkCalls: number;
  /** inputs in flight at once, and in one batch (the target's in-flight window cuts it further); default WIDTH */
  width?: number;
  /** moves to a fresh window at most (a bound on the loop) */
  maxMoves?: number;
  /** the clock of a gate's wait (RunOptions.waits; real time when absent) */
  waits?: Waits;
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
  /** the coverage phase: its distinct inputs (classes) and those sent and judged (held or broken) */
  coverage?: { classes: number; covered: number };
  /** random inputs judged (held or broken) */
  randomJudged: number;
  /** inputs, or the positive control, answered with the contract's quota answer (each sent again in a fresh window) */
  quotaAnswers: number;
  /** a gate's 429s waited out, the seconds waited in all, and the narrowest batch they cut the search to */
  gate?: { pauses: number; seconds: number; narrowest: number };
  /** the first failing input (by its position among the sampled inputs) and the smallest one shrinking found */
  first?: Failure<T>;
  smallest?: Failure<T> & { path: string; shrinkCalls: number };
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

/** one trial; a transport error (thrown as TransportError by the HTTP client) is no evidence */
export async function attempt<T>(io: SearchIO<T>, input: T): Promise<{ trial: Trial; evidence?: Evidence }> {
  try {
    return await io.trial(input);
  } catch (e) {
    if (e instanceof Error && e.name === 'TransportError')
      return { trial: { verdict: 'unclear', observed: `no answer (${e.message})` } };
    throw e;
  }
}

/** the moves a search made and may make (a bound on its loops), and those the quota's answers asked for */
export interface Moves {
  moves: number;
  maxMoves: number;
  quotaAnswers: number;
}

/**
 * `send` on the calls the quota window grants the leading `wanted` inputs, reserved and sent under one lease of the
 * clock (no other check's move can fall between the count and the calls); when the window grants none, or the
 * positive control (sent at the start of the first batch) met the contract's quota answer (QuotaAnswered), a move to
 * a fresh one (outside the lease: two members never wait on each other's lease to move) and again. Undefined when the
 * search must stop (no test clock, or the most moves made); a control's QuotaAnswered is thrown on then.
 */
export async function inWindow<T, R>(
  io: SearchIO<T>,
  wanted: readonly T[],
  o: Moves,
  send: (granted: number) => Promise<R>,
): Promise<R | undefined> {
  const step = async (): Promise<{ r: R } | undefined> => {
    const granted = io.reserve(wanted);
    return granted === 0 ? undefined : { r: await send(granted) };
  };
  for (;;) {
    let done: { r: R } | undefined;
    try {
      done = await (io.batch ? io.batch(wanted, step) : step());
    } catch (e) {
      if (!(e instanceof QuotaAnswered)) throw e;
      o.quotaAnswers++;
      if (!io.moveWindow || o.moves >= o.maxMoves) throw e;
    }
    if (done) return done.r;
    if (!io.moveWindow || o.moves >= o.maxMoves) return undefined;
    await io.moveWindow();
    o.moves++;
  }
}
