/**
 * The idle connections a burst (burst.ts) leaves for the next burst (docs/performance.md: each request of a burst used
 * to pay a TCP connect and a TLS handshake of its own, about 400 connections a certify run). A connection is kept after
 * its answer only when the answer allowed keep-alive and was read whole (node:http frees it then), under a key of the
 * identity (its TLS settings and source address: tls-reuse.ts identityKey) and the origin, so it never serves another
 * identity or another server. A burst takes at most one kept connection per request, so no connection carries two
 * requests of one burst.
 *  - A kept connection is closed once idle for less than the target's keep-alive (its `Keep-Alive: timeout=N` minus
 *    KEEP_ALIVE_MARGIN_MS, as the API clients' Agents do: agents.ts; DEFAULT_IDLE_MS when it announced none), and is
 *    dropped as soon as the target closes it (end, close or error).
 *  - At most MAX_KEPT per key; all closed at the client's close (the session's end).
 *  - A target that has shown a limit (window.ts: a small server whose places are its connections) gets none kept,
 *    and those already kept are closed when its places are freed (sockets.ts, client.ts: before a new connection
 *    and before a burst that needs the target to itself), so idle burst connections never starve it.
 * A kept connection the target closes just as a burst writes on it is the burst's concern: before the release the
 * request goes on a fresh connection, after it the failure is the request's transport error (burst.ts).
 */
import type { Socket } from 'node:net';
import { KEEP_ALIVE_MARGIN_MS } from '../connections/agents.ts';
import { identityKeyCache } from '../connections/tls-reuse.ts';
import type { Identity, KeptConnections } from '../types.ts';

/** kept connections at most per identity and origin (a burst's largest size: burst.ts MAX_BURST) */
export const MAX_KEPT = 200;
/** how long a connection is kept idle when its target announced no keep-alive timeout (ms) */
export const DEFAULT_IDLE_MS = 3000;

/** how the pool served bursts (for a burst's note and the measurements) */
export interface BurstPoolStats {
  /** requests sent on a kept connection */
  reused: number;
  /** connections kept after their answer */
  kept: number;
  /** kept connections taken that had failed before the release (their request went on a fresh connection) */
  replaced: number;
}

interface Kept {
  socket: Socket;
  origin: string;
  timer: NodeJS.Timeout;
  onGone: () => void;
}

/** how long an answer's connection may be kept idle: its `Keep-Alive: timeout=N` minus the margin (ms) */
export function idleMsOf(keepAlive: string | undefined): number {
  const m = keepAlive === undefined ? null : /(?:^|[,;\s])timeout\s*=\s*(\d+)/i.exec(keepAlive);
  return m ? Number(m[1]) * 1000 - KEEP_ALIVE_MARGIN_MS : DEFAULT_IDLE_MS;
}

export class BurstPool implements KeptConnections {
  /** key → its idle connections, the most recently kept last */
  private readonly idle = new Map<string, Kept[]>();
  private readonly keyOf = identityKeyCache();
  /** the sockets given their error listener for the time between take and the request's own */
  private readonly guarded = new WeakSet<Socket>();
  readonly stats: BurstPoolStats = { reused: 0, kept: 0, replaced: 0 };
  private closed = false;

  /** `limited(origin)`: the target has shown a limit (its idle connections are then not kept) */
  constructor(private readonly limited: (origin: string) => boolean = () => false) {}

  /** the key of a request's connections: identity (its TLS settings and source address) and origin */
  key(id: Identity | undefined, url: URL): string {
    return `${id ? this.keyOf(id) : '-'}\u0000${url.origin}`;
  }

  /** a kept connection for `key`, taken out of the pool (undefined: none) */
  take(key: string): Socket | undefined {
    const list = this.idle.get(key);
    while (list?.length) {
      const k = list.pop()!;
      this.release(k);
      if (!k.socket.destroyed && k.socket.writable && !k.socket.readableEnded) {
        // an error before the request has put its listeners on is the request's (it sees the socket closed); one
        // listener a socket, however many bursts take it (a listener per take passed Node's limit of 10)
        if (!this.guarded.has(k.socket)) {
          this.guarded.add(k.socket);
          k.socket.on('error', () => {});
        }
        this.stats.reused++;
        return k.socket;
      }
      k.socket.destroy();
    }
    return undefined;
  }

  /** keeps `socket` (freed by node:http after a whole answer that allowed keep-alive) for `idleMs`; else closes it */
  keep(key: string, origin: string, socket: Socket, idleMs: number): void {
    const list = this.idle.get(key) ?? [];
    if (
      this.closed ||
      idleMs <= 0 ||
      list.length >= MAX_KEPT ||
      this.limited(origin) ||
      socket.destroyed ||
      !socket.writable
    )
      return void socket.destroy();
    const k: Kept = {
      socket,
      origin,
      timer: setTimeout(() => this.remove(key, k), idleMs),
      onGone: () => this.remove(key, k),
    };
    k.timer.unref();
    socket.on('end', k.onGone);
    socket.on('close', k.onGone);
    socket.on('error', k.onGone);
    // an idle kept connection holds no timeout of the request's, and does not keep the process alive
    socket.setTimeout(0);
    socket.unref();
    list.push(k);
    this.idle.set(key, list);
    this.stats.kept++;
  }

  /** kept connections to `origin` */
  count(origin: string): number {
    let n = 0;
    for (const list of this.idle.values()) for (const k of list) if (k.origin === origin) n++;
    return n;
  }

  /** closes the kept connections to `origin` but `keep` of them, the longest kept first (their places freed) */
  drop(origin: string, keep = 0): void {
    let excess = this.count(origin) - keep;
    for (const [key, list] of this.idle)
      for (const k of [...list]) {
        if (excess <= 0) return;
        if (k.origin !== origin) continue;
        this.remove(key, k);
        excess--;
      }
  }

  /** closes every kept connection; none kept after */
  close(): void {
    this.closed = true;
    for (const [key, list] of this.idle) for (const k of [...list]) this.remove(key, k);
    this.idle.clear();
  }

  private release(k: Kept): void {
    clearTimeout(k.timer);
    k.socket.off('end', k.onGone);
    k.socket.off('close', k.onGone);
    k.socket.off('error', k.onGone);
    k.socket.ref();
  }

  private remove(key: string, k: Kept): void {
    const list = this.idle.get(key);
    const i = list?.indexOf(k) ?? -1;
    if (i < 0) return;
    list!.splice(i, 1);
    if (list!.length === 0) this.idle.delete(key);
    this.release(k);
    k.socket.destroy();
  }
}
