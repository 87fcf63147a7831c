/**
 * Runs checks against a session and turns every outcome into a verdict with its reason. This is the only
 * place verdicts are decided: the Vitest glue (vitest.ts) and the fault matrix both call runCheck.
 */
import { interceptedReason, type ProxyRoute } from '../../tls/tunnel.ts';
import { answersSeen, proxyMayExplain } from './answers-seen.ts';
import { levelOf } from '../../catalogue/index.ts';
import {
  Blocked,
  CheckFailed,
  Inconclusive,
  NotApplicable,
  NotRun,
  QuotaSpent,
  blockerOf,
  prerequisitesOf,
  waitOf,
  type CheckDefinition,
} from '../check.ts';
import { settleFailures } from '../failure.ts';
import type { CheckContext } from '../session/context.ts';
import type { PrerequisiteBoard, RunOptions } from '../types.ts';
import { requirementVerdict, type CheckResult, type Evidence, type Verdict } from '../results.ts';
import type { FullProfile, KnownDeviation } from '../../profile/schema.ts';
import { TransportError, isServerCertificateError } from '../../http/types.ts';
import { ClockRendezvous } from '../clock/rendezvous.ts';
import { QuotaCounters } from '../clock/windows.ts';
import { Throttled } from '../session/throttle/throttle.ts';
import { whyNotRunnable } from './runnable.ts';
import { exclusiveUnits, startOrder } from './start-order.ts';

export { isServerCertificateError };

export type { RunOptions } from '../types.ts';

export const defaultRunOptions: RunOptions = {
  long: false,
  destructive: false,
  embedded: false,
  maxWaitSeconds: 2 * 3600,
  checkTimeoutMs: 60_000,
};

/** What runCheck needs from a session: a fresh context per check (its own evidence). */
export interface ContextFactory {
  readonly profile: FullProfile;
  /** removes secrets from text: every message of a result passes through it before it is kept */
  redact(text: string): string;
  /** `stop` aborts when the check is stopped (the run deadline, its time limit): its waits end, it sends no more */
  context(def: CheckDefinition, evidence: Evidence, stop?: AbortSignal): CheckContext;
  /** prerequisites established for this run (certify): a failed one blocks the checks that need it */
  readonly prerequisites?: PrerequisiteBoard;
  /** a gateway's throttle answers so far (session/throttle/throttle.ts): a check out of time under them is inconclusive */
  throttled?(): number;
  /**
   * when the target's session was last active (performance.now() time; now while an exchange is in flight,
   * activity.ts): a check's time limit then counts the session's quiet time, not the check's own duration
   */
  lastActive?(): number;
  /** the check's context with its calls planned on the quota windows (lib/engine/session/quota-windows.ts) */
  inQuotaWindows?(ctx: CheckContext, def: CheckDefinition): CheckContext;
  /** before the timeline (a test clock): fresh quota windows if the checks before left one nearly spent */
  freshWindows?(): Promise<void>;
}

/**
 * the profile's known deviation for this outcome: of the check, or of one of its ids the outcome speaks of (a failure
 * that broke other ids is not excused by a deviation of this one; a pass of an id judged in part does not show it holds)
 */
function deviationFor(
  def: CheckDefinition,
  list: readonly KnownDeviation[],
  outcome: CheckResult,
): KnownDeviation | undefined {
  return list.find((d) => d.id === def.id || requirementVerdict(outcome, d.id) !== undefined);
}

/** a member of a clock group's rendezvous (rendezvous.ts): its clock moves together with the group's */
export interface GroupMember {
  clock(own: CheckContext['clock'], note: (text: string) => void): CheckContext['clock'];
}

export async function runCheck(
  def: CheckDefinition,
  factory: ContextFactory,
  opts: RunOptions,
  group?: GroupMember,
): Promise<CheckResult> {
  const level = levelOf(def.requirements);
  const evidence: Evidence = { exchanges: [], notes: [], tls: [] };
  const base = {
    checkId: def.id,
    suite: def.suite,
    title: def.title,
    requirements: [...def.requirements],
    ...(def.partial?.length ? { partial: [...def.partial] } : {}),
    level,
    evidence,
  };
  const started = performance.now();
  const done = (verdict: Verdict, extra: Partial<CheckResult> = {}): CheckResult => {
    const r: CheckResult = { ...base, verdict, ...extra, durationMs: Math.round(performance.now() - started) };
    for (const k of ['reason', 'expected', 'observed'] as const) {
      const v = r[k];
      if (v !== undefined) r[k] = factory.redact(v);
    }
    evidence.notes = evidence.notes.map((n) => factory.redact(n));
    if (r.failures) r.failures = settleFailures(r.failures, evidence.exchanges, factory.redact);
    return r;
  };

  const pre = whyNotRunnable(def, factory.profile, opts);
  if (pre) return done(pre.verdict, { reason: pre.reason });
  const board = factory.prerequisites;
  if (board) await Promise.all(prerequisitesOf(def, factory.profile).map((id) => board.settled(id)));
  // past the deadline the check is not run, whatever its prerequisites came to (some may not be established)
  if (opts.deadlineAt !== undefined && Date.now() >= opts.deadlineAt)
    return done('not-run', { reason: 'the run deadline (--deadline) passed before the check started' });
  const blocked = board && blockerOf(def, factory.profile, board);
  if (blocked) return done('inconclusive', { reason: blocked.message, blockedBy: blocked.prerequisite });

  let outcome: CheckResult;
  const stop = new AbortController();
  const own = factory.context(def, evidence, stop.signal);
  const grouped = group ? { ...own, clock: group.clock(own.clock, own.note) } : own;
  const ctx = factory.inQuotaWindows?.(grouped, def) ?? grouped;
  // a check that waits for real (--long, no test clock) gets its own declared wait on top of the time limit
  const waits = opts.long && !factory.profile.target.clock ? (waitOf(def, factory.profile) ?? 0) : 0;
  const limit = timeLimit(factory, opts, opts.checkTimeoutMs + waits * 1000, stop);
  try {
    await Promise.race([def.run(ctx), limit.expired]);
    outcome = done('pass');
  } catch (e) {
    // the target's quota answer ended the check (QuotaSpent), or every refusal it saw was that answer: the target's
    const mayExplain = (): boolean =>
      !(e instanceof QuotaSpent) && proxyMayExplain(answersSeen(evidence), factory.profile.contract.quota.status);
    outcome = classify(e, level, def.requirements, done, (reason) => throughProxy(reason, mayExplain(), ctx.proxy));
  } finally {
    limit.clear();
    ctx.dispose();
  }

  return withDeviation(def, factory.profile.knownDeviations, outcome);
}

/**
 * rejects when the check's time limit passes (the session's quiet time since the check began: a check riding the
 * timeline waits for the others' windows and moves, longer on a busy machine) or the run's deadline; aborts `stop`
 */
function timeLimit(
  factory: ContextFactory,
  opts: RunOptions,
  limitMs: number,
  stop: AbortController,
): { expired: Promise<never>; clear(): void } {
  const throttledBefore = factory.throttled?.() ?? 0;
  const began = performance.now();
  const quietMs = (): number => performance.now() - Math.max(began, factory.lastActive?.() ?? began);
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    const check = (): void => {
      const left = opts.deadlineAt === undefined ? Infinity : opts.deadlineAt - Date.now();
      const quietLeft = limitMs - quietMs();
      if (left > 0 && quietLeft > 0) {
        timer = setTimeout(check, Math.min(left, quietLeft));
        return;
      }
      // slowed by a gateway's throttle, not stuck: no verdict on the rule (session/throttle/throttle.ts)
      const throttled = (factory.throttled?.() ?? 0) - throttledBefore;
      const why =
        left <= 0
          ? new NotRun('the run deadline (--deadline) passed while the check ran: stopped')
          : throttled > 0
            ? new Throttled(
                `throttled by the gateway: the check did not finish, nothing sent to the target nor answered for ${limitMs} ms, ${throttled} calls of the run throttled meanwhile`,
              )
            : new HarnessTimeout(
                `the check did not finish: nothing was sent to the target nor answered for ${limitMs} ms`,
              );
      // its waits end now (saying how long they lasted) and it sends nothing more
      stop.abort(why);
      reject(why);
    };
    check();
  });
  // a rejection nobody awaits once the check is done
  expired.catch(() => undefined);
  return { expired, clear: () => clearTimeout(timer) };
}

/** a known deviation of the profile turns a failure into expected-fail, and a pass into unexpected-pass */
function withDeviation(def: CheckDefinition, list: readonly KnownDeviation[], outcome: CheckResult): CheckResult {
  const deviation = deviationFor(def, list, outcome);
  if (!deviation) return outcome;
  const why = `known deviation: ${deviation.reason}${deviation.link ? ` (${deviation.link})` : ''}`;
  if (outcome.verdict === 'fail' || outcome.verdict === 'warn') {
    return { ...outcome, verdict: 'expected-fail', reason: `${why}; observed: ${outcome.reason ?? ''}` };
  }
  if (outcome.verdict === 'pass') {
    return {
      ...outcome,
      verdict: 'unexpected-pass',
      reason: `${why}; but the rule now holds: remove the entry from the profile's knownDeviations`,
    };
  }
  return outcome;
}

class HarnessTimeout extends Error {
  override name = 'HarnessTimeout';
}

function classify(
  e: unknown,
  level: 'MUST' | 'SHOULD',
  requirements: readonly string[],
  done: (v: Verdict, extra?: Partial<CheckResult>) => CheckResult,
  /** an inconclusive reason as the report says it (throughProxy) */
  inconclusive: (reason: string) => string,
): CheckResult {
  if (e instanceof CheckFailed) {
    const extra: Partial<CheckResult> = { reason: e.message };
    if (e.expected !== undefined) extra.expected = e.expected;
    if (e.observed !== undefined) extra.observed = e.observed;
    extra.failures = [...e.failures];
    // a failure that names the ids it broke is of their level (a SHOULD alone warns) and marks only them failed
    const broke = e.requirements?.filter((id) => requirements.includes(id)) ?? [];
    if (broke.length > 0 && broke.length < requirements.length) {
      extra.failed = broke;
      extra.level = levelOf(broke);
    }
    return done((extra.level ?? level) === 'MUST' ? 'fail' : 'warn', extra);
  }
  if (e instanceof NotApplicable) return done('not-applicable', { reason: e.message });
  if (e instanceof NotRun) return done('not-run', { reason: e.message });
  if (e instanceof Blocked) return done('inconclusive', { reason: inconclusive(e.message), blockedBy: e.prerequisite });
  if (e instanceof Inconclusive) return done('inconclusive', { reason: inconclusive(e.message) });
  // the run's proxy refused a tunnel or could not be reached (lib/tls/tunnel.ts): the proxy's doing, not the target's
  if (e instanceof TransportError && e.code.startsWith('PROXY_')) return done('inconclusive', { reason: e.message });
  if (e instanceof TransportError && isServerCertificateError(e)) {
    return done('inconclusive', {
      reason: `the server certificate did not verify (${e.code}), so the call was not made; that is TLS-05's rule`,
    });
  }
  const err = e instanceof Error ? e : new Error(String(e));
  const code = (err as { code?: unknown }).code;
  return done('error', { reason: `${err.name}${typeof code === 'string' ? ` ${code}` : ''}: ${err.message}` });
}

/**
 * an inconclusive reason, through a proxy that re-terminates TLS: said too (a refusal may be its certificate's), but
 * not when the target's quota answer ended the check or every refusal it saw was that answer (`mayExplain` false:
 * QuotaSpent, answers-seen.ts; from what the check saw, never from the reason's text)
 */
export function throughProxy(reason: string, mayExplain: boolean, proxy: ProxyRoute | undefined): string {
  const proxied = interceptedReason(proxy);
  return proxied && !reason.includes(proxied) && mayExplain ? `${reason} (${proxied})` : reason;
}

/**
 * Runs checks: the independent ones concurrently (bounded), then the exclusive ones: with a test clock side by side
 * on one timeline, else one unit at a time (startOrder, exclusiveUnits). Results come back in definition order.
 */
export async function runChecks(
  defs: readonly CheckDefinition[],
  factory: ContextFactory,
  opts: RunOptions,
  onResult?: (r: CheckResult) => void,
): Promise<CheckResult[]> {
  const results = new Array<CheckResult>(defs.length);
  const { shared, exclusive } = startOrder(defs);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < shared.length) {
      const [d, i] = shared[next++]!;
      results[i] = await runCheck(d, factory, opts);
      onResult?.(results[i]);
    }
  };
  const width = Math.min(factory.profile.run.concurrency, Math.max(1, shared.length));
  await Promise.all(Array.from({ length: width }, worker));
  const timeline = factory.profile.target.clock !== undefined;
  if (timeline && exclusive.length > 0) await factory.freshWindows?.();
  for (const unit of exclusiveUnits(exclusive, timeline)) {
    // without a test clock, time passes for every member at once: each waits its own time, side by side
    const quota = factory.profile.contract.quota;
    const rendezvous = timeline
      ? new ClockRendezvous(unit.length, new QuotaCounters(quota.windowSeconds + 1, quota.planPerHour !== undefined))
      : undefined;
    await Promise.all(
      unit.map(async ([d, i]) => {
        // a property check never asks for the group's move: it does not hold it back
        const member = rendezvous?.member({ together: d.property !== true });
        try {
          results[i] = await runCheck(d, factory, opts, member);
        } finally {
          member?.end();
        }
        onResult?.(results[i]);
      }),
    );
  }
  // the checks that judge what the whole run received, once it has all been received (CheckDefinition.last)
  await Promise.all(
    defs.map(async (d, i) => {
      if (d.last !== true) return;
      results[i] = await runCheck(d, factory, opts);
      onResult?.(results[i]);
    }),
  );
  return results;
}
