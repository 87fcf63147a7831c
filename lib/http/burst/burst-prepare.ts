/**
 * A burst's request up to its release (burst.ts): its connection — a new one (connect.ts connectOnce, the TLS
 * session of its identity resumed) or one an earlier burst left idle (burst-pool.ts) — and its bytes but the last
 * written; its answer read once released.
 */
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import { TLSSocket } from 'node:tls';
import { idleMsOf } from './burst-pool.ts';
import type { BurstReply, PrepareOptions } from './burst-types.ts';
import { connectOnce } from '../connections/connect.ts';
import { tlsReuseFor } from '../connections/tls-reuse.ts';
import { proxyGatewayError, type ProxyRoute } from '../../tls/tunnel.ts';
import type { HttpRequest, Identity, KeptConnections } from '../types.ts';

export interface Pending {
  req: ClientRequest;
  /** gives the connection up while it is being made (a request not ready at the release) */
  abandon: AbortController;
  last: Buffer;
  reply: BurstReply;
  done: Promise<void>;
  /** ends `done` */
  finish: () => void;
  /** its last byte was written (the release began) */
  released: boolean;
  /** its current connection is written up to its last byte, or the request failed (the ready phase waits for it) */
  settled: boolean;
  /** told when `settled` changes (the ready phase listens) */
  changed?: () => void;
}

function encode(r: HttpRequest, keep: boolean): { body: Buffer; headers: Record<string, string> } {
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
  headers.connection = keep ? 'keep-alive' : 'close';
  return { body, headers };
}

function flatten(h: IncomingMessage['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

function readAnswer(res: IncomingMessage, reply: BurstReply, max: number, proxy?: ProxyRoute): Promise<void> {
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
      // a 502 of a proxy that re-terminates TLS is no answer of the target's (client.ts says it the same way)
      if (!reply.error && proxyGatewayError(proxy, res.statusCode ?? 0)) reply.error = 'PROXY_BAD_GATEWAY';
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

/** where a burst's connections come from and go: the pool of kept ones (burst-pool.ts), and its key for a request */
interface Reuse {
  pool: KeptConnections;
  key: string;
  origin: string;
}

/** a new connection of a burst: its TLS context shared and a session of the same identity and server resumed */
export function connectFresh(
  url: URL,
  id: Identity | undefined,
  budgetMs: number,
  signal: AbortSignal,
  proxy?: ProxyRoute,
): Promise<Socket> {
  const tls = url.protocol === 'https:';
  const tlsReuse = tlsReuseFor(proxy);
  const session = tls && id ? tlsReuse.session(id, url.hostname, url.port || 443) : undefined;
  return connectOnce(
    url,
    tls && id ? { ...tlsReuse.connectOptions(id), ...(session ? { session } : {}) } : undefined,
    budgetMs,
    id?.localAddress,
    signal,
    proxy,
  ).then((s) => {
    if (tls && id && s instanceof TLSSocket) tlsReuse.watch(s, id, url.hostname, url.port || 443, session);
    return s;
  });
}

/** writes all of `body` but its last byte once `s` is connected (TLS handshake done) */
function writeAllButLast(
  req: ClientRequest,
  s: Socket,
  body: Buffer,
  tls: boolean,
  written: (err: Error | null | undefined) => void,
): void {
  const write = (): void => void req.write(body.subarray(0, body.length - 1), written);
  if (!s.connecting) write();
  else s.once(tls ? 'secureConnect' : 'connect', write);
}

/** a request's state before any connection: not ready, not released, `settle` telling the ready phase */
function newPending(reply: BurstReply, last: Buffer): { pending: Pending; settle(to: boolean): void } {
  let resolveDone!: () => void;
  const done = new Promise<void>((resolve) => (resolveDone = resolve));
  const pending: Pending = {
    req: undefined as unknown as ClientRequest,
    abandon: new AbortController(),
    last,
    reply,
    done,
    finish: () => resolveDone(),
    released: false,
    settled: false,
  };
  const settle = (to: boolean): void => {
    if (pending.settled === to) return;
    pending.settled = to;
    pending.changed?.();
  };
  void done.then(() => settle(true));
  return { pending, settle };
}

/**
 * opens the connection (or uses `kept`, taken from `pool`) and writes all but the last byte; `settled` once written (ready) or
 * failed. A kept connection that fails before the release (the target closed it while idle, or just as
 * it was written on) is replaced by a fresh one, the request sent again on it: the release still finds it ready
 */
export function prepare(r: HttpRequest, opts: PrepareOptions, pool?: KeptConnections, kept?: Socket): Pending {
  const url = new URL(r.url);
  const reuse: Reuse | undefined = pool && { pool, key: pool.key(r.identity, url), origin: url.origin };
  const { body, headers } = encode(r, reuse !== undefined);
  const tls = url.protocol === 'https:';
  const reply: BurstReply = { ready: false, startedAt: performance.now() };
  const { pending, settle } = newPending(reply, body.subarray(body.length - 1));
  let keepAlive: string | undefined;
  const send = (kept: Socket | undefined): void => {
    const req = (tls ? httpsRequest : httpRequest)(url, {
      method: r.method,
      headers,
      // a connection of its own: a kept one, or one made by connectOnce (a SYN the target's full accept queue dropped
      // is sent again at once: connect.ts), the request getting its socket once connected (TLS done)
      createConnection: (_o: unknown, oncreate: (err: Error | null, socket?: Socket) => void): undefined => {
        if (kept) oncreate(null, kept);
        else
          connectFresh(url, r.identity, opts.readyTimeoutMs, pending.abandon.signal, opts.proxy).then(
            (socket) => oncreate(null, socket),
            (e: Error) => oncreate(e),
          );
        return undefined;
      },
      timeout: opts.readyTimeoutMs + opts.timeoutMs,
    } as Parameters<typeof httpRequest>[1]);
    pending.req = req;
    const current = (): boolean => pending.req === req;
    /** a kept connection failed before the release: the request goes on a fresh connection instead */
    const replace = (): boolean => {
      if (!kept || !reuse || pending.released || reply.firstByteAt !== undefined || pending.abandon.signal.aborted)
        return false;
      kept = undefined;
      reuse.pool.stats.replaced++;
      reply.ready = false;
      settle(false);
      req.destroy();
      send(undefined);
      return true;
    };
    if (kept) reply.reused = true;
    else delete reply.reused;
    req.on('timeout', () => req.destroy(Object.assign(new Error('burst timeout'), { code: 'ETIMEDOUT' })));
    req.on('response', (res) => {
      if (!current()) return void res.resume();
      // a kept connection the target timed out as it was written on (408 before the release): a fresh one instead
      if (kept && !pending.released && res.statusCode === 408) {
        res.resume();
        delete reply.firstByteAt;
        if (replace()) return;
      }
      keepAlive = res.headers['keep-alive']?.toString();
      void readAnswer(res, reply, opts.maxResponseBytes, opts.proxy).then(pending.finish);
    });
    req.on('error', (e: NodeJS.ErrnoException) => {
      if (!current() || replace()) return;
      reply.error ??= e.code ?? 'UNKNOWN';
      pending.finish();
    });
    // written only once connected (TLS handshake done): before that, Node keeps the bytes in the request
    req.on('socket', (s: Socket) => {
      if (!current()) return;
      s.once('data', () => current() && (reply.firstByteAt ??= performance.now()));
      // kept for the next burst once its answer was read whole and allowed keep-alive (node:http frees it then)
      if (reuse)
        s.once('free', () => {
          if (current() && !reply.error) reuse.pool.keep(reuse.key, reuse.origin, s, idleMsOf(keepAlive));
          else s.destroy();
        });
      if (s.destroyed) {
        if (!replace()) req.destroy(Object.assign(new Error('kept connection closed'), { code: 'ECONNRESET' }));
      } else
        writeAllButLast(req, s, body, tls, (err) => {
          if (!current() || (err && replace())) return;
          if (!err) reply.ready = true;
          settle(true);
        });
    });
  };
  send(kept);
  return pending;
}
