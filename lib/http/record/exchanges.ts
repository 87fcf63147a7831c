/**
 * The recorded exchange of each response the HTTP client (client.ts) returned, so that a caller can add the opened
 * JOSE payload to it. A leaf of its own: the suites and the OAuth clients reach it without loading the client and
 * undici (`certify --list` sends nothing and loads neither).
 */
import type { HttpResponse, RecordedExchange } from '../types.ts';

const exchanges = new WeakMap<HttpResponse, RecordedExchange>();

/** the exchange recorded for `res` (set by the client that sent it) */
export function exchangeOf(res: HttpResponse): RecordedExchange | undefined {
  return exchanges.get(res);
}

/** remembers the exchange recorded for a response (client.ts) */
export function rememberExchange(res: HttpResponse, exchange: RecordedExchange): void {
  exchanges.set(res, exchange);
}
