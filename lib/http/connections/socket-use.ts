/**
 * Where a failed call of the harness's undici Agents (client.ts) was when its connection failed: not sent yet (the
 * connect was refused or reset: nothing of it reached the target), sent on a new connection, or sent on a connection
 * kept from an earlier answer. A target may close a kept connection whenever it likes (its keep-alive ended, or it
 * closes after every answer without saying so): a call written on it just as it closes is the race of keep-alive
 * and close, no sign of the target's capacity (window.ts), and an idempotent call is simply sent again (RFC 9110
 * §9.2.2). undici says which connection carried a request on its diagnostics channels (`undici:client:sendHeaders`:
 * the request and its socket; `undici:request:error`: the request and the error its caller receives).
 */
import diagnostics from 'node:diagnostics_channel';

/** where a call was when its connection failed */
export type FailedAt = 'not-sent' | 'new-connection' | 'kept-connection';

/** requests written on each socket so far */
const sends = new WeakMap<object, number>();
/** each request's position on its socket (1: the socket's first request) */
const placeOf = new WeakMap<object, number>();
/** each failure undici gave a caller: where its request was */
const failures = new WeakMap<object, FailedAt>();
let watching = false;

/** starts following undici's requests (once per process; the maps hold nothing alive: weak keys) */
export function watchSocketUse(): void {
  if (watching) return;
  watching = true;
  diagnostics.subscribe('undici:client:sendHeaders', (m) => {
    const { request, socket } = m as { request?: object; socket?: object };
    if (!request || !socket) return;
    const n = (sends.get(socket) ?? 0) + 1;
    sends.set(socket, n);
    placeOf.set(request, n);
  });
  diagnostics.subscribe('undici:request:error', (m) => {
    const { request, error } = m as { request?: object; error?: unknown };
    if (!request || typeof error !== 'object' || error === null) return;
    const place = placeOf.get(request);
    failures.set(error, place === undefined ? 'not-sent' : place > 1 ? 'kept-connection' : 'new-connection');
  });
}

/** where the call that failed with `e` was (undefined: not an error undici reported for a request) */
export function failedAt(e: unknown): FailedAt | undefined {
  return typeof e === 'object' && e !== null ? failures.get(e) : undefined;
}

/** a connection refused, reset or closed by the other side */
const DROPPED = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);

/**
 * a connection the target refused, reset or closed before the call's answer began: `connect` (nothing of the call
 * was sent), `new` (sent on a new connection: both a capacity signal, window.ts), `kept` (sent on a connection kept
 * from an earlier answer, which the target may close whenever it likes: the race of keep-alive and close, no signal)
 */
export type Dropped = 'connect' | 'new' | 'kept';

export function dropped(code: string, e: unknown, progress: { headers: boolean }): Dropped | undefined {
  if (progress.headers || !DROPPED.has(code)) return undefined;
  const at = code === 'ECONNREFUSED' ? 'not-sent' : failedAt(e);
  // a failure undici did not report for a request is taken as sent on a new connection (never sent again unsafely)
  return at === 'not-sent' ? 'connect' : at === 'kept-connection' ? 'kept' : 'new';
}
