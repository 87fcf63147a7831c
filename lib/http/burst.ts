/**
 * A burst: N requests sent so that they really overlap at the target. Each request gets its own connection
 * (TLS handshake done), and everything but the last byte of its body is written; once every connection is
 * ready (or the ready phase times out), the last bytes are written one after another in one synchronous loop,
 * so the requests are released within a fraction of a millisecond. The spread of the release times and of
 * the first response bytes is measured, so that a check can say whether the requests overlapped.
 *
 * Not a load generator: N is small (bounded by MAX_BURST), each request is HTTP/1.1 on a connection of its own.
 */
import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import { TLSSocket } from 'node:tls';
import { connectOnce } from './connect.ts';
import { summariseJose } from './jose-summary.ts';
import { recordedBody } from './recorder.ts';
import { learnFromHeaders } from './redact.ts';
import type { InFlightWindow, Outcome } from './window.ts';
import { tlsReuse } from './tls-reuse.ts';
import { type HttpRequest, type HttpResponse, type RecordedExchange, type Redactor } from './types.ts';

/** the most requests one burst may hold (loops bounded) */
export const MAX_BURST = 200;

export interface BurstOptions {
  /** how long the connect-and-write phase may take before the ready requests are released anyway (ms) */
  readyTimeoutMs?: number;
  /** deadline for every answer after the release (ms) */
  timeoutMs?: number;
  /** largest response body read per request (bytes) */
  maxResponseBytes?: number;
  /**
   * the target's in-flight window (lib/http/window.ts): the burst takes its places from it, and is cut to the
   * largest burst the target accepts at once (the requests past it are not sent)
   */
  window?: InFlightWindow;
}

/** One request of a burst: its answer or its transport error, and its times (performance.now() ms). */
export interface BurstReply {
  response?: HttpResponse;
  /** transport error code when there is no response */
  error?: string;
  /** connected and written up to the last byte before the release */
  ready: boolean;
  /** when the request was started (its connection asked for) */
  startedAt?: number;
  /**
   * its answer began before the release (e.g. a gateway's 429 on the request head): the request was not released
   * (releasedAt stays undefined) and took no part in the race
   */
  answeredEarly?: boolean;
  /** when its last byte was written */
  releasedAt?: number;
  /** when the first byte of its answer came */
  firstByteAt?: number;
  /** when the whole answer had come */
  doneAt?: number;
}

export interface BurstResult {
  /** one per request sent (the first ones: a window may have cut the burst, see asked) */
  replies: BurstReply[];
  /** requests asked for, when the window cut the burst to fewer (replies.length) */
  asked?: number;
  /** how many requests were ready at the release */
  ready: number;
  /** last release minus first release (ms) */
  releaseSpreadMs: number;
  /** last first-byte minus first first-byte over the answered requests (ms); undefined with fewer than one */
  firstByteSpreadMs?: number;
  /** the earliest first byte minus the last release (ms): > 0 when every request was out before any answer came */
  marginMs?: number;
}

interface Pending {
  req: ClientRequest;
  /** gives the connection up while it is being made (a request not ready at the release) */
  abandon: AbortController;
  last: Buffer;
  reply: BurstReply;
  done: Promise<void>;
}

function encode(r: HttpRequest): { body: Buffer; headers: Record<string, string> } {
  const headers: Record<string, string> = { ...(r.headers ?? {}) };
  let body: Buffer;
  if (r.body === undefined) throw new Error('burst: every request needs a body (its last byte is the release)');
  if (Buffer.isBuffer(r.body)) body = r.body;
  else if (typeof r.body === 'string') body = Buffer.from(r.body, 'utf8');
  else {
    body = Buffer.from(JSON.stringify(r.body), 'utf8');
    if (!Object.keys(headers).some((k) => k.toLowerCase() === 'content-type'))
      headers['content-type'] = 'application/json';
  }
  if (body.length === 0) throw new Error('burst: every request needs a non-empty body');
  headers['content-length'] = String(body.length);
  headers.connection = 'close';
  return { body, headers };
}

function flatten(h: IncomingMessage['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

function readAnswer(res: IncomingMessage, reply: BurstReply, max: number): Promise<void> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    res.on('data', (c: Buffer) => {
      size += c.length;
      if (size > max) {
        reply.error = 'RESPONSE_TOO_LARGE';
        res.destroy();
        return;
      }
      chunks.push(c);
    });
    res.on('error', (e: NodeJS.ErrnoException) => {
      reply.error ??= e.code ?? 'ECONNRESET';
      resolve();
    });
    res.on('close', () => {
      if (!reply.error) {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = text ? JSON.parse(text) : undefined;
        } catch {
          json = undefined;
        }
        reply.response = { status: res.statusCode ?? 0, headers: flatten(res.headers), text, json };
        reply.doneAt = performance.now();
      }
      resolve();
    });
  });
}

/** opens the connection and writes all but the last byte; resolves when written (ready) or failed */
function prepare(
  r: HttpRequest,
  opts: Required<Omit<BurstOptions, 'window'>>,
): { pending: Pending; written: Promise<void> } {
  const { body, headers } = encode(r);
  const url = new URL(r.url);
  const id = r.identity;
  const tls = url.protocol === 'https:';
  const reply: BurstReply = { ready: false, startedAt: performance.now() };
  // a connection of its own, its TLS context shared and a session of the same identity and server resumed
  // (tls-reuse.ts): the burst is about when the requests arrive, not about their handshakes
  const session = tls && id ? tlsReuse.session(id, url.hostname, url.port || 443) : undefined;
  const abandon = new AbortController();
  const req = (tls ? httpsRequest : httpRequest)(url, {
    method: r.method,
    headers,
    // a connection of its own (an agent per request, as agent: false gives): a SYN the target's full accept queue
    // dropped is sent again at once (connect.ts), and the request gets its socket once connected (TLS done)
    agent: agentOnce(tls, () =>
      connectOnce(
        url,
        tls && id ? { ...tlsReuse.connectOptions(id), ...(session ? { session } : {}) } : undefined,
        opts.readyTimeoutMs,
        id?.localAddress,
        abandon.signal,
      ),
    ),
    timeout: opts.readyTimeoutMs + opts.timeoutMs,
  });
  req.on('socket', (s: Socket) => {
    s.once('data', () => (reply.firstByteAt ??= performance.now()));
    if (tls && id && s instanceof TLSSocket) tlsReuse.watch(s, id, url.hostname, url.port || 443, session);
  });
  req.on('timeout', () => req.destroy(Object.assign(new Error('burst timeout'), { code: 'ETIMEDOUT' })));
  const done = new Promise<void>((resolve) => {
    req.on('response', (res) => void readAnswer(res, reply, opts.maxResponseBytes).then(resolve));
    req.on('error', (e: NodeJS.ErrnoException) => {
      reply.error ??= e.code ?? 'UNKNOWN';
      resolve();
    });
  });
  // written only once connected (TLS handshake done): before that, Node keeps the bytes in the request
  const written = new Promise<void>((resolve) => {
    req.on('socket', (s: Socket) => {
      const write = (): void => {
        req.write(body.subarray(0, body.length - 1), (err) => {
          if (!err) reply.ready = true;
          resolve();
        });
      };
      if (!s.connecting) write();
      else s.once(tls ? 'secureConnect' : 'connect', write);
    });
    void done.then(() => resolve());
  });
  return { pending: { req, abandon, last: body.subarray(body.length - 1), reply, done }, written };
}

/** an agent for one request whose connection `connect` makes (Node's agent: false makes one with its own connect) */
function agentOnce(tls: boolean, connect: () => Promise<Socket>): HttpAgent {
  const agent = tls ? new HttpsAgent({ keepAlive: false }) : new HttpAgent({ keepAlive: false });
  const create = (_o: unknown, oncreate: (err: Error | null, socket?: Socket) => void): undefined => {
    connect().then(
      (socket) => oncreate(null, socket),
      (e: Error) => oncreate(e),
    );
    return undefined;
  };
  Object.assign(agent, { createConnection: create });
  return agent;
}

function spread(xs: number[]): number | undefined {
  return xs.length === 0 ? undefined : Math.max(...xs) - Math.min(...xs);
}

/** the release waits this long at least for a connection still not ready after the last one was */
const READY_STALL_MS = 1000;

/**
 * waits until every request is written (or failed), the ready timeout, or a stall: some ready and none more for
 * max(READY_STALL_MS, the time the ready ones took) — a target that accepts no more connections at once
 */
function readyPhase(prepared: readonly { written: Promise<void> }[], timeoutMs: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const t0 = performance.now();
    let last = t0;
    let ready = 0;
    const end = (): void => {
      clearInterval(tick);
      resolve();
    };
    const tick = setInterval(() => {
      const now = performance.now();
      if (now - t0 >= timeoutMs) end();
      else if (ready >= 1 && now - last > Math.max(READY_STALL_MS, last - t0)) end();
    }, 25);
    for (const p of prepared)
      void p.written.then(() => {
        last = performance.now();
        if (++ready === prepared.length) end();
      });
  });
}

/** Sends the requests as one burst; never throws for a request's failure (its reply names the error). */
export async function burst(requests: readonly HttpRequest[], options: BurstOptions = {}): Promise<BurstResult> {
  if (requests.length === 0 || requests.length > MAX_BURST)
    throw new Error(`burst: between 1 and ${MAX_BURST} requests, not ${requests.length}`);
  const opts: Required<Omit<BurstOptions, 'window'>> = {
    readyTimeoutMs: options.readyTimeoutMs ?? 5_000,
    timeoutMs: options.timeoutMs ?? 10_000,
    maxResponseBytes: options.maxResponseBytes ?? 1024 * 1024,
  };
  // alone once the target has shown a limit: its places are then the burst's own (no other call of the harness waits
  // in its queue meanwhile); beside the other calls against a target that has shown none
  const slot = await options.window?.acquire(requests.length, { alone: 'if-limited' });
  // nothing else in flight (alone, or a burst wider than the window, which waited for the others to end): the
  // harness's idle keep-alive connections would hold places the burst's connections need (sockets.ts)
  if (slot && (slot.exclusive || slot.level === slot.size)) await options.window?.vacate();
  const sent = slot ? requests.slice(0, slot.size) : requests;
  const prepared = sent.map((r) => prepare(r, opts));
  try {
    await readyPhase(prepared, opts.readyTimeoutMs);
    // the release: one synchronous loop, nothing else runs in between
    for (const { pending: p } of prepared) {
      // an answer already begun (before its last byte was sent) is not released: it raced nothing
      if (p.reply.firstByteAt !== undefined || p.reply.response) {
        p.reply.answeredEarly = true;
        continue;
      }
      if (!p.reply.ready || p.reply.error) continue;
      p.reply.releasedAt = performance.now();
      p.req.end(p.last);
    }
    // requests not ready in time are abandoned: released late they would prove nothing
    // (their connections given up at once: one still in the target's accept queue would hold a place there, and the
    // request ends only once its connection is made or has failed)
    for (const { pending: p } of prepared)
      if (!p.reply.ready && !p.reply.answeredEarly) {
        p.abandon.abort();
        p.req.destroy();
      }
    await Promise.all(prepared.map((p) => p.pending.done));
  } finally {
    const replies = prepared.map((p) => p.pending.reply);
    options.window?.burstAccepted(sent.length, replies.filter((r) => r.ready || r.answeredEarly).length, {
      alone: slot?.alone() === true && (slot.exclusive || slot.level === slot.size),
    });
    slot?.done(replies.map(outcomeOf));
  }
  const result = summarise(prepared.map((p) => p.pending.reply));
  return sent.length < requests.length ? { ...result, asked: requests.length } : result;
}

/** what a burst's reply teaches the window: its answer time from the release, or a timeout */
function outcomeOf(r: BurstReply): Outcome {
  if (r.firstByteAt !== undefined && r.releasedAt !== undefined) return { firstByteMs: r.firstByteAt - r.releasedAt };
  return r.error === 'ETIMEDOUT' ? { timedOut: true } : {};
}

function summarise(replies: BurstReply[]): BurstResult {
  const released = replies.flatMap((r) => (r.releasedAt === undefined ? [] : [r.releasedAt]));
  const first = replies.flatMap((r) =>
    r.firstByteAt === undefined || !r.response || r.releasedAt === undefined ? [] : [r.firstByteAt],
  );
  const fb = spread(first);
  return {
    replies,
    ready: released.length,
    releaseSpreadMs: spread(released) ?? 0,
    ...(fb !== undefined ? { firstByteSpreadMs: fb } : {}),
    ...(first.length && released.length ? { marginMs: Math.min(...first) - Math.max(...released) } : {}),
  };
}

/**
 * a reply's duration: from its release to its last answer byte; from its start when it was answered before its
 * release (an early answer); never negative
 */
export function durationOf(reply: BurstReply): number {
  if (reply.doneAt === undefined) return 0;
  const from =
    reply.releasedAt !== undefined && reply.releasedAt <= reply.doneAt && !reply.answeredEarly
      ? reply.releasedAt
      : (reply.startedAt ?? reply.doneAt);
  return Math.max(0, Math.round(reply.doneAt - from));
}

/**
 * The recorded exchange of one request of a burst (redacted like the client's: the request's headers teach the
 * redactor its bearer token first; a response's tokens must be registered by the caller before this).
 */
export function recordBurstReply(
  req: HttpRequest,
  reply: BurstReply,
  redactor: Redactor,
  startedAt: Date,
  bodyChars = 4096,
): RecordedExchange {
  const headers = { ...(req.headers ?? {}) };
  learnFromHeaders(redactor, headers);
  const text =
    req.body === undefined
      ? undefined
      : typeof req.body === 'string' || Buffer.isBuffer(req.body)
        ? String(req.body)
        : JSON.stringify(req.body);
  const ex: RecordedExchange = {
    label: `${req.label ?? 'burst'}${reply.answeredEarly ? ' (answered before its last byte was sent)' : ''}`,
    method: req.method,
    url: redactor.redact(req.url),
    startedAt: startedAt.toISOString(),
    durationMs: durationOf(reply),
    request: {
      headers: redactor.redactHeaders(headers),
      ...(text !== undefined ? { body: recordedBody(text, redactor, bodyChars) } : {}),
    },
  };
  const res = reply.response;
  if (res) {
    ex.response = {
      status: res.status,
      headers: redactor.redactHeaders(res.headers),
      ...(res.text ? { body: recordedBody(res.text, redactor, bodyChars) } : {}),
    };
    const jose = summariseJose(res.text);
    if (jose) ex.jose = { direction: 'response', form: `${jose.kind} ${jose.form}`, headers: jose.headers };
  } else ex.error = `${reply.error ?? 'UNKNOWN'}: ${reply.ready ? 'no answer' : 'not ready at the release'}`;
  return ex;
}
