/**
 * Gateways that throttle (docs/design.md "Gateways that throttle"; docs/contract.md "Quotas"). A gateway in front of a bank
 * (nginx `limit_req`, AWS API Gateway, ...) answers a client that calls too fast with 429 or 503 before the bank sees
 * the call: no Retry-After as a rule, and a page of its own (HTML, or JSON of no shape the API uses). That is not
 * the contract's quota answer (the quota's status with the API's error body) and not any rule's answer: the session
 * sends such a call again after a wait (exponential back-off with a seeded jitter, MAX_TRIES tries and MAX_WAIT_MS
 * of waiting at most), spaces its calls to that origin further apart (doubled on a throttle, relaxed on each answer
 * that is not one), and counts it all for the report (results.json `traffic.throttle`). Whether such an answer is a
 * throttle is told by what it does (throttle-answers.ts): one that asks for a long wait, or that does not lift while a
 * control without credentials is answered by the API, is the target's own answer and goes to the check. A check sees a
 * throttle answer never: when the tries are used up, the call is Inconclusive, saying so. Bursts (lib/http/burst/burst.ts): a reply
 * the gateway answered took no part in the race (throttledBurst). The calls sent through a Throttle (the session's
 * client, a burst's replies, a probe on a connection of its own): throttled-calls.ts.
 * The spike arrest of property-gate.ts (the quota's status, the API's error body, a short Retry-After) is the API's
 * answer: the quota checks and the property searches wait it out themselves.
 */
import type { HttpRequest, HttpResponse } from '../../../http/types.ts';
import { Inconclusive, NotRun } from '../../check.ts';
import type { ThrottleStats } from '../../results.ts';
import { seeded } from '../../../data/seed.ts';
import { realWaits, type Waits } from '../../../waits.ts';
import {
  answeredByApi,
  CONTROL_AFTER,
  describeThrottle,
  isThrottle,
  LIFT_MS,
  OriginHolds,
  sleep,
  type Answer,
} from './throttle-answers.ts';

export {
  apiBody,
  asksLongWait,
  CONTROL_AFTER,
  controlOf,
  describeThrottle,
  isGatewayAnswer,
  isThrottle,
  LIFT_MS,
  THROTTLE_RETRY_AFTER_MAX_S,
} from './throttle-answers.ts';

export type { ThrottleStats };

/** tries of one call at most (the first and five more) */
export const MAX_TRIES = 6;
/** waiting of one call at most, all tries together */
export const MAX_WAIT_MS = 10_000;
/** the first wait; each next one doubles it (equal jitter: half of it fixed, half drawn) */
const BASE_MS = 200;
/** a Retry-After a throttle answer asks for is honoured up to this */
const RETRY_AFTER_CAP_MS = 5_000;
/**
 * the spacing of calls to a throttled origin: doubled on a throttle of a call that started under the spacing of the
 * moment (those in flight before it was widened are one signal: TCP halves once a round trip), never past
 * SPACING_MAX_MS; narrowed by a sixteenth on each answer that is no throttle
 */
const SPACING_FIRST_MS = 2;
const SPACING_MAX_MS = 100;

/**
 * a call a gateway kept throttling (its tries used up), or a check out of time while the run was throttled: no
 * verdict on any rule, nor on a prerequisite (lib/engine/session/prerequisites.ts: inconclusive, not failed)
 */
export class Throttled extends Inconclusive {}

/** the spacing of the calls to one origin, once it throttled */
interface Spacing {
  gapMs: number;
  nextAt: number;
  raisedAt: number;
}

export interface ThrottledSend {
  /** the URL (its origin is spaced) */
  url: string;
  /** one try of the call */
  send: () => Promise<HttpResponse>;
  /** the check's stop (its time limit, the run deadline) */
  stop?: AbortSignal;
  /** a note in the check's evidence */
  note?: (text: string) => void;
  /** what the call is, for the notes ("validate POST") */
  label?: string;
  /** marks a throttled try in the evidence (its recorded exchange) */
  mark?: (res: HttpResponse, text: string) => void;
  /** the control of the call (controlOf): whether the origin throttles, once the call was refused CONTROL_AFTER times */
  control?: () => Promise<HttpResponse>;
  /** a try sent again (the target may count it: the quota ledger does), or the control sent */
  sent?: (kind: 'resend' | 'control') => void;
}

/** A session's handling of throttling gateways: one per session (its stats are the profile run's). */
export class Throttle {
  private readonly draw: () => number;
  private readonly spacing = new Map<string, Spacing>();
  /** per origin: a hold while a refusal is told apart (tell), and the calls in flight */
  private readonly holds = new OriginHolds();
  readonly stats: ThrottleStats = { throttled: 0, retries: 0, waitedMs: 0, gaveUp: 0, statuses: {} };
  /**
   * a call the throttle sent past the counting client (a try sent again, a control): counted by the session
   * (session.ts: a resend in the quota ledger, as the target may count it; a control in the spend only)
   */
  onSent?: (req: HttpRequest, kind: 'resend' | 'control') => void;

  constructor(
    private readonly quotaStatus: number,
    seed: number,
    /** the time of the back-off and the spacing (real time; a test's own, RunOptions.waits) */
    private readonly waits: Waits = realWaits,
  ) {
    this.draw = seeded(seed ^ 0x5eed);
  }

  /** an answer the gateway gave, counted (`k` = -1: one counted that was not the gateway's after all) */
  private count(a: Answer, k = 1): void {
    this.stats.throttled += k;
    this.stats.statuses[String(a.status)] = (this.stats.statuses[String(a.status)] ?? 0) + k;
    if (this.stats.statuses[String(a.status)] === 0) delete this.stats.statuses[String(a.status)];
  }

  /** the wait before try `n` + 1 (n ≥ 1): BASE_MS doubled each time, half of it drawn; a Retry-After honoured */
  private backoff(n: number, a: Answer): number {
    const step = BASE_MS * 2 ** (n - 1);
    const jittered = Math.round(step / 2 + (step / 2) * this.draw());
    const ra = Number(a.headers['retry-after']);
    return Number.isFinite(ra) && ra > 0 ? Math.max(jittered, Math.min(ra * 1000, RETRY_AFTER_CAP_MS)) : jittered;
  }

  private originOf(url: string): string {
    try {
      return new URL(url).origin;
    } catch {
      return url;
    }
  }

  /** the call's turn at a throttled origin: calls start gapMs apart; at once at one that never throttled */
  private async turn(origin: string, stop?: AbortSignal): Promise<void> {
    // an origin held while a refusal is told apart (tell): no call starts there, nor one whose spacing ended in it
    for (;;) {
      await this.holds.free(origin, stop);
      const s = this.spacing.get(origin);
      if (!s || s.gapMs <= 0) return;
      const now = this.waits.now();
      const at = Math.max(now, s.nextAt);
      s.nextAt = at + s.gapMs;
      await sleep(at - now, stop, this.waits);
      if (!this.holds.held(origin)) return;
    }
  }

  /**
   * a throttle answer from `origin` to a call started at `startedAt`: its calls spaced twice as far apart, unless the
   * call started before the spacing was last widened (one wave of calls is one signal)
   */
  private widen(origin: string, startedAt: number): void {
    const now = this.waits.now();
    const s = this.spacing.get(origin) ?? { gapMs: 0, nextAt: now, raisedAt: -Infinity };
    if (startedAt < s.raisedAt) return;
    s.gapMs = Math.min(SPACING_MAX_MS, Math.max(SPACING_FIRST_MS, s.gapMs * 2));
    s.raisedAt = now;
    this.spacing.set(origin, s);
    this.stats.spacingMs = Math.max(this.stats.spacingMs ?? 0, s.gapMs);
  }

  /** an answer that was no throttle: the spacing relaxes a little (additive-increase of the rate, as TCP) */
  private relax(origin: string): void {
    const s = this.spacing.get(origin);
    if (!s || s.gapMs <= 0) return;
    s.gapMs = s.gapMs < 0.5 ? 0 : s.gapMs * (1 - 1 / 16);
  }

  /**
   * a burst's reply a gateway throttled, counted; the spacing of the calls is not widened for it (a burst is sent at
   * once on purpose: it says nothing of the rate the calls may keep)
   */
  throttledInBurst(a: Answer): void {
    this.count(a);
    this.stats.burstReplies = (this.stats.burstReplies ?? 0) + 1;
  }

  /** resolves once the origin of `url` is not held (Throttle.send tells a refusal apart there): a burst's turn */
  async free(url: string, stop?: AbortSignal): Promise<void> {
    await this.holds.free(this.originOf(url), stop);
  }

  /** whether an answer is a throttle (the session's quota status) */
  is(a: Answer): boolean {
    return isThrottle(a, this.quotaStatus);
  }

  /**
   * sends the call, again after a wait while a gateway throttles it; the answer is never a throttle: when the tries
   * (MAX_TRIES) or the waiting (MAX_WAIT_MS) are used up, Inconclusive
   */
  async send(o: ThrottledSend): Promise<HttpResponse> {
    const origin = this.originOf(o.url);
    const started = this.waits.now();
    let waited = 0;
    let last: Answer | undefined;
    /** this call's answers counted as a gateway's (given back when they prove the target's) */
    const counted: Answer[] = [];
    for (let n = 1; ; n++) {
      await this.turn(origin, o.stop);
      if (n > 1) o.sent?.('resend');
      const sentAt = this.waits.now();
      const res = await this.holds.tracked(origin, o.send);
      if (!this.is(res)) return this.lifted(o, origin, res, last, n, waited);
      last = res;
      this.count(res);
      counted.push(res);
      this.widen(origin, sentAt);
      const wait = this.backoff(n, res);
      const spent = n >= MAX_TRIES || waited + wait > MAX_WAIT_MS;
      o.mark?.(
        res,
        spent ? 'throttled by a gateway: tries used up' : `throttled by a gateway: sent again after ${wait} ms`,
      );
      if (spent) throw this.gaveUp(n, started, `${o.label ?? o.url}: ${describeThrottle(res)}`);
      waited += wait;
      if (n !== CONTROL_AFTER || !o.control) {
        await this.wait(wait, o.stop);
        continue;
      }
      // refused CONTROL_AFTER times: does the origin throttle? (told by what it does, not by the body)
      const told = await this.tell(o, origin, wait);
      waited += told.waited;
      if (!told.answer) continue; // the control was held back too: a gateway throttles, the back-off goes on
      n++;
      if (!this.is(told.answer)) return this.lifted(o, origin, told.answer, last, n, waited);
      // refused again after the API answered the control: the target's answer to this call, no throttle
      for (const a of counted) this.count(a, -1);
      o.note?.(
        `${o.label ?? 'a call'}: ${describeThrottle(told.answer)} ${n} times over ${Math.round(waited)} ms of waiting, while a control without credentials was answered by the API (HTTP ${told.control!.status}): not a gateway's throttle (it would lift), the target's answer`,
      );
      o.mark?.(told.answer, "the target's answer: no throttle (a control was answered by the API)");
      return told.answer;
    }
  }

  /** an answer that is no throttle, after `n` - 1 tries that were: the spacing relaxes, a note says so */
  private lifted(
    o: ThrottledSend,
    origin: string,
    res: HttpResponse,
    last: Answer | undefined,
    n: number,
    waited: number,
  ): HttpResponse {
    this.relax(origin);
    if (last)
      o.note?.(
        `${o.label ?? 'a call'}: throttled by a gateway ${n - 1} times (${describeThrottle(last)}); answered at try ${n} after ${Math.round(waited)} ms of waiting`,
      );
    return res;
  }

  /**
   * whether the origin throttles a call it refused CONTROL_AFTER times: with the origin held (no other call of the
   * session starts, those in flight end first), after the back-off's wait, the control (controlOf); when the API
   * answers it, the call once more after LIFT_MS at least (a gateway's throttle lifts by then: no call took its
   * place). The answer of that try, or none when the control was held back too (a gateway throttles the origin).
   */
  private async tell(
    o: ThrottledSend,
    origin: string,
    wait: number,
  ): Promise<{ waited: number; control?: HttpResponse; answer?: HttpResponse }> {
    const release = await this.holds.hold(origin, o.stop, MAX_WAIT_MS);
    try {
      await this.wait(wait, o.stop);
      o.sent?.('control');
      const control = await this.controlled(o);
      if (!control) return { waited: 0 };
      const after = Math.max(wait, LIFT_MS);
      await this.wait(after, o.stop);
      o.sent?.('resend');
      return { waited: after, control, answer: await this.holds.tracked(origin, o.send) };
    } finally {
      release();
    }
  }

  /** the control's answer (ThrottledSend.control) when the API wrote it, else undefined */
  private async controlled(o: ThrottledSend): Promise<HttpResponse | undefined> {
    try {
      const c = await o.control!();
      return answeredByApi(c, this.quotaStatus) ? c : undefined;
    } catch (e) {
      if (e instanceof NotRun) throw e;
      // no answer (a transport error): nothing shown of the origin
      return undefined;
    }
  }

  /** the wait before try `n` + 1 of a call (or a burst) a gateway throttled with `a`; undefined when the tries are used up */
  waitBefore(n: number, a: Answer, waitedMs: number): number | undefined {
    const wait = this.backoff(n, a);
    return n >= MAX_TRIES || waitedMs + wait > MAX_WAIT_MS ? undefined : wait;
  }

  /** now on the throttle's clock (the `started` of gaveUp) */
  now(): number {
    return this.waits.now();
  }

  /** waits before a try again, counted */
  async wait(ms: number, stop?: AbortSignal): Promise<void> {
    this.stats.retries++;
    this.stats.waitedMs += ms;
    await sleep(ms, stop, this.waits);
  }

  /** the tries of a call (or a burst) are used up: counted, and the check's Inconclusive */
  gaveUp(tries: number, started: number, what: string): Throttled {
    this.stats.gaveUp++;
    const s = ((this.waits.now() - started) / 1000).toFixed(1);
    return new Throttled(
      `throttled by the gateway: ${tries} tries over ${s} s (${what}); not the contract's quota answer, and no answer of the rule`,
    );
  }

  /** the stats for results.json (undefined when nothing was throttled) */
  summary(): ThrottleStats | undefined {
    if (this.stats.throttled === 0) return undefined;
    return {
      ...this.stats,
      waitedMs: Math.round(this.stats.waitedMs),
      ...(this.stats.spacingMs !== undefined ? { spacingMs: Math.round(this.stats.spacingMs) } : {}),
    };
  }
}
