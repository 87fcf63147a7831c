/**
 * The calls a session's Throttle (throttle.ts) sends again while a gateway throttles them: the session's throttling
 * client (each call with its check's stop and notes, `scoped`), a burst's replies the gateway answered (no part of the
 * race), and a probe the harness makes on a connection of its own (a TLS probe).
 */
import type { BurstResult } from '../../../http/burst/burst-types.ts';
import { exchangeOf } from '../../../http/record/exchanges.ts';
import type { HttpClient, HttpRequest, HttpResponse, Recorder } from '../../../http/types.ts';
import { Throttle } from './throttle.ts';
import { controlOf } from './throttle-answers.ts';
import type { Waits } from '../../../waits.ts';

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
 * a call is counted there once; each try sent again is counted by the session too (Throttle.onSent: in the spend and
 * the quota ledger, since the target may have counted a refused one), its throttled tries in `traffic.throttle`.
 * Every try is recorded (the control too), a throttled one marked in its label.
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
        control: () => http.send(controlOf(req), recorder),
        sent: (kind) => throttle.onSent?.(kind === 'resend' ? req : controlOf(req), kind),
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
      ? {
          ...x,
          response: undefined,
          ready: false,
          throttled: true as const,
          error: 'THROTTLED (answered by a gateway, not the bank)',
        }
      : x,
  );
  return { ...r, replies, ready: replies.filter((x) => x.ready).length };
}

/**
 * a call the harness makes on a connection of its own (a TLS probe, suites/tls), sent again while a gateway throttles
 * it, as Throttle.send does for the session's calls (its own back-off; inconclusive when the tries are used up).
 * `answerOf` reads the HTTP answer of a result (undefined: none, e.g. a handshake refused).
 */
export async function probeWhileThrottled<T>(
  run: () => Promise<T>,
  answerOf: (t: T) => { status: number; body?: string } | undefined,
  o: { quotaStatus: number; what: string; note?: (text: string) => void; seed?: number; waits?: Waits },
): Promise<T> {
  const t = new Throttle(o.quotaStatus, o.seed ?? 0, o.waits);
  const started = t.now();
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
