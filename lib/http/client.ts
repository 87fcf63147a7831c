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
 *  - bounded: connect, headers and body timeouts and an overall deadline; response body capped;
 *  - every send is recorded (redacted) into the given recorder; a call without a response throws TransportError.
 */
import { proxyGatewayError, type ProxyRoute } from '../tls/tunnel.ts';
import { request } from 'undici';
import { rememberExchange } from './record/exchanges.ts';
import type { ConnectBook } from './connections/connect.ts';
import { learnFromHeaders } from './record/redact.ts';
import { recordedBody } from './record/recorder.ts';
import { tapExchange, type WireTap } from './record/tap.ts';
import { summariseJose } from './record/jose-summary.ts';
import type { SocketBook } from './connections/sockets.ts';
import { connections } from './connections/connections.ts';
import { dropped, watchSocketUse, type Dropped } from './connections/socket-use.ts';
import type { InFlightWindow, WindowStats } from './connections/window.ts';
import {
  TransportError,
  type HttpClient,
  type HttpRequest,
  type HttpResponse,
  type Identity,
  type RecordedExchange,
  type Recorder,
  type Redactor,
} from './types.ts';

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

/** the limits in force for one request, so a hit one is named in the error */
interface Budgets {
  connectMs: number;
  firstByteMs: number;
  responseMs: number;
  maxBytes: number;
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

/** undici, Node and OpenSSL codes pass through; an overall deadline is ETIMEDOUT */
function errorCode(e: unknown): string {
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

/** reads a body up to the byte budget, counting progress for the error message */
async function readBody(
  body: AsyncIterable<unknown> & { destroy(): unknown },
  maxBytes: number,
  progress: { bytes: number },
  declared?: string,
): Promise<string> {
  const chunks: Buffer[] = [];
  if (declared !== undefined && Number(declared) > maxBytes) {
    // announced too large: stop before reading any of it
    body.destroy();
    throw Object.assign(new Error(`response body of ${declared} bytes announced`), { code: 'RESPONSE_TOO_LARGE' });
  }
  for await (const chunk of body) {
    const buf = chunk as Buffer;
    progress.bytes += buf.length;
    if (progress.bytes > maxBytes) {
      body.destroy();
      throw Object.assign(new Error(`response body larger than ${maxBytes} bytes`), { code: 'RESPONSE_TOO_LARGE' });
    }
    chunks.push(buf);
  }
  return Buffer.concat(chunks).toString('utf8');
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
    const jose = summariseJose(response.text);
    exchange.response.body = recordedBody(response.text, redactor, recordChars, jose);
    // a sealed response is the more useful header summary; a sealed request's stays when the answer is plain
    if (jose) exchange.jose = { direction: 'response', form: `${jose.kind} ${jose.form}`, headers: jose.headers };
  }
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

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
function isTimeout(code: string, progress: { headers: boolean }): boolean {
  return (
    code === 'UND_ERR_CONNECT_TIMEOUT' ||
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    (code === 'ETIMEDOUT' && !progress.headers)
  );
}

/**
 * the target closed the connection after a successful answer, not asked to (window.ts: counted, no capacity signal);
 * undefined after a refusal (it may close for its own reasons: a 413 body left unread) or a call that asked for the close
 */
function closedByTarget(response: HttpResponse, sent: Record<string, string>): boolean | undefined {
  if (response.status >= 400) return undefined;
  if (Object.entries(sent).some(([k, v]) => k.toLowerCase() === 'connection' && /\bclose\b/i.test(v))) return undefined;
  return /\bclose\b/i.test(response.headers.connection ?? '');
}

type Attempt =
  | { response: HttpResponse; exchange: RecordedExchange; firstByteMs: number; closed: boolean | undefined }
  | { code: string; message: string; exchange: RecordedExchange; timedOut: boolean; dropped?: Dropped };

/**
 * Sends through the target's in-flight window (window.ts). A call that times out while the harness had other calls
 * in flight to the target is sent again once the in-flight window (cut by the timeout) lets it, when that is safe
 * (resendable); so is, once, a call the target turned away among others (connect refused or reset, connection reset
 * before the answer). A call written on a connection kept from an earlier answer that the target closed unanswered
 * (the race of keep-alive and close, socket-use.ts) is sent again at once when safe, and teaches the in-flight window
 * nothing. Only a call that gets no answer when sent alone, or that may not be sent again, is a transport error.
 */
async function sendAdapting(
  window: InFlightWindow,
  req: HttpRequest,
  attempt: (req: HttpRequest) => Promise<Attempt>,
  recorder?: Recorder,
): Promise<HttpResponse> {
  let turnedAway = 0;
  for (let n = 1; ; n++) {
    const slot = await window.acquire();
    const a = await attempt(req).catch((e: unknown) => {
      slot.done([]);
      throw e;
    });
    if ('response' in a) {
      slot.done([{ firstByteMs: a.firstByteMs, ...(a.closed !== undefined ? { closed: a.closed } : {}) }]);
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
  const { windows, book, sockets, agents, bursts, windowOf } = connections({
    ...base,
    ...(opts.proxy ? { proxy: opts.proxy } : {}),
  });
  const agentFor = agents.agentFor;

  /** one attempt of a call: its answer or its transport error, with the exchange to record */
  async function attempt(req: HttpRequest): Promise<Attempt> {
    const headers: Record<string, string> = { ...(req.headers ?? {}) };
    const body = encodeBody(req, headers);
    learnFromHeaders(redactor, headers);
    const b: Budgets =
      req.timeoutMs === undefined
        ? base
        : { ...base, responseMs: req.timeoutMs, firstByteMs: Math.min(base.firstByteMs, req.timeoutMs) };
    const t0 = performance.now();
    const exchange = startExchange(req, headers, body, redactor, recordChars);
    const progress = { headers: false, bytes: 0 };
    const { agent, n } = agentFor(req.identity ?? DEFAULT_IDENTITY);
    // the call holds one of the Agent's connections to the origin until its answer is read (sockets.ts)
    const ended = sockets.call(new URL(req.url).origin, n);
    try {
      const res = await request(req.url, {
        method: req.method as 'GET',
        headers,
        body,
        dispatcher: agent,
        headersTimeout: b.firstByteMs,
        bodyTimeout: b.firstByteMs,
        signal: AbortSignal.timeout(b.responseMs),
      });
      progress.headers = true;
      const firstByteMs = performance.now() - t0;
      const length = res.headers['content-length'];
      const text = await readBody(res.body, b.maxBytes, progress, typeof length === 'string' ? length : undefined);
      const response: HttpResponse = {
        status: res.statusCode,
        headers: flattenHeaders(res.headers),
        text,
        json: parseJson(text),
      };
      exchange.durationMs = Math.round(performance.now() - t0);
      finishExchange(exchange, response, redactor, recordChars);
      tapExchange(opts.tap, exchange, redactor, { url: req.url, headers, body, sealed: req.body }, response);
      const proxied = proxyGatewayError(opts.proxy, response.status);
      if (proxied) return { code: 'PROXY_BAD_GATEWAY', message: proxied, exchange, timedOut: false };
      return { response, exchange, firstByteMs, closed: closedByTarget(response, headers) };
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
