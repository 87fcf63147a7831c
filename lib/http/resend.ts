/**
 * When a call is sent again: through the target's in-flight window (connections/window.ts), a call that timed out or
 * was turned away among others goes again once the in-flight window lets it, when that is safe (an idempotent method, or an
 * effect its caller checks); one written on a kept connection the target was closing goes again at once.
 */
import { rememberExchange } from './record/exchanges.ts';
import type { Dropped } from './connections/socket-use.ts';
import type { InFlightWindow } from './connections/window.ts';
import { TransportError, type HttpRequest, type HttpResponse, type RecordedExchange, type Recorder } from './types.ts';

/** methods safe to send again after a timeout: idempotent by RFC 9110 §9.2.2 (a PUT of a transfer is, by the contract) */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);
/** attempts of one call at most (the in-flight window is cut at each timeout: 1024 halves to one within 11) */
const MAX_ATTEMPTS = 12;
/**
 * attempts at most of a call turned away among others (connect refused or reset, connection reset before its answer):
 * sent once more with the in-flight window cut; turned away again, it is the target's answer to this call (a refusal
 * by reset)
 */
const TURNED_AWAY_ATTEMPTS = 2;

/**
 * a call that may be sent again after a timeout: an idempotent method, or a call whose effect its caller checks
 * (`resend: 'checked'`, e.g. a quota filling call: the quota check counts a call that may have been counted twice)
 */
function resendable(req: HttpRequest): boolean {
  return IDEMPOTENT.has(req.method.toUpperCase()) || req.resend === 'checked';
}

/** no connection, or no first byte, within the budget: what a full accept queue looks like from here */
export function isTimeout(code: string, progress: { headers: boolean }): boolean {
  return (
    code === 'UND_ERR_CONNECT_TIMEOUT' ||
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    (code === 'ETIMEDOUT' && !progress.headers)
  );
}

export type Attempt =
  | {
      response: HttpResponse;
      exchange: RecordedExchange;
      firstByteMs: number;
      /** from the request's write to its first byte (answer.ts), when known */
      answerMs?: number;
      closed: boolean | undefined;
    }
  | { code: string; message: string; exchange: RecordedExchange; timedOut: boolean; dropped?: Dropped };

/**
 * Sends through the target's in-flight window (window.ts). A call that times out while the harness had other calls
 * in flight to the target is sent again once the in-flight window (cut by the timeout) lets it, when that is safe
 * (resendable); so is, once, a call the target turned away among others (connect refused or reset, connection reset
 * before the answer). A call written on a connection kept from an earlier answer that the target closed unanswered
 * (the race of keep-alive and close, socket-use.ts) is sent again at once when safe, and teaches the in-flight window
 * nothing. Only a call that gets no answer when sent alone, or that may not be sent again, is a transport error.
 */
export async function sendAdapting(
  window: InFlightWindow,
  req: HttpRequest,
  attempt: (req: HttpRequest) => Promise<Attempt>,
  recorder?: Recorder,
): Promise<HttpResponse> {
  let turnedAway = 0;
  for (let n = 1; ; n++) {
    const slot = await window.acquire(1, req.first ? { first: true } : {});
    const a = await attempt(req).catch((e: unknown) => {
      slot.done([]);
      throw e;
    });
    if ('response' in a) {
      slot.done([
        {
          firstByteMs: a.firstByteMs,
          ...(a.answerMs !== undefined ? { answerMs: a.answerMs } : {}),
          ...(a.closed !== undefined ? { closed: a.closed } : {}),
        },
      ]);
      recorder?.record(a.exchange);
      rememberExchange(a.response, a.exchange);
      if (n > 1) a.response.resent = n - 1;
      return a.response;
    }
    const signal = a.timedOut || a.dropped === 'connect' || a.dropped === 'new';
    slot.done(a.timedOut ? [{ timedOut: true }] : signal ? [{ reset: true }] : []);
    // no connection: nothing of the request was sent, so any call may be sent again; a call sent and not answered
    // only when that is safe (resendable)
    const safe = a.code === 'UND_ERR_CONNECT_TIMEOUT' || a.dropped === 'connect' || resendable(req);
    // a call turned away among others goes again once the in-flight window (cut) lets it; one written on a kept
    // connection the target was closing goes again at once, alone or not (a call alone that is turned away is simply
    // refused)
    const contended = signal && !slot.alone();
    const raced = a.dropped === 'kept';
    if (a.dropped === 'connect' || a.dropped === 'new') turnedAway++;
    const retry = raced || (contended && (a.timedOut || turnedAway < TURNED_AWAY_ATTEMPTS));
    const again = retry && safe && n < MAX_ATTEMPTS;
    const why =
      !(contended || raced) || again
        ? ''
        : !safe
          ? `; ${raced ? 'the target closed the connection it had kept, before answering: ' : ''}not sent again (a ${req.method} whose effect is not checked)`
          : `; no answer after ${n} attempts`;
    const resent = raced
      ? '; the target closed the connection it had kept from an earlier answer: sent again'
      : `; ${slot.level} calls were in flight: sent again with at most ${window.limit()}`;
    a.exchange.error = `${a.code}: ${a.message}${again ? resent : why}`;
    recorder?.record(a.exchange);
    if (!again) throw new TransportError(`${req.method} ${a.exchange.url}: ${a.code}: ${a.message}${why}`, a.code);
  }
}
