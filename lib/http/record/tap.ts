/**
 * The wire tap of a run's HAR (certify `--har`): every request the harness sends over HTTP — each attempt of a
 * call, each request of a burst, token and clock calls that no check's evidence keeps — with its body as sent and
 * the answer as received, so that the HAR holds what a proxy on the way sees. The HTTP client (client.ts) and the
 * bursts (burst/burst.ts) tap each exchange when it ends; the HAR writer (lib/report/har-wire.ts) redacts at the end,
 * with the redactor of the session that sent it (every token it learnt by then).
 *
 * A value, not process state: certify makes one for --har (lib/cli/certify-load.ts) and hands it down in the run's
 * transport (lib/http/transport.ts: HarnessRuntime.transport, the session's HTTP client and bursts).
 */
import { innerHeadersOf, sealedPayloadOf } from '../../jose/sent.ts';
import type { RecordedExchange, Redactor } from '../types.ts';

/** one request and its answer as they crossed the wire, and the exchange recorded for the evidence */
export interface TappedExchange {
  /** the exchange as recorded (redacted; its caller may add the opened payload to it later) */
  recorded: RecordedExchange;
  request: {
    url: string;
    headers: Record<string, string>;
    body?: string;
    bytes: number;
    /** a request the harness sealed: the header(s) of the JWS inside its JWE (lib/jose/sent.ts) */
    inner?: Record<string, unknown>[];
    /** a request the harness sealed: the payload of that JWS (text, not yet redacted) */
    payload?: string;
  };
  response?: { status: number; headers: Record<string, string>; body: string; bytes: number };
  /** the redactor of the session that sent it */
  redactor: Redactor;
}

export interface WireTap {
  tap(x: TappedExchange): void;
  /** what was tapped, in the order the exchanges ended */
  readonly exchanges: readonly TappedExchange[];
}

/** a tap that keeps every exchange it is given, in order */
export function createWireTap(): WireTap {
  const list: TappedExchange[] = [];
  return {
    tap: (x) => void list.push(x),
    get exchanges() {
      return list;
    },
  };
}

/** taps one exchange into `tap` when there is one (the body text and its size in bytes as on the wire) */
export function tapExchange(
  tap: WireTap | undefined,
  recorded: RecordedExchange,
  redactor: Redactor,
  request: { url: string; headers: Record<string, string>; body?: string | Buffer; sealed?: unknown },
  response?: { status: number; headers: Record<string, string>; text: string },
): void {
  if (!tap) return;
  const body = request.body;
  const inner = request.sealed === undefined ? undefined : innerHeadersOf(request.sealed);
  const payload = request.sealed === undefined ? undefined : sealedPayloadOf(request.sealed);
  tap.tap({
    recorded,
    redactor,
    request: {
      url: request.url,
      headers: { ...request.headers },
      ...(body !== undefined ? { body: body.toString() } : {}),
      bytes: body === undefined ? 0 : Buffer.byteLength(body),
      ...(inner ? { inner } : {}),
      ...(payload !== undefined ? { payload } : {}),
    },
    ...(response
      ? {
          response: {
            status: response.status,
            headers: { ...response.headers },
            body: response.text,
            bytes: Buffer.byteLength(response.text),
          },
        }
      : {}),
  });
}
