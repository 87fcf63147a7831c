/**
 * The limits of one call (connect, first byte, whole response, body size: the profile's run budgets), and a transport
 * error said as the limit it hit, so that a verdict names it ("no response header within 10 s").
 */

/** the limits in force for one request, so a hit one is named in the error */
export interface Budgets {
  connectMs: number;
  firstByteMs: number;
  responseMs: number;
  maxBytes: number;
}

/** undici, Node and OpenSSL codes pass through; an overall deadline is ETIMEDOUT */
export function errorCode(e: unknown): string {
  const err = e as { code?: unknown; name?: unknown; cause?: { code?: unknown } };
  if (err?.name === 'TimeoutError') return 'ETIMEDOUT';
  if (typeof err?.code === 'string') return err.code;
  if (typeof err?.cause?.code === 'string') return err.cause.code;
  if (err?.name === 'AbortError') return 'ABORTED';
  return 'UNKNOWN';
}

const seconds = (ms: number): string => `${ms / 1000} s`;
const mib = (n: number): string => (n % (1024 * 1024) === 0 ? `${n / (1024 * 1024)} MiB` : `${n} bytes`);

/** the limit a transport error hit, in words ("no response header within 10 s"); undefined when none */
export function budgetHit(code: string, b: Budgets, progress: { headers: boolean; bytes: number }): string | undefined {
  switch (code) {
    case 'UND_ERR_CONNECT_TIMEOUT':
      return `no connection (TCP + TLS) within ${seconds(b.connectMs)}`;
    case 'UND_ERR_HEADERS_TIMEOUT':
      return `no response header within ${seconds(Math.min(b.firstByteMs, b.responseMs))}`;
    case 'UND_ERR_BODY_TIMEOUT':
      return `response body stalled: no data for ${seconds(b.firstByteMs)} after ${progress.bytes} bytes`;
    case 'ETIMEDOUT':
      return progress.headers
        ? `no complete response within ${seconds(b.responseMs)}: stopped reading after ${progress.bytes} bytes`
        : `no response header within ${seconds(b.responseMs)}`;
    case 'RESPONSE_TOO_LARGE':
      return `body over ${mib(b.maxBytes)}: stopped reading`;
    case 'UND_ERR_HEADERS_OVERFLOW':
      return 'response headers over the 16 KiB the harness reads: stopped reading';
    default:
      return undefined;
  }
}
