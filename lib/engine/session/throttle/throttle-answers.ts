/**
 * What an answer to a call is, a gateway's throttle or the target's own (throttle.ts sends the calls):
 * a 429 or 503 without the API's body may be a throttle; it is one only by what it does. A throttle asks for no long
 * wait (a Retry-After past THROTTLE_RETRY_AFTER_MAX_S is the target's: a quota's, a maintenance's) and lifts after a
 * short one; a refusal that does not, while a control without credentials (controlOf) to the same origin is answered
 * by the API, is the target's answer to that call (its quota refusal without Retry-After, a crash's page). While a
 * refusal is told apart its origin is held (OriginHolds): no other call of the session starts there, so that none
 * takes the place a gateway would give back.
 */
import { setMaxListeners } from 'node:events';
import type { HttpRequest, HttpResponse } from '../../../http/types.ts';
import { NotRun } from '../../check.ts';
import { realWaits, type Waits } from '../../../waits.ts';

/** what an answer reads of a response (an HttpResponse, or a burst's reply) */
export type Answer = Pick<HttpResponse, 'status' | 'headers' | 'text' | 'json'>;

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
 * a Retry-After that asks for a longer wait than this (seconds) is no throttle's: a throttle lifts after a short wait,
 * a quota (or a service down for maintenance) at the end of its window; the answer is the target's
 */
export const THROTTLE_RETRY_AFTER_MAX_S = 60;

/** the answer asks for a wait longer than a throttle asks (Retry-After delay-seconds, or an HTTP-date that far ahead) */
export function asksLongWait(a: Pick<Answer, 'headers'>): boolean {
  const ra = a.headers['retry-after']?.trim();
  if (ra === undefined || ra === '') return false;
  if (/^\d+$/.test(ra)) return Number(ra) > THROTTLE_RETRY_AFTER_MAX_S;
  const at = Date.parse(ra);
  // an HTTP-date read against the answer's own Date (the target's clock), else the harness's
  const date = a.headers.date !== undefined ? Date.parse(a.headers.date) : Number.NaN;
  const now = Number.isNaN(date) ? Date.now() : date;
  return !Number.isNaN(at) && (at - now) / 1000 > THROTTLE_RETRY_AFTER_MAX_S;
}

/**
 * what may be a gateway's throttle: the quota's status (the profile's contract.quota.status) or 503, with a body the
 * API does not write (apiBody), asking for no long wait (asksLongWait: a refusal for the rest of the hour is the
 * target's). The quota's answer without its Retry-After is still the API's (QUOTA-01 judges that header). Whether it
 * is one is told by what it does (Throttle.send): a throttle lifts after a short wait; an answer that does not, while
 * a control without credentials to the same origin is answered by the API, is the target's answer to the call.
 */
export function isThrottle(a: Answer, quotaStatus: number): boolean {
  return (a.status === quotaStatus || a.status === 503) && !apiBody(a) && !asksLongWait(a);
}

/**
 * refusals of one call in a row after which the origin is asked whether it throttles: a control without credentials
 * (controlOf), which the API answers (401) when no gateway holds the calls back
 */
export const CONTROL_AFTER = 3;
/** the wait before the try after a control the API answered: a gateway's throttle of a call a second lifts by then */
export const LIFT_MS = 1_000;

/** headers that make a call the client's: left out of the control */
const CREDENTIALS = new Set([
  'authorization',
  'x-gateway-client-id',
  'cookie',
  'dpop',
  'content-type',
  'content-length',
]);

/**
 * the control of a call a throttle-like answer keeps refusing: the same method and URL over the same connection
 * identity (mutual TLS), without credentials or body. A target answers it with its own refusal (401, the API's or the
 * OAuth error body) at once, counted in no quota (the contract counts a call once it passed the API key); a gateway
 * that throttles the origin answers it as it answers the call.
 */
export function controlOf(req: HttpRequest): HttpRequest {
  const headers = Object.fromEntries(
    Object.entries(req.headers ?? {}).filter(([k]) => !CREDENTIALS.has(k.toLowerCase())),
  );
  const { body: _body, resend: _resend, ...rest } = req;
  return {
    ...rest,
    headers,
    label: `${req.label ?? req.method} (control without credentials: is the origin throttled?)`,
  };
}

/** the control's answer was written by the API (its error body): no gateway held it back */
export function answeredByApi(a: Answer, quotaStatus: number): boolean {
  return apiBody(a) && !isGatewayAnswer(a, quotaStatus);
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

/** waits `ms` on `waits` (real time by default); a stop ends the wait at once with its reason */
export function sleep(ms: number, stop?: AbortSignal, waits: Waits = realWaits): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return waits.sleep(ms, stop).catch((e: unknown) => {
    if (stop?.aborted) throw stoppedError(stop);
    throw e instanceof Error ? e : new Error(String(e));
  });
}

/** `p`, or the stop's reason as soon as it comes (no timer left behind) */
function stoppable(p: Promise<void>, stop?: AbortSignal): Promise<void> {
  if (!stop) return p;
  if (stop.aborted) return Promise.reject(stoppedError(stop));
  return new Promise((resolve, reject) => {
    const onStop = (): void => reject(stoppedError(stop));
    setMaxListeners(0, stop);
    stop.addEventListener('abort', onStop, { once: true });
    p.then(
      () => {
        stop.removeEventListener('abort', onStop);
        resolve();
      },
      (e: unknown) => {
        stop.removeEventListener('abort', onStop);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

function stoppedError(stop: AbortSignal): Error {
  const reason: unknown = stop.reason;
  return reason instanceof Error ? reason : new NotRun(`the check was stopped: ${String(reason)}`);
}

/** per origin: a hold while a refusal is told apart (Throttle.send), and the calls in flight there */
export class OriginHolds {
  private readonly holds = new Map<string, Promise<void>>();
  private readonly flying = new Map<string, number>();
  private readonly landed = new Map<string, (() => void)[]>();

  /** whether `origin` is held now */
  held(origin: string): boolean {
    return this.holds.has(origin);
  }

  /** resolves once `origin` is not held (at once when it is not) */
  async free(origin: string, stop?: AbortSignal): Promise<void> {
    for (let h = this.holds.get(origin); h; h = this.holds.get(origin)) await stoppable(h, stop);
  }

  /** one try of a call, counted in flight at its origin (a hold waits for those in flight: tell) */
  async tracked(origin: string, send: () => Promise<HttpResponse>): Promise<HttpResponse> {
    this.flying.set(origin, (this.flying.get(origin) ?? 0) + 1);
    try {
      return await send();
    } finally {
      const left = (this.flying.get(origin) ?? 1) - 1;
      this.flying.set(origin, left);
      if (left === 0) {
        for (const f of this.landed.get(origin) ?? []) f();
        this.landed.delete(origin);
      }
    }
  }

  /** holds `origin` (after any other hold, and once the calls in flight ended, `maxWaitMs` at most); its release */
  async hold(origin: string, stop: AbortSignal | undefined, maxWaitMs: number): Promise<() => void> {
    await this.free(origin, stop);
    let release!: () => void;
    this.holds.set(origin, new Promise<void>((r) => (release = r)));
    const free = (): void => {
      this.holds.delete(origin);
      release();
    };
    try {
      if ((this.flying.get(origin) ?? 0) > 0) {
        let timer: NodeJS.Timeout | undefined;
        const landed = new Promise<void>((r) => {
          this.landed.set(origin, [...(this.landed.get(origin) ?? []), r]);
          timer = setTimeout(r, maxWaitMs);
        });
        await stoppable(landed, stop).finally(() => clearTimeout(timer));
      }
      return free;
    } catch (e) {
      free();
      throw e;
    }
  }
}
