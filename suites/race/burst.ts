/**
 * How the race checks send and judge a burst: N copies of one request released together (ctx.burst), a control
 * request of the same kind sent alone first (the positive control, and how fast the target can answer), and the
 * overlap test: a burst overlapped when at least two of its requests, every one ready, were released within less
 * time than the control took to be answered (so neither could have been answered before the other reached the
 * target). The measure is the largest group of requests released within that time of one another, not the spread of
 * the whole burst: a scheduler that preempts the harness once or twice during the release (a busy machine) splits the
 * burst into groups that each still overlapped, where the whole spread would pass the control's time and hide every
 * overlap; only a machine that delays every single write past the control's answer time can hide it, and then more
 * bursts are sent (OVERLAP_BUDGET). A burst that cannot be shown to overlap proves nothing: when none of a check's
 * bursts overlapped, the check is inconclusive with the measured groups, never a pass by luck.
 */
import { Inconclusive } from '../../lib/engine/check.ts';
import type { CheckContext } from '../../lib/engine/session/context.ts';
import type { BurstReply, BurstResult } from '../../lib/http/burst/burst.ts';
import type { HttpRequest } from '../../lib/http/types.ts';

export interface Judged {
  /** bursts sent, and how many of them overlapped */
  bursts: number;
  overlapped: number;
  /** per burst: the largest group released within the control's answer time, of those ready ("1/20") */
  groups: string[];
}

/** the answer time of a request sent alone (a one-request burst): the overlap threshold */
export function latencyOf(r: BurstResult): number | undefined {
  const x = r.replies[0];
  return x?.firstByteAt !== undefined && x.releasedAt !== undefined ? x.firstByteAt - x.releasedAt : undefined;
}

/**
 * the largest number of requests released within less time than the control took to be answered, counted from one of
 * them (the release times sorted, scanned with two pointers): each of them reached the target before any of the others could
 * have been answered. Only requests ready at the release count: those not ready in time were abandoned unsent
 * (burst.ts), whether the in-flight window cut the burst (BurstResult.asked) or the target did not accept their connections at
 * once (a target that serialises connections has one ready: never more than 1); a reply a gateway throttled took no
 * part (not ready)
 */
export function overlapGroup(r: BurstResult, controlMs: number): number {
  const at = r.replies
    .flatMap((x) => (x.ready && x.releasedAt !== undefined ? [x.releasedAt] : []))
    .sort((a, b) => a - b);
  let best = Math.min(at.length, 1);
  for (let i = 0, j = 0; i < at.length; i++) {
    while (at[i]! - at[j]! >= controlMs) j++;
    best = Math.max(best, i - j + 1);
  }
  return best;
}

/**
 * `least` requests at least (default two: a race) overlapped at the target (overlapGroup); a race past a quota needs
 * more of them than the room left
 */
export function overlapped(r: BurstResult, controlMs: number, least = 2): boolean {
  return overlapGroup(r, controlMs) >= Math.max(2, least);
}

export function describeBurst(r: BurstResult, controlMs: number): string {
  const fb =
    r.firstByteSpreadMs === undefined ? 'no answers' : `answers spread over ${r.firstByteSpreadMs.toFixed(2)} ms`;
  const cut =
    r.asked !== undefined
      ? ` (${r.replies.length} of the ${r.asked} asked: as many as the target was seen to accept at once)`
      : '';
  // a connection kept from an earlier burst, or opened ahead (openAhead), saves the connect and the handshake, not
  // the release (burst.ts)
  const kept = r.reused ? `, ${r.reused} on connections kept from an earlier burst or opened ahead` : '';
  return `${r.ready}/${r.replies.length} ready${cut}${kept}, released within ${r.releaseSpreadMs.toFixed(3)} ms, ${overlapGroup(r, controlMs)} of them within less than the control's ${controlMs.toFixed(2)} ms answer time of one another, ${fb}`;
}

/**
 * bursts sent at most while none has been shown to overlap (a stated budget). A count, not a time: a busy machine
 * makes every burst slower and its release likelier to be preempted, so a time budget would give it fewer tries
 * exactly when it needs more, and the verdict would follow the load. Each burst is bounded by its time limits.
 */
export const OVERLAP_BUDGET = { bursts: 8 } as const;

/**
 * statuses of a burst's replies, for a note: "200 ×19, 201 ×1" (transport errors by code), in the order of the
 * statuses, not of the answers (which the scheduler decides: the same burst reads the same every run)
 */
export function tally(replies: readonly BurstReply[]): string {
  const m = new Map<string, number>();
  for (const r of replies) {
    const k = r.response ? String(r.response.status) : (r.error ?? 'no answer');
    m.set(k, (m.get(k) ?? 0) + 1);
  }
  return [...m]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k} ×${v}`)
    .join(', ');
}

/**
 * `count` connections for bursts of `req` (its origin, its identity) opened now: a control's and its first burst's
 * (1 + N) while the check makes its requests, the next burst's while one is in flight
 * (lib/http/connections/burst-ahead.ts: only to a target that closes after every answer and has shown no limit;
 * against one 100 ms away the control and each burst then pay one round trip, not two). Never rejects: a connection
 * not opened ahead is opened by its burst
 */
export function openAhead(ctx: CheckContext, req: Pick<HttpRequest, 'url' | 'identity'>, count: number): Promise<void> {
  return (ctx.burstAhead?.(req, count) ?? Promise.resolve(0)).then(
    () => undefined,
    () => undefined,
  );
}

/**
 * the control sent alone: its reply (to be judged by the caller) and its answer time. `ahead` (openAhead): sent once
 * the connections opened ahead are settled, so that its answer time (the bursts' overlap threshold) is measured with
 * none of the harness's handshakes in flight
 */
export async function control(
  ctx: CheckContext,
  req: HttpRequest,
  ahead?: Promise<void>,
): Promise<{ reply: BurstReply; ms: number }> {
  await ahead;
  const r = await ctx.burst([req]);
  const ms = latencyOf(r);
  const reply = r.replies[0]!;
  if (ms === undefined || !reply.response)
    throw new Inconclusive(`the control request got no answer (${reply.error ?? 'no answer'}): ${req.label ?? ''}`);
  return { reply, ms };
}

/**
 * `make`, with the requests of bursts 0..count-1 made at once, now (each made once; a failure is thrown when that
 * burst is asked for): a check calls it before its control, so that the bursts' tokens or codes are fetched while
 * the control is in flight
 */
export function madeAhead(make: (i: number) => Promise<HttpRequest[]>, count: number): MadeAhead {
  const made = new Map<number, Promise<HttpRequest[]>>();
  const get = (i: number): Promise<HttpRequest[]> => {
    let p = made.get(i);
    if (!p) {
      p = make(i);
      p.catch(() => {});
      made.set(i, p);
    }
    return p;
  };
  for (let i = 0; i < count; i++) void get(i);
  return Object.assign(get, { settled: () => Promise.allSettled(made.values()).then(() => undefined) });
}

/** bursts made ahead; `settled` waits until every request set asked for has been made (or failed) */
export type MadeAhead = ((i: number) => Promise<HttpRequest[]>) & { settled(): Promise<void> };

/**
 * Sends `repeats` bursts of N copies (a fresh request set per burst from `make`), hands each to `judge` (which
 * throws CheckFailed on a finding); while none has overlapped, more bursts within OVERLAP_BUDGET (a loaded client
 * can be preempted during a release), `maxBursts` at most; ends inconclusive when no burst overlapped, and when
 * the target took fewer than two requests at once (no race can be shown: never a harness error).
 */
export async function repeatBursts(
  ctx: CheckContext,
  o: {
    n: number;
    repeats: number;
    /** bursts at most, also when none of the first `repeats` overlapped (default: OVERLAP_BUDGET.bursts) */
    maxBursts?: number;
    /** requests that must overlap for a burst to count (default 2; more than the room left in a race past a quota) */
    least?: number;
    controlMs: number;
    make: (i: number) => Promise<HttpRequest[]>;
    judge: (r: BurstResult, i: number) => Promise<void>;
    /**
     * calls sent while burst `i` is in flight (no round trip of their own: e.g. a read of what an earlier burst did);
     * they never touch the burst's transfer, and its release is one synchronous loop that nothing else enters. A
     * failure is thrown once the burst has ended and been noted.
     */
    alongside?: (i: number) => Promise<void>;
  },
): Promise<Judged> {
  const j: Judged = { bursts: 0, overlapped: 0, groups: [] };
  const max = Math.max(o.repeats, o.maxBursts ?? OVERLAP_BUDGET.bursts);
  // the requests of the first `repeats` bursts (sure to be sent) are made at once, before the first is sent (or
  // earlier, by madeAhead); a made burst left unsent (a finding ended the check) is dropped
  const make = madeAhead(o.make, Math.min(o.repeats, max));
  for (let i = 0; i < max && (i < o.repeats || j.overlapped === 0); i++) {
    const reqs = await make(i);
    const burst = ctx.burst(reqs);
    // the next burst's connections opened while this one is in flight (sure to be sent: within the first `repeats`);
    // this one takes those opened for it first (any of these it finds ready only spares it a connect)
    if (i + 1 < Math.min(o.repeats, max) && reqs[0]) void openAhead(ctx, reqs[0], reqs.length);
    const [sent, along] = await Promise.allSettled([burst, o.alongside?.(i)]);
    if (sent.status === 'rejected') throw sent.reason;
    const r = sent.value;
    j.bursts++;
    const over = overlapped(r, o.controlMs, o.least);
    if (over) j.overlapped++;
    j.groups.push(`${overlapGroup(r, o.controlMs)}/${r.ready}`);
    ctx.note(
      `burst ${i + 1}: ${describeBurst(r, o.controlMs)}; ${over ? 'overlapped' : 'not shown to overlap'}; ${tally(r.replies)}`,
    );
    if (along.status === 'rejected') throw along.reason;
    if (r.replies.length < 2)
      throw new Inconclusive(
        `the target accepted fewer than 2 requests at once (burst of ${r.replies.length} of the ${o.n} asked): no race can be shown`,
      );
    await o.judge(r, i);
  }
  ctx.note(`${j.overlapped} of ${j.bursts} bursts overlapped (budget while none has: ${max} bursts)`);
  if (j.overlapped === 0)
    throw new Inconclusive(
      `no burst could be shown to overlap at the target within the budget (${j.bursts} bursts): no ${Math.max(2, o.least ?? 2)} requests released within less than the control's ${o.controlMs.toFixed(2)} ms answer time of one another (the largest group of each burst, of those ready: ${j.groups.join(', ')}; a target that serialises connections has one ready)`,
    );
  return j;
}
