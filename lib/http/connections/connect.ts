/**
 * The TCP connect of the harness's undici Agents (a small target's full accept queue, docs/design.md), with quick
 * retries of a connection the target's kernel did not accept. A target whose accept queue is full (a listen backlog of
 * 5 and a server busy for a moment) drops the SYN; the client's kernel sends it again only after 1 s, then 3 s, 7 s… —
 * a second lost on a call that needed a millisecond. Here a connection not established after HEDGE_FLOOR_MS (or four
 * times the target's usual connect time, the larger) is abandoned and opened again at once, a few times (HEDGES), the
 * wait doubling; then the kernel's own retransmissions go on until the connect budget. Safe for every method: nothing
 * of the request has been sent before the connection is established. TLS (the handshake) follows on the connected
 * socket.
 */
import net from 'node:net';
import tls, { type ConnectionOptions, type TLSSocket } from 'node:tls';
import type { buildConnector } from 'undici';
import type { SocketBook } from './sockets.ts';
import type { Spares } from './spares.ts';
import { ProxyError, proxyName, requestTunnel, type ProxyRoute } from '../../tls/tunnel.ts';

/** a connect not done after this long (ms) is tried again: far more than a connect on a path of a few ms takes */
export const HEDGE_FLOOR_MS = 150;
/** connects tried again at most, per connection (the waits double: 150, 300, 600 ms) */
export const HEDGES = 3;

/** what the connects to one origin taught: their usual time, and how many were tried again */
export interface ConnectStats {
  /** smoothed TCP connect time (ms) */
  srttMs?: number;
  /** connects abandoned and opened again (their SYN was not answered in time) */
  retried: number;
  /** connections undici asked for (a call found none ready), and how many of them had been opened ahead (spares.ts) */
  asked?: number;
  ahead?: number;
}

export type Connector = buildConnector.connector;

/** each origin's connect figures, shared by every Agent (identity) of one client */
export class ConnectBook {
  private readonly byOrigin = new Map<string, ConnectStats>();
  /** `lost`: told of each connect tried again (the origin's in-flight window learns from it) */
  constructor(readonly lost: (origin: string) => void = () => {}) {}
  of(origin: string): ConnectStats {
    let s = this.byOrigin.get(origin);
    if (!s) this.byOrigin.set(origin, (s = { retried: 0 }));
    return s;
  }
}

/** a connect given up by its caller (a burst's connection not ready at the release) */
const abortError = (): Error =>
  Object.assign(new Error('connect abandoned: not ready at the release'), { name: 'AbortError', code: 'ABORT_ERR' });

const connectTimeoutError = (ms: number): Error =>
  Object.assign(new Error(`Connect Timeout Error (attempted for ${ms} ms)`), {
    name: 'ConnectTimeoutError',
    code: 'UND_ERR_CONNECT_TIMEOUT',
  });

/**
 * one TCP connection, opened again while it is not established within the hedge wait; resolves the connected
 * socket, or rejects with the connect error (UND_ERR_CONNECT_TIMEOUT once `budgetMs` has passed)
 */
function hedgedTcp(
  o: { host: string; port: number; localAddress?: string | null },
  budgetMs: number,
  stats: ConnectStats,
  lost: () => void,
  signal?: AbortSignal,
): Promise<net.Socket> {
  const t0 = performance.now();
  return new Promise<net.Socket>((resolve, reject) => {
    let settled = false;
    const deadline = setTimeout(() => fail(connectTimeoutError(budgetMs)), budgetMs);
    let current: net.Socket | undefined;
    const onAbort = (): void => fail(abortError());
    const fail = (e: Error): void => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      signal?.removeEventListener('abort', onAbort);
      current?.destroy();
      reject(e);
    };
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const attempt = (n: number, waitMs: number): void => {
      const started = performance.now();
      const s = net.connect({
        host: o.host,
        port: o.port,
        ...(o.localAddress ? { localAddress: o.localAddress } : {}),
      });
      current = s;
      const hedge =
        n >= HEDGES
          ? undefined
          : setTimeout(() => {
              // after the poll phase: a connect our own busy event loop has not seen yet is not taken for a lost SYN
              setImmediate(() => {
                if (settled || !s.connecting || current !== s) return;
                if (performance.now() - t0 + 2 * waitMs >= budgetMs) return;
                stats.retried++;
                lost();
                s.destroy();
                attempt(n + 1, waitMs * 2);
              });
            }, waitMs);
      s.once('connect', () => {
        if (hedge) clearTimeout(hedge);
        if (settled) return void s.destroy();
        settled = true;
        clearTimeout(deadline);
        signal?.removeEventListener('abort', onAbort);
        const ms = performance.now() - started;
        stats.srttMs = stats.srttMs === undefined ? ms : 0.875 * stats.srttMs + 0.125 * ms;
        resolve(s);
      });
      s.once('error', (e) => {
        if (hedge) clearTimeout(hedge);
        if (current === s) fail(e);
      });
    };
    attempt(0, Math.max(HEDGE_FLOOR_MS, 4 * (stats.srttMs ?? 0)));
  });
}

/**
 * hedgedTcp to host:port, or, when the run goes through a proxy (`route`, lib/tls/tunnel.ts), hedgedTcp to the proxy and a
 * CONNECT tunnel to host:port in it, both within `budgetMs`: a proxy unreachable or refusing is a ProxyError that
 * names the proxy (never the target's doing)
 */
function tcpOrTunnel(
  o: { host: string; port: number; localAddress?: string | null },
  budgetMs: number,
  stats: ConnectStats,
  lost: () => void,
  signal?: AbortSignal,
  route?: ProxyRoute,
): Promise<net.Socket> {
  const proxy = route?.url;
  if (!proxy) return hedgedTcp(o, budgetMs, stats, lost, signal);
  const t0 = performance.now();
  const at = {
    host: proxy.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: Number(proxy.port) || 80,
    localAddress: o.localAddress,
  };
  return hedgedTcp(at, budgetMs, stats, lost, signal).then(
    (socket) => {
      const left = Math.max(1, budgetMs - (performance.now() - t0));
      const timer = setTimeout(() => socket.destroy(connectTimeoutError(budgetMs)), left);
      const onAbort = (): void => void socket.destroy(abortError());
      signal?.addEventListener('abort', onAbort, { once: true });
      return requestTunnel(socket, proxy, o.host, o.port).finally(() => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      });
    },
    (e: NodeJS.ErrnoException) => {
      if (e.name === 'AbortError') throw e;
      throw new ProxyError(`${proxyName(proxy)} is unreachable: ${e.code ?? e.message}`, 'PROXY_UNREACHABLE');
    },
  );
}

/**
 * the connector of an Agent: TCP with hedged connects (book: the figures of each origin), then for https the TLS
 * handshake on that socket by `tls`, the identity's connector (tls-reuse.ts: its context, its sessions, the budget);
 * `held`: the socket book and the Agent's number (sockets.ts: each connection counted until it is closed, and a
 * small target's places freed of other Agents' idle connections before this one is opened)
 */
export function hedgedConnector(
  tls: Connector,
  budgetMs: number,
  book: ConnectBook,
  held?: { sockets: SocketBook; n: number },
  spares?: Spares,
  /** the run's proxy (lib/http/transport.ts): every connection a tunnel through it */
  proxy?: ProxyRoute,
): Connector {
  /** one new connection to `origin` as undici asks for it */
  const connect = (o: Parameters<Connector>[0], origin: string, callback: Parameters<Connector>[1]): void => {
    const port = Number(o.port) || (o.protocol === 'https:' ? 443 : 80);
    const hold = held?.sockets.connecting(origin, held.n);
    const done: typeof callback = (...args) => {
      const s = args[1];
      if (!hold) return callback(...args);
      if (args[0] || !s || s.destroyed) hold.closed();
      else s.once('close', hold.closed);
      callback(...args);
    };
    tcpOrTunnel(
      { host: o.hostname.replace(/^\[(.*)\]$/, '$1'), port, localAddress: o.localAddress },
      budgetMs,
      book.of(origin),
      () => book.lost(origin),
      undefined,
      proxy,
    ).then(
      (socket) => {
        if (hold) socket.once('close', hold.closed);
        if (o.protocol === 'https:') return tls({ ...o, httpSocket: socket }, done);
        socket.setNoDelay(true);
        socket.setKeepAlive(true, 60_000);
        done(null, socket);
      },
      (e: Error) => done(e, null),
    );
  };
  return (o, callback) => {
    const port = Number(o.port) || (o.protocol === 'https:' ? 443 : 80);
    // the origin as URL.origin spells it (undici's host: the URL's host, its port when not the default)
    const origin = `${o.protocol}//${o.host ?? `${o.hostname}:${port}`}`;
    const stats = book.of(origin);
    stats.asked = (stats.asked ?? 0) + 1;
    if (!spares) return connect(o, origin, callback);
    // a connection opened ahead for this origin, server name and source address (the pool is this identity's)
    const key = `${origin} ${o.servername ?? ''} ${o.localAddress ?? ''}`;
    const fill = (): void =>
      spares.fill(
        key,
        origin,
        () =>
          new Promise<net.Socket>((resolve, reject) =>
            connect(o, origin, (e, s) => (e || !s ? reject(e ?? new Error('no connection')) : resolve(s))),
          ),
      );
    // once this call's connection is closed (the target closes after its answer), its place is free: the pool is
    // filled again then, so that a target seen holding one connection at a time (a test clock's control) has the
    // next call's connection opened ahead too, without ever holding two at once (spares.ts)
    const used: typeof callback = (...args) => {
      // once the poll phase is over: the answer that came on it (its Connection: close teaches the window that the
      // target closes, and so the room, connections.ts) has been taken in first
      if (!args[0] && args[1]) args[1].once('close', () => setImmediate(fill));
      callback(...args);
    };
    const ready = spares.take(key);
    if (ready) {
      stats.ahead = (stats.ahead ?? 0) + 1;
      // never within undici's own call (it takes a connector's answer for asynchronous: a call in line hangs)
      queueMicrotask(() => used(null, ready));
    } else connect(o, origin, used);
    // the next calls' connections opened now, while this one is answered (spares.ts: within the room allowed)
    fill();
  };
}

/**
 * one connection of a burst (lib/http/burst/burst.ts): TCP with hedged connects, then for https the TLS handshake; resolves
 * once the connection is established (handshake done), rejects with the connect error. `signal`: the burst gave the
 * connection up (not ready at its release): the socket is closed at once, so that it neither holds a place in the
 * target's accept queue nor keeps the burst waiting for its handshake
 */
export async function connectOnce(
  url: URL,
  tlsOptions: ConnectionOptions | undefined,
  budgetMs: number,
  localAddress?: string,
  signal?: AbortSignal,
  /** the run's proxy (lib/http/transport.ts): the connection a tunnel through it */
  proxy?: ProxyRoute,
): Promise<net.Socket | TLSSocket> {
  const https = url.protocol === 'https:';
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = Number(url.port) || (https ? 443 : 80);
  const socket = await tcpOrTunnel({ host, port, localAddress }, budgetMs, { retried: 0 }, () => {}, signal, proxy);
  if (!https) return socket;
  return new Promise<TLSSocket>((resolve, reject) => {
    const t = tls.connect({
      ...tlsOptions,
      socket,
      ...(tlsOptions?.servername || net.isIP(host) ? {} : { servername: host }),
    });
    const onAbort = (): void => void t.destroy(abortError());
    const timer = setTimeout(() => t.destroy(connectTimeoutError(budgetMs)), budgetMs);
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
    t.once('secureConnect', () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve(t);
    });
    t.once('error', (e) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      socket.destroy();
      reject(e);
    });
  });
}
