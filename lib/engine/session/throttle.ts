/**
 * Gateways that throttle (docs/design.md "Gateways that throttle"; docs/contract.md "Quotas"). A gateway in front of a bank
 * (nginx `limit_req`, AWS API Gateway, ...) answers a client that calls too fast with 429 or 503 before the bank sees
 * the call: no Retry-After as a rule, and a page of its own (HTML, or JSON of no shape the API uses). That is not
 * the contract's quota answer (the quota's status with the API's error body) and not any rule's answer: the session
 * sends such a call again after a wait (exponential back-off with a seeded jitter, MAX_TRIES tries and MAX_WAIT_MS
 * of waiting at most), spaces its calls to that origin further apart (doubled on a throttle, relaxed on each answer
 * that is not one), and counts it all for the report (results.json `traffic.throttle`). A check sees a throttle
 * answer never: when the tries are spent, the call is Inconclusive, saying so. Bursts (lib/http/burst/burst.ts): a reply
 * the gateway answered took no part in the race (throttledBurst).
 * The spike arrest of property-gate.ts (the quota's status, the API's error body, a short Retry-After) is the API's
 * answer: the quota checks and the property searches wait it out themselves.
 */
import { setMaxListeners } from 'node:events';
import type { BurstResult } from '../../http/burst/burst-types.ts';
import { exchangeOf } from '../../http/record/exchanges.ts';
import type { HttpClient, HttpRequest, HttpResponse, Recorder } from '../../http/types.ts';
import { Inconclusive, NotRun } from '../check.ts';
import type { ThrottleStats } from '../results.ts';
import { seeded } from '../../data/seed.ts';

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
 * a call a gateway kept throttling (its tries spent), or a check out of time while the run was throttled: no
 * verdict on any rule, nor on a prerequisite (lib/engine/session/prerequisites.ts: inconclusive, not failed)
 */
export class Throttled extends Inconclusive {}

/** what an answer reads of a response (an HttpResponse, or a burst's reply) */
type Answer = Pick<HttpResponse, 'status' | 'headers' | 'text' | 'json'>;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * the body is one the API or its authorization server writes: the contract's error body (status, response_code), an
 * OAuth error (RFC 6749 §5.2), or a sealed document (UAT: a JWE or JWS, compact or JSON). Anything else on a refusal
 * (an HTML page, plain text, no body, `{"message": "Too Many Requests"}`) is a gateway's.
 */
export function apiBody(a: Pick<Answer, 'json'>): boolean {
  const j = a.json;
  if (typeof j === 'string') return /^[\w-]*(?:\.[\w-]*){2,4}$/.test(j);
  if (!isObject(j)) return false;
  if ('status' in j || 'response_code' in j) return true;
  if (typeof j.error === 'string') return true;
  return 'ciphertext' in j || 'payload' in j || 'recipients' in j || 'signatures' in j;
}

/**
 * a gateway's throttle: the quota's status (the profile's contract.quota.status) or 503, with a body the API does not
 * write (apiBody). The quota's answer without its Retry-After is still the API's (QUOTA-01 judges that header).
 */
export function isThrottle(a: Answer, quotaStatus: number): boolean {
  return (a.status === quotaStatus || a.status === 503) && !apiBody(a);
}

/** an answer of a gateway in front of the API, not of the API: a throttle, or a 502/503/504 with a body not the API's */
export function isGatewayAnswer(a: Answer, quotaStatus: number): boolean {
  return isThrottle(a, quotaStatus) || ([502, 503, 504].includes(a.status) && !apiBody(a));
}

/** a short description of a throttle answer, for notes and reasons: "HTTP 429, no Retry-After, text/html" */
export function describeThrottle(a: Answer): string {
  const ra = a.headers['retry-after'];
  const type = (a.headers['content-type'] ?? '').split(';')[0]!.trim();
  return `HTTP ${a.status}, ${ra === undefined ? 'no Retry-After' : `Retry-After ${ra}`}, ${type || 'no content type'}`;
}

/** waits `ms`; a stop ends the wait at once with its reason */
function sleep(ms: number, stop?: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    if (stop?.aborted) return reject(stoppedError(stop));
    const onStop = (): void => {
      clearTimeout(timer);
      reject(stoppedError(stop!));
    };
    const timer = setTimeout(() => {
      stop?.removeEventListener('abort', onStop);
      resolve();
    }, ms);
    // every call of a quota filling may wait at once on its check's stop: no listener limit there
    if (stop) setMaxListeners(0, stop);
    stop?.addEventListener('abort', onStop, { once: true });
  });
}

function stoppedError(stop: AbortSignal): Error {
  const reason: unknown = stop.reason;
  return reason instanceof Error ? reason : new NotRun(`the check was stopped: ${String(reason)}`);
}

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
}

/** A session's handling of throttling gateways: one per session (its stats are the profile run's). */
export class Throttle {
  private readonly draw: () => number;
  private readonly spacing = new Map<string, Spacing>();
  readonly stats: ThrottleStats = { throttled: 0, retries: 0, waitedMs: 0, gaveUp: 0, statuses: {} };

  constructor(
    private readonly quotaStatus: number,
    seed: number,
  ) {
    this.draw = seeded(seed ^ 0x5eed);
  }

  /** an answer the gateway gave, counted */
  private count(a: Answer): void {
    this.stats.throttled++;
    this.stats.statuses[String(a.status)] = (this.stats.statuses[String(a.status)] ?? 0) + 1;
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
    const s = this.spacing.get(origin);
    if (!s || s.gapMs <= 0) return;
    const now = performance.now();
    const at = Math.max(now, s.nextAt);
    s.nextAt = at + s.gapMs;
    await sleep(at - now, stop);
  }

  /**
   * a throttle answer from `origin` to a call started at `startedAt`: its calls spaced twice as far apart, unless the
   * call started before the spacing was last widened (one wave of calls is one signal)
   */
  private widen(origin: string, startedAt: number): void {
    const now = performance.now();
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
    const started = performance.now();
    let waited = 0;
    let last: Answer | undefined;
    for (let n = 1; ; n++) {
      await this.turn(origin, o.stop);
      const sentAt = performance.now();
      const res = await o.send();
      if (!this.is(res)) {
        this.relax(origin);
        if (last)
          o.note?.(
            `${o.label ?? 'a call'}: throttled by a gateway ${n - 1} times (${describeThrottle(last)}); answered at try ${n} after ${Math.round(waited)} ms of waiting`,
          );
        return res;
      }
      last = res;
      this.count(res);
      this.widen(origin, sentAt);
      const wait = this.backoff(n, res);
      const spent = n >= MAX_TRIES || waited + wait > MAX_WAIT_MS;
      o.mark?.(
        res,
        spent ? 'throttled by a gateway: tries spent' : `throttled by a gateway: sent again after ${wait} ms`,
      );
      if (spent) throw this.gaveUp(n, started, `${o.label ?? o.url}: ${describeThrottle(res)}`);
      waited += wait;
      await this.wait(wait, o.stop);
    }
  }

  /** the wait before try `n` + 1 of a call (or a burst) a gateway throttled with `a`; undefined when spent */
  waitBefore(n: number, a: Answer, waitedMs: number): number | undefined {
    const wait = this.backoff(n, a);
    return n >= MAX_TRIES || waitedMs + wait > MAX_WAIT_MS ? undefined : wait;
  }

  /** waits before a try again, counted */
  async wait(ms: number, stop?: AbortSignal): Promise<void> {
    this.stats.retries++;
    this.stats.waitedMs += ms;
    await sleep(ms, stop);
  }

  /** the tries of a call (or a burst) are spent: counted, and the check's Inconclusive */
  gaveUp(tries: number, started: number, what: string): Throttled {
    this.stats.gaveUp++;
    const s = ((performance.now() - started) / 1000).toFixed(1);
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

/** what a call of a check asks of the throttling client: its stop and its notes (set by the session per request) */
export interface CallScope {
  stop?: AbortSignal;
  note?: (text: string) => void;
}
const scopes = new WeakMap<HttpRequest, CallScope>();
const throttles = new WeakMap<HttpClient, Throttle>();

/** the stop and notes of `req` for the throttling client below (session.ts sets them on the request it sends) */
export function scoped(req: HttpRequest, scope: CallScope): HttpRequest {
  scopes.set(req, scope);
  return req;
}

/** the session's throttle of a client (bindThrottle) */
export function throttleOf(http: HttpClient): Throttle | undefined {
  return throttles.get(http);
}

/** the throttle of a session's client (the one the checks' calls and bursts go through) */
export function bindThrottle(http: HttpClient, throttle: Throttle): HttpClient {
  throttles.set(http, throttle);
  return http;
}

/**
 * the client, each call sent again while a gateway throttles it (Throttle.send). It goes under spend.ts `counting`:
 * a call is counted once by operation and by the quota budget (the gateway's refusals never reached the bank), its
 * throttled tries in `traffic.throttle`. Every try is recorded, a throttled one marked in its label.
 */
export function throttling(http: HttpClient, throttle: Throttle): HttpClient {
  const client: HttpClient = {
    ...http,
    send: (req: HttpRequest, recorder?: Recorder): Promise<HttpResponse> => {
      const scope = scopes.get(req) ?? {};
      return throttle.send({
        url: req.url,
        send: () => http.send(req, recorder),
        ...(scope.stop ? { stop: scope.stop } : {}),
        ...(scope.note ? { note: scope.note } : {}),
        label: req.label ?? req.method,
        mark: (res, text) => {
          const ex = exchangeOf(res);
          if (ex) ex.label = `${ex.label ?? req.method} (${text})`;
        },
      });
    },
  };
  return client;
}

/**
 * a burst whose replies a gateway answered in part: those took no part in the race (their requests never reached
 * the bank), so they are neither answers nor ready (lib/http/burst/burst-types.ts: a reply without a response is judged
 * on nothing; `ready` counts those that took part)
 */
export function withoutThrottled(r: BurstResult, throttled: (i: number) => boolean): BurstResult {
  const replies = r.replies.map((x, i) =>
    throttled(i)
      ? { ...x, response: undefined, ready: false, error: 'THROTTLED (answered by a gateway, not the bank)' }
      : x,
  );
  return { ...r, replies, ready: replies.filter((x) => x.ready).length };
}

/**
 * a call the harness makes on a connection of its own (a TLS probe, suites/tls), sent again while a gateway throttles
 * it, as Throttle.send does for the session's calls (its own back-off; inconclusive when the tries are spent).
 * `answerOf` reads the HTTP answer of a result (undefined: none, e.g. a handshake refused).
 */
export async function probeWhileThrottled<T>(
  run: () => Promise<T>,
  answerOf: (t: T) => { status: number; body?: string } | undefined,
  o: { quotaStatus: number; what: string; note?: (text: string) => void; seed?: number },
): Promise<T> {
  const t = new Throttle(o.quotaStatus, o.seed ?? 0);
  const started = performance.now();
  let waited = 0;
  for (let n = 1; ; n++) {
    const r = await run();
    const a = answerOf(r);
    const text = a?.body ?? '';
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    const answer = a ? { status: a.status, headers: {}, text, json } : undefined;
    if (!answer || !t.is(answer)) return r;
    const wait = t.waitBefore(n, answer, waited);
    if (wait === undefined) throw t.gaveUp(n, started, `${o.what}: HTTP ${answer.status}, not the API's body`);
    o.note?.(
      `${o.what}: throttled by a gateway (HTTP ${answer.status}, not the API's body): probed again after ${wait} ms`,
    );
    waited += wait;
    await t.wait(wait);
  }
}
