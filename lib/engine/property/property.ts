/**
 * Property-based checks (docs/properties.md): fast-check generates inputs, each is sent to the TARGET through the
 * check's context, and the target must answer every one right (and the exact, undefective request, its positive
 * control). One call per input, within the hourly quota (the runs planned on ctx.quota, a fresh window by the test
 * clock when one is spent, else a stop with the count made), side by side (the target's in-flight window), each batch
 * of calls and the positive control in a quota window of the operations they call (ctx.clock.window: on the run's
 * timeline no quota check spends those operations in that window, and the search rides the others' moves to a fresh
 * one: a property check never asks for the group's move), replayable (the seed
 * derives from the run's data seed and the check id; the path of a counterexample is kept), the first failure shrunk
 * to the smallest input the target gets wrong within run.properties.shrinkCalls calls. How a check uses it:
 * PROPS-API.md at the repository's side, and docs/properties.md.
 */
import type fc from 'fast-check';
import { CheckFailed, Inconclusive, type CheckDefinition } from '../check.ts';
import { failure as failureRecord } from '../failure.ts';
import type { CheckContext, ClientRole, Operation } from '../session/context.ts';
import type { Evidence, PropertyEvidence } from '../results.ts';
import type { Failure, SearchIO, SearchOutcome, Trial } from './property-search.ts';
import { gateWait, isQuotaAnswer, QuotaAnswered, waitingOutGates } from './property-gate.ts';
import { evidenceShortfall, randomRuns, searchWords } from './property-plan.ts';
import { chainOf, type Span } from './depth.ts';

export type { Trial } from './property-search.ts';
export { evidenceShortfall, plannedRuns } from './property-plan.ts';

/**
 * spread into a property check's definition: exclusive (it spends quota windows, and may move the clock to a fresh
 * one); with a test clock it rides the run's timeline with the other exclusive checks (runner.ts), without one the
 * property checks run side by side as one unit (clockGroup)
 */
export const PROPERTY_CHECK = {
  exclusive: true,
  clockGroup: 'properties',
  property: true,
} as const satisfies Partial<CheckDefinition>;

/** the client role and operation one input calls (default: the code client's validate) */
export interface Spend {
  as?: ClientRole;
  op?: Operation;
}

export interface PropertySpec<T> {
  /** what one input is, plural, for the verdict: "near-miss masks" */
  what: string;
  /** what the target does to an input it gets right, for the verdict: "refused" */
  held: string;
  arbitrary: fc.Arbitrary<T>;
  /**
   * the coverage phase: one input of every class the property is there to find (every defect, mutation or near-miss
   * class at least once), sent first, all of them, in order (an input listed twice is sent once), before the random
   * inputs of `arbitrary`; the same in every run (docs/properties.md "Budget")
   */
  coverage?: () => readonly T[];
  /**
   * random inputs at most, whatever the plan (a property whose coverage phase is the point, whose random inputs only
   * combine its classes, need not spend the whole budget)
   */
  maxRandom?: number;
  /** one input in words, for the report; never a clear identifier (the engine also redacts what it knows) */
  show(input: T): string;
  /** values in a kept exchange that must not reach the report (e.g. a clear id with one character changed) */
  sensitive?(input: T): { value: string; marker: string }[];
  /**
   * the quota one input spends: exactly one call of this client role and operation (default: the code client's
   * validate); a function when inputs go through different clients (e.g. account ids and emirates ids)
   */
  spends?: Spend | ((input: T) => Spend);
  /**
   * other operations a trial calls once at most (e.g. GET of the id a refused PUT named), as the client it spends:
   * declared in the quota windows of the check's calls, so that no quota check spends them meanwhile, and counted
   * ahead with each input's call (an input is sent only when all its calls fit the client's windows)
   */
  alsoCalls?: readonly Operation[];
  /** the positive control on the check's own context (recorded): throws Inconclusive when it is not accepted */
  control(ctx: CheckContext): Promise<void>;
  /** sends one input through `ctx` (a scratch context: its exchanges are kept only for a counterexample) */
  trial(ctx: CheckContext, input: T): Promise<Trial>;
  /** the failure, in words: "accepted `4111xxxxxx1X1` as a mask of the account id of customer …" */
  failure(input: T, trial: Trial): string;
  /** CheckFailed's expected: "HTTP 422 naming account_id" */
  expected: string;
}

/** the check's fast-check seed: the run's data seed and the check id, one story (replayed by --seed <dataSeed>) */
export function propertySeed(dataSeed: number, checkId: string): number {
  let h = 0x811c9dc5;
  for (const ch of `${dataSeed}:${checkId}`) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  return h & 0x7fffffff;
}

/** exchanges and notes of a trial, with the input's sensitive values replaced by their markers */
function scrubbed(e: Evidence, values: { value: string; marker: string }[]): Evidence {
  let text = JSON.stringify(e);
  for (const { value, marker } of values.filter((v) => v.value.length > 0)) {
    for (const form of new Set([value, JSON.stringify(value).slice(1, -1), encodeURIComponent(value)]))
      text = text.split(form).join(marker);
  }
  return JSON.parse(text) as Evidence;
}

function summaryOf<T>(spec: PropertySpec<T>, o: SearchOutcome<T>, seed: number, planned: number): string {
  const judged = o.held + o.broken;
  const extra = searchWords(o, seed, planned);
  if (!o.smallest) return `${spec.held} ${o.held}/${judged} ${spec.what} (${extra.join('; ')})`;
  return `${spec.failure(o.smallest.input, o.smallest.trial)} (${o.broken} of ${judged} ${spec.what} got wrong; ${extra.join('; ')})`;
}

/** the client and operation an input's call spends */
function spendOf<T>(spec: PropertySpec<T>, input: T): Required<Spend> {
  const s = typeof spec.spends === 'function' ? spec.spends(input) : spec.spends;
  return { as: s?.as ?? 'code', op: s?.op ?? 'validate' };
}

/**
 * What the search does through the check's context: each batch of calls, and the positive control at the start of the
 * first (on the timeline a window that begins at once may begin before the first move: a window of the control's own
 * would end as the move comes, and the batch wait for it), in a quota window of the operations they call (any
 * client: no quota check counts them); a fresh window once the clock passed the spent one (on the timeline on the
 * others' moves, alone a move of its own); the search's exchanges as timed spans (its round trips one after
 * another: passing inputs' exchanges are not kept). `control` runs the control when no batch did (nothing to send).
 */
function searchIO<T>(
  ctx: CheckContext,
  spec: PropertySpec<T>,
  inputs: readonly T[],
): { io: SearchIO<T>; control: () => Promise<void>; spans: Span[]; moveWindow: () => Promise<void> } {
  const opsOf = (list: readonly T[]): Operation[] => [
    ...new Set([...list.map((i) => spendOf(spec, i).op), ...(spec.alsoCalls ?? [])]),
  ];
  const all = opsOf(inputs);
  const calls = all.length > 0 ? all : (['validate'] as Operation[]);
  const pending: { control?: () => Promise<void> } = { control: () => controlOnce(ctx, spec) };
  // the control once accepted (or refused for another cause); again in a fresh window after the quota's answer
  const first = async (): Promise<void> => {
    const c = pending.control;
    if (!c) return;
    try {
      await c();
    } catch (e) {
      if (!(e instanceof QuotaAnswered)) delete pending.control;
      throw e;
    }
    delete pending.control;
  };
  const window = ctx.profile.contract.quota.windowSeconds + 1;
  const moveWindow = (): Promise<void> => ctx.clock.waitFor(window).then(() => undefined);
  const spans: Span[] = [];
  const io: SearchIO<T> = {
    // the leading inputs whose calls each fit their client's windows (counted at once): the call it spends and each
    // other operation its trial calls (alsoCalls: the tampered envelopes' GET of the id), all or none of them
    reserve: (wanted) => {
      let n = 0;
      for (const input of wanted) {
        const { as, op } = spendOf(spec, input);
        const ops = [op, ...(spec.alsoCalls ?? []).filter((o) => o !== op)];
        const got = ops.filter((o) => ctx.quota.reserve(as, o, 1) === 1);
        if (got.length < ops.length) {
          for (const o of got) ctx.quota.release(as, o, 1);
          break;
        }
        n++;
      }
      return n;
    },
    batch: (wanted, f) =>
      ctx.clock.window(
        { calls: pending.control ? calls : opsOf(wanted) },
        pending.control ? 'a property check: its positive control and first batch' : 'a property batch',
        async () => {
          await first();
          return f();
        },
      ),
    ...(ctx.clock.available ? { moveWindow } : {}),
    trial: async (input) => {
      const s = ctx.scratch();
      try {
        const trial = await spec.trial(s.ctx, input);
        // a gate's refusal (a short Retry-After) is waited out by the search, not taken for the quota's
        const status = ctx.profile.contract.quota.status;
        const last = s.evidence.exchanges.findLast((x) => x.response?.status === status);
        const refused = last?.response;
        if (trial.verdict !== 'unclear' || !refused) return { trial, evidence: s.evidence };
        // a sealed answer is judged by its envelope (its text is a summary): not a page
        const body = last.jose?.direction === 'response' ? {} : refused.body;
        if (isQuotaAnswer({ status: refused.status, headers: refused.headers, body }, status))
          return { trial: { ...trial, quota: true }, evidence: s.evidence };
        const wait = gateWait(refused.status, refused.headers['retry-after'], status);
        return { trial: wait === undefined ? trial : { ...trial, gateWaitSeconds: wait }, evidence: s.evidence };
      } finally {
        for (const x of s.evidence.exchanges) spans.push({ startedAt: x.startedAt, durationMs: x.durationMs });
      }
    },
  };
  const control = async (): Promise<void> => {
    for (let moves = 0; pending.control; moves++) {
      try {
        await ctx.clock.window({ calls }, 'the positive control of a property check', first);
      } catch (e) {
        if (!(e instanceof QuotaAnswered) || !ctx.clock.available || moves >= CONTROL_MOVES) throw e;
        await moveWindow();
      }
    }
  };
  return { io, control, spans, moveWindow };
}

/** fresh windows a positive control is sent again in at most, when nothing else is sent (a bound on the loop) */
const CONTROL_MOVES = 2;

/**
 * the positive control on the check's context, its calls watched: not accepted because the target answered with the
 * contract's quota answer (its window is spent, whatever the harness counted), QuotaAnswered (the search moves to a
 * fresh window and sends it again, or is inconclusive without a test clock)
 */
async function controlOnce<T>(ctx: CheckContext, spec: PropertySpec<T>): Promise<void> {
  const status = ctx.profile.contract.quota.status;
  let seen: string | undefined;
  // each call of the control sent again after a gate's refusal; the contract's quota answer noticed
  const watched = waitingOutGates(ctx, (r) => {
    if (isQuotaAnswer(r, status)) seen = `HTTP ${r.status}, Retry-After ${r.headers['retry-after'] ?? '?'}`;
  });
  try {
    await spec.control(watched);
  } catch (e) {
    if (!(e instanceof Inconclusive) || seen === undefined) throw e;
    ctx.note(`the positive control met the contract's quota answer (${seen}): the target's window is spent`);
    throw new QuotaAnswered(`the positive control was answered with the contract's quota answer (${seen})`);
  }
}

/**
 * Runs the property: the positive control, then the search (property-search.ts); records evidence.property and
 * the counterexample's exchange. Passes, or throws CheckFailed (a counterexample), Inconclusive (nothing judged).
 */
export async function checkProperty<T>(ctx: CheckContext, spec: PropertySpec<T>): Promise<PropertyEvidence> {
  const dataSeed = ctx.dataSeed;
  const seed = propertySeed(dataSeed, ctx.checkId);
  const planned = Math.min(randomRuns(ctx.profile, ctx.options, ctx.clock.available), spec.maxRandom ?? Infinity);
  const coverage = spec.coverage?.();
  // the search (fast-check) is loaded by the property checks, not by every run
  const { sampleInputs, search } = await import('./property-search.ts');
  const { io, control, spans, moveWindow } = searchIO(ctx, spec, [
    ...(coverage ?? []),
    ...sampleInputs(spec.arbitrary, seed, planned),
  ]);
  let o: SearchOutcome<T>;
  try {
    o = await search(spec.arbitrary, io, {
      seed,
      runs: planned,
      ...(coverage ? { coverage } : {}),
      shrinkCalls: ctx.profile.run.properties?.shrinkCalls ?? 60,
      ...(ctx.options.waits ? { waits: ctx.options.waits } : {}),
    });
    await control();
    // the windows it spent are not left to whoever comes next (a run after this one against the same bank, whose
    // ledger starts empty, and its fixed checks that have no fresh window to move to): with a test clock, a fresh one
    if (o.runs > 0 && ctx.clock.available) await moveWindow();
  } catch (e) {
    if (!(e instanceof QuotaAnswered)) throw e;
    throw new Inconclusive(
      ctx.clock.available
        ? `${e.message}, still after the fresh quota windows this search may move to`
        : `${e.message}, and the target has no test clock to move to a fresh window: nothing judged`,
    );
  }
  const summary = summaryOf(spec, o, seed, planned);
  const evidence: PropertyEvidence = {
    summary,
    seed,
    dataSeed,
    planned,
    ...(o.distinct !== undefined ? { distinct: o.distinct } : {}),
    runs: o.runs,
    held: o.held,
    broken: o.broken,
    unclear: o.unclear,
    windowMoves: o.windowMoves,
    ...(o.stopped ? { stopped: o.stopped } : {}),
    ...(o.coverage ? { coverage: o.coverage } : {}),
    randomJudged: o.randomJudged,
    ...(o.quotaAnswers ? { quotaAnswers: o.quotaAnswers } : {}),
  };
  const chain = chainOf(spans);
  if (chain.length > 0) {
    evidence.roundTrips = chain.length;
    evidence.chain = chain;
  }
  const hide = (f: Failure<T>): { value: string; marker: string }[] => spec.sensitive?.(f.input) ?? [];
  const words = (f: Failure<T>): string => scrubText(ctx.redact(spec.show(f.input)), hide(f));
  if (o.smallest && o.first) {
    evidence.counterexample = {
      input: words(o.smallest),
      observed: scrubText(ctx.redact(o.smallest.trial.observed), hide(o.smallest)),
      path: o.smallest.path,
      firstFound: words(o.first),
      shrinkCalls: o.smallest.shrinkCalls,
    };
    keep(ctx, o.smallest, hide(o.smallest), 'counterexample (shrunk)');
  }
  ctx.note(summary);
  ctx.recordProperty(evidence);
  if (o.smallest) throw counterexampleFound(scrubText(summary, hide(o.smallest)), spec.expected, evidence, o.smallest);
  const short = evidenceShortfall(o, spec.what, planned);
  if (short) throw new Inconclusive(`${short}: ${summary}`);
  return evidence;
}

function scrubText(text: string, values: { value: string; marker: string }[]): string {
  for (const { value, marker } of values.filter((v) => v.value.length > 0)) text = text.split(value).join(marker);
  return text;
}

/**
 * the failure of a property: its counterexample as a record (the input, what was observed, the ids its trial breaks,
 * the last exchange of it the evidence keeps)
 */
function counterexampleFound<T>(
  message: string,
  expected: string,
  evidence: PropertyEvidence,
  smallest: Failure<T>,
): CheckFailed {
  const detail = {
    expected,
    observed: evidence.counterexample?.observed,
    ...(smallest.trial.requirements ? { requirements: smallest.trial.requirements } : {}),
  };
  const shown = smallest.evidence?.exchanges.at(-1);
  const record = failureRecord(
    'counterexample',
    message,
    { input: evidence.counterexample?.input ?? '' },
    { ...detail, ...(shown ? { label: `counterexample (shrunk): ${shown.label ?? ''}` } : {}) },
  );
  return new CheckFailed(message, { ...detail, failures: [record] });
}

/** the counterexample's exchanges and notes into the check's evidence, labelled */
function keep<T>(ctx: CheckContext, f: Failure<T>, values: { value: string; marker: string }[], label: string): void {
  if (!f.evidence) return;
  const e = scrubbed(f.evidence, values);
  ctx.adopt({
    ...e,
    exchanges: e.exchanges.map((x) => ({ ...x, label: `${label}: ${x.label ?? ''}` })),
    notes: e.notes.map((n) => `${label}: ${n}`),
  });
}
