/**
 * ctx.clock as a session gives it to one check: the target's test clock, moved under the session's leases
 * (leases.ts: no move before the prerequisites settled, none under another holder's time-bound exchange), or, with
 * --long and no test clock, a real wait that the check's stop (the run deadline, its time limit) cuts short, the
 * evidence saying how long it really waited.
 */
import { Inconclusive, NotRun, type CheckDefinition } from '../check.ts';
import type { TargetClock } from '../session/context.ts';
import type { ClockLeases, LeaseHolder } from './leases.ts';
import type { Evidence } from '../results.ts';
import type { SessionParts } from '../session/tokens.ts';
import type { PrerequisiteBoard, PrerequisiteId } from '../types.ts';
import type { HttpRequest, HttpResponse } from '../../http/types.ts';

export type Send = (req: HttpRequest) => Promise<HttpResponse>;

/** every prerequisite (a complete list: the compiler checks it against PrerequisiteId) */
const PREREQUISITES = Object.keys({
  'tls-handshake': true,
  'reach-api': true,
  'client-credentials-token': true,
  'sealed-response-opens': true,
  'code-grant': true,
} satisfies Record<PrerequisiteId, true>) as PrerequisiteId[];

/** resolves once every prerequisite of the run is settled (at once when the run establishes none) */
export function allSettled(board: PrerequisiteBoard): Promise<void> {
  return Promise.all(PREREQUISITES.map((id) => board.settled(id))).then(() => {});
}

/** the clock's leases as one check (or prerequisite) holds them */
export interface ClockShare {
  leases: ClockLeases;
  holder: LeaseHolder;
}

/** why a check was stopped, as the error its next step throws */
export function stoppedBy(stop: AbortSignal): Error {
  const reason: unknown = stop.reason;
  return reason instanceof Error ? reason : new NotRun(`the check was stopped: ${String(reason)}`);
}

/**
 * a check's request with the run deadline as its limit too (a moment after it): a request in flight when the
 * deadline passes ends then, so that the run can end; the check itself is stopped at the deadline (runner.ts)
 */
export function byDeadline(req: HttpRequest, parts: SessionParts, stop: AbortSignal | undefined): HttpRequest {
  const at = parts.options.deadlineAt;
  if (stop === undefined || at === undefined) return req;
  const run = parts.profile.run;
  const limit = req.timeoutMs ?? run.responseTimeoutMs ?? run.requestTimeoutMs;
  const left = Math.max(1000, at - Date.now() + 1000);
  return left < limit ? { ...req, timeoutMs: left } : req;
}

/** moves the test clock under the leases (leases.ts); the evidence says what the move waited for */
async function moveTestClock(
  parts: SessionParts,
  send: Send,
  evidence: Evidence,
  share: ClockShare,
  seconds: number,
): Promise<void> {
  const url = parts.profile.target.clock!;
  const { wait } = await share.leases.move(share.holder, seconds, async () => {
    const res = await send({
      method: 'POST',
      url,
      body: { advance_seconds: seconds },
      label: `test clock +${seconds} s`,
    });
    if (res.status !== 204 && res.status !== 200)
      throw new Inconclusive(`the test clock refused to move: HTTP ${res.status}`);
    parts.state.clockOffsetSeconds += seconds;
    if (parts.state.traffic) parts.state.traffic.movedSince += seconds;
  });
  if (wait.leases.length > 0)
    evidence.notes.push(
      `the clock move of ${seconds} s waited ${wait.waitedMs} ms for time-bound exchanges in flight: ${wait.leases.join('; ')}`,
    );
}

/**
 * lets `seconds` of real time pass (--long, no test clock); the check's stop ends the wait at once, and the
 * evidence says what was waited in either case
 */
export function realWait(seconds: number, evidence: Evidence, stop: AbortSignal | undefined): Promise<void> {
  const started = performance.now();
  return new Promise<void>((resolve, reject) => {
    if (stop?.aborted) {
      reject(stoppedBy(stop));
      return;
    }
    const onStop = (): void => {
      clearTimeout(timer);
      const waited = ((performance.now() - started) / 1000).toFixed(1);
      const why = stoppedBy(stop!);
      // written at once (abort listeners run synchronously): the verdict, decided next, carries it
      evidence.notes.push(`waited ${waited} s of real time of the ${seconds} s asked (no test clock): ${why.message}`);
      reject(why);
    };
    const timer = setTimeout(() => {
      stop?.removeEventListener('abort', onStop);
      evidence.notes.push(`waited ${seconds} s of real time (no test clock)`);
      resolve();
    }, seconds * 1000);
    stop?.addEventListener('abort', onStop, { once: true });
  });
}

export function clockFor(
  def: CheckDefinition,
  parts: SessionParts,
  send: Send,
  evidence: Evidence,
  share: ClockShare,
  stop?: AbortSignal,
): TargetClock {
  const { profile, options } = parts;
  /** the seconds of each move, in the order they started, and the positions of those not yet made (rendezvous.ts) */
  const started: number[] = [];
  const unmade = new Set<number>();
  const clock: TargetClock = {
    available: profile.target.clock !== undefined,
    ensurePassed: async (seconds: number) => {
      const t = parts.state.traffic;
      if (t !== undefined && t.inFlight === 0 && t.movedSince >= seconds) {
        evidence.notes.push(
          `the clock has moved ${t.movedSince} s since the last request: no move needed for ${seconds} s`,
        );
        return;
      }
      await clock.advance(seconds);
    },
    stopwatch: () => {
      const mark = started.length;
      const before = [...unmade];
      return () => before.reduce((a, i) => a + started[i]!, 0) + started.slice(mark).reduce((a, b) => a + b, 0);
    },
    advanceTogether: (seconds: number) => clock.advance(seconds).then(() => seconds),
    waitFor: (seconds: number) => clock.advance(seconds).then(() => seconds),
    hold: (why, f) => share.leases.hold(share.holder, why, f),
    holding: () => share.leases.holds(share.holder),
    window: async (use, why, f) => {
      if (share.leases.holds(share.holder))
        throw new Error('a quota window asked while the check holds a lease on the clock: its moves would wait for it');
      // only calls, or no test clock (nothing to move): the window is the lease
      if (!use.spends?.length || !clock.available) return share.leases.hold(share.holder, why, f);
      const passed = profile.contract.quota.windowSeconds + 1;
      // the check before may have ended by passing the window, with no request since: no second move
      await clock.ensurePassed(passed);
      try {
        return await share.leases.hold(share.holder, why, f);
      } finally {
        // the next check finds a fresh window, whatever happened
        await clock.advance(passed);
      }
    },
    advance: async (seconds: number) => {
      const place = started.push(seconds) - 1;
      if (profile.target.clock) {
        unmade.add(place);
        try {
          return await moveTestClock(parts, send, evidence, share, seconds);
        } finally {
          unmade.delete(place);
        }
      }
      if (options.long && seconds <= options.maxWaitSeconds) {
        options.onWait?.(
          `${def.id} [${def.requirements.join(' ')}]: waiting ${seconds} s of real time (--long, no test clock): ${def.title}`,
        );
        return realWait(seconds, evidence, stop);
      }
      throw new NotRun(`needs a test clock or --long to let ${seconds} s pass`);
    },
  };
  return clock;
}
