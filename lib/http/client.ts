/**
 * The harness's HTTP client, on undici 7.
 *  - one Agent per client identity (lib/http/connections/agents.ts: mutual-TLS certificate, CA, source address), cached by
 *    identity name and a fingerprint of its settings; connects through lib/http/connections/connect.ts (a lost SYN sent again);
 *  - `localAddress` at the Agent's top level (undici overwrites connect.localAddress: docs/design.md, "TLS as Node and
 *    OpenSSL do it");
 *  - server certificate verification always on; one TLS context per identity, and TLS sessions resumed between
 *    connections of one identity to one server (tls-reuse.ts: a negative check never resumes a session another
 *    identity opened);
 *  - never follows redirects (undici `request` does not; no redirect interceptor is installed);
 *  - bounded: connect, headers and body timeouts and an overall deadline; response body capped (budgets.ts: a limit
 *    hit is named in the error);
 *  - every send is recorded (redacted) into the given recorder; a call without a response throws TransportError;
 *  - a call timed out or turned away among others is sent again when safe (resend.ts).
 */
import { proxyGatewayError, type ProxyRoute } from '../tls/tunnel.ts';
import { callOn } from './answer.ts';
import { budgetHit, errorCode, type Budgets } from './budgets.ts';
import type { ConnectBook } from './connections/connect.ts';
import { learnFromHeaders } from './record/redact.ts';
import { recordedBody } from './record/recorder.ts';
import { tapExchange, type WireTap } from './record/tap.ts';
import { summariseJose } from './record/jose-summary.ts';
import { isTimeout, sendAdapting, type Attempt } from './resend.ts';
import type { SocketBook } from './connections/sockets.ts';
import { connections } from './connections/connections.ts';
import { dropped, watchSocketUse } from './connections/socket-use.ts';
import type { InFlightWindow, WindowStats } from './connections/window.ts';
import type { HttpClient, HttpRequest, HttpResponse, Identity, RecordedExchange, Recorder, Redactor } from './types.ts';

export interface HttpClientOptions {
  redactor: Redactor;
  /** per-request deadline unless the request sets timeoutMs (default 10 s); the default of the budgets below */
  defaultTimeoutMs?: number;
  /** TCP connect + TLS handshake budget (default defaultTimeoutMs) */
  connectTimeoutMs?: number;
  /** status line and headers, once sent; also the longest pause between body chunks (default defaultTimeoutMs) */
  firstByteTimeoutMs?: number;
  /** the whole exchange (default defaultTimeoutMs; a request's timeoutMs overrides it) */
  responseTimeoutMs?: number;
  /** largest response body read, bytes (default 4 MiB); larger = TransportError RESPONSE_TOO_LARGE */
  maxResponseBytes?: number;
  /** recorded body text limit, characters (default 4 KiB) */
  recordBodyChars?: number;
  /** --har's wire tap (transport.ts): every exchange handed to it as it ends */
  tap?: WireTap;
  /** --proxy's route (transport.ts): every connection a CONNECT tunnel through it; none connects directly */
  proxy?: ProxyRoute;
}

const DEFAULT_IDENTITY: Identity = { name: 'default' };

export { exchangeOf } from './record/exchanges.ts';

/** serialises the body; an object becomes JSON with content-type application/json unless one is set */
function encodeBody(req: HttpRequest, headers: Record<string, string>): string | Buffer | undefined {
  const b = req.body;
  if (b === undefined) return undefined;
  if (typeof b === 'string' || Buffer.isBuffer(b)) return b;
  if (!Object.keys(headers).some((k) => k.toLowerCase() === 'content-type'))
    headers['content-type'] = 'application/json';
  return JSON.stringify(b);
}

function flattenHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) {
    if (v === undefined) continue;
    out[k.toLowerCase()] = Array.isArray(v) ? v.join(k.toLowerCase() === 'set-cookie' ? '\n' : ', ') : v;
  }
  return out;
}

/** a recorded exchange with its request part (redacted) */
function startExchange(
  req: HttpRequest,
  headers: Record<string, string>,
  body: string | Buffer | undefined,
  redactor: Redactor,
  recordChars: number,
): RecordedExchange {
  const exchange: RecordedExchange = {
    ...(req.label ? { label: req.label } : {}),
    method: req.method,
    url: redactor.redact(req.url),
    startedAt: new Date().toISOString(),
    durationMs: 0,
    request: { headers: redactor.redactHeaders(headers) },
  };
  if (body !== undefined) {
    const text = Buffer.isBuffer(body) ? body.toString('utf8') : body;
    const jose = summariseJose(text);
    exchange.request.body = recordedBody(text, redactor, recordChars, jose);
    if (jose) exchange.jose = { direction: 'request', form: `${jose.kind} ${jose.form}`, headers: jose.headers };
  }
  return exchange;
}

/** the response part of the recorded exchange (redacted) */
function finishExchange(
  exchange: RecordedExchange,
  response: HttpResponse,
  redactor: Redactor,
  recordChars: number,
): void {
  exchange.response = { status: response.status, headers: redactor.redactHeaders(response.headers) };
  if (response.text) {
    const jose = summariseJose(response.text, response.json);
    exchange.response.body = recordedBody(response.text, redactor, recordChars, jose);
    // a sealed response is the more useful header summary; a sealed request's stays when the answer is plain
    if (jose) exchange.jose = { direction: 'response', form: `${jose.kind} ${jose.form}`, headers: jose.headers };
  }
}

/** the budgets of a call: the client's, its own overall deadline (`timeoutMs`) bounding the first byte's too */
function budgetsOf(base: Budgets, timeoutMs: number | undefined): Budgets {
  return timeoutMs === undefined
    ? base
    : { ...base, responseMs: timeoutMs, firstByteMs: Math.min(base.firstByteMs, timeoutMs) };
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * whether the target closed the connection after a complete answer, not asked to (window.ts: counted, no capacity
 * signal). A refusal that closes counts (a run may begin with refusals), but not a 413, whose unread body explains its
 * close (RFC 9110 §15.5.14); a refusal that keeps the connection tells nothing (undefined: it may keep it where its
 * successes would not), nor does a call that asked for the close
 */
function closedByTarget(response: HttpResponse, sent: Record<string, string>): boolean | undefined {
  if (Object.entries(sent).some(([k, v]) => k.toLowerCase() === 'connection' && /\bclose\b/i.test(v))) return undefined;
  const closed = /\bclose\b/i.test(response.headers.connection ?? '');
  if (response.status < 400) return closed;
  return closed && response.status !== 413 ? true : undefined;
}

export function createHttpClient(opts: HttpClientOptions): HttpClient {
  const { redactor } = opts;
  const defaultTimeoutMs = opts.defaultTimeoutMs ?? 10_000;
  const base: Budgets = {
    connectMs: opts.connectTimeoutMs ?? defaultTimeoutMs,
    firstByteMs: opts.firstByteTimeoutMs ?? defaultTimeoutMs,
    responseMs: opts.responseTimeoutMs ?? defaultTimeoutMs,
    maxBytes: opts.maxResponseBytes ?? 4 * 1024 * 1024,
  };
  const recordChars = opts.recordBodyChars ?? 4096;
  // which connection a failed call was on (a kept one the target was closing: sent again, no capacity signal)
  watchSocketUse();
  const { windows, book, sockets, agents, bursts, slot, windowOf } = connections({
    ...base,
    ...(opts.proxy ? { proxy: opts.proxy } : {}),
  });

  /** one attempt of a call: its answer or its transport error, with the exchange to record */
  async function attempt(req: HttpRequest): Promise<Attempt> {
    const headers: Record<string, string> = { ...(req.headers ?? {}) };
    const body = encodeBody(req, headers);
    learnFromHeaders(redactor, headers);
    const b = budgetsOf(base, req.timeoutMs);
    // its turn among the identity's calls to a near target (lanes.ts), before the call's time starts; then it holds
    // one of the Agent's connections to the origin until its answer is read (sockets.ts); on the identity's Agent of
    // that moment (connections.ts slot: one retired while the call waited takes no new call)
    const { agent, ended } = await slot(req.url, req.identity ?? DEFAULT_IDENTITY, req.first === true);
    const t0 = performance.now();
    const exchange = startExchange(req, headers, body, redactor, recordChars);
    const progress = { headers: false, bytes: 0 };
    try {
      const res = await callOn(agent, req.url, {
        method: req.method,
        headers,
        ...(body !== undefined ? { body } : {}),
        headersTimeout: b.firstByteMs,
        bodyTimeout: b.firstByteMs,
        responseMs: b.responseMs,
        maxBytes: b.maxBytes,
        progress,
        t0,
      });
      const { text, firstByteMs, answerMs } = res;
      const response: HttpResponse = {
        status: res.status,
        headers: flattenHeaders(res.headers),
        text,
        json: parseJson(text),
      };
      exchange.durationMs = Math.round(performance.now() - t0);
      finishExchange(exchange, response, redactor, recordChars);
      tapExchange(opts.tap, exchange, redactor, { url: req.url, headers, body, sealed: req.body }, response);
      const proxied = proxyGatewayError(opts.proxy, response.status);
      if (proxied) return { code: 'PROXY_BAD_GATEWAY', message: proxied, exchange, timedOut: false };
      return { response, exchange, firstByteMs, answerMs, closed: closedByTarget(response, headers) };
    } catch (e) {
      const code = errorCode(e);
      const message = budgetHit(code, b, progress) ?? redactor.redact(e instanceof Error ? e.message : String(e));
      exchange.durationMs = Math.round(performance.now() - t0);
      tapExchange(opts.tap, exchange, redactor, { url: req.url, headers, body, sealed: req.body });
      const d = dropped(code, e, progress);
      return { code, message, exchange, timedOut: isTimeout(code, progress), ...(d ? { dropped: d } : {}) };
    } finally {
      ended();
    }
  }

  const send = (req: HttpRequest, recorder?: Recorder): Promise<HttpResponse> =>
    sendAdapting(windowOf(req.url), req, attempt, recorder);

  return {
    send,
    close: () => {
      bursts.close();
      return agents.close();
    },
    window: windowOf,
    bursts,
    traffic: () => trafficOf(windows, book, sockets, redactor),
  };
}

/** per target origin, what its in-flight window did, its connects tried again and its idle connections freed */
function trafficOf(
  windows: Map<string, InFlightWindow>,
  book: ConnectBook,
  sockets: SocketBook,
  redactor: Redactor,
): Record<string, WindowStats> {
  return Object.fromEntries(
    [...windows].map(([origin, w]) => {
      const { retried, asked, ahead } = book.of(origin);
      const freed = sockets.retiredFor(origin);
      return [
        redactor.redact(origin),
        {
          ...w.summary(),
          ...(retried ? { connectRetries: retried } : {}),
          ...(freed ? { idleFreed: freed } : {}),
          ...(asked ? { connects: asked } : {}),
          ...(ahead ? { connectsAhead: ahead } : {}),
        },
      ];
    }),
  );
}
