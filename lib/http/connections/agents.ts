/**
 * The harness's undici Agents (lib/http/client.ts): one per client identity (mutual-TLS certificate, CA, source
 * address), cached by identity name and a fingerprint of its settings, so two different identities under one name
 * never share an Agent; connects through lib/http/connections/connect.ts (a lost SYN sent again at once). Each Agent has a
 * number of its own; an Agent can be retired (sockets.ts: its idle connections hold a small target's places): it is
 * closed gracefully and its identity's next call gets a new one.
 */
import { Agent } from '../undici.ts';
import { hedgedConnector, type ConnectBook } from './connect.ts';
import type { SocketBook } from './sockets.ts';
import { Spares } from './spares.ts';
import { identityKeyCache, type TlsReuse } from './tls-reuse.ts';
import type { Identity } from '../types.ts';
import type { ProxyRoute } from '../../tls/tunnel.ts';

/** a kept connection is not reused past the server's keep-alive timeout minus this (ms) */
export const KEEP_ALIVE_MARGIN_MS = 1000;

/** an Agent and its number (the socket book counts its connections and calls by it) */
export interface NumberedAgent {
  agent: Agent;
  n: number;
  /** the connections opened ahead for its calls (spares.ts), closed with it */
  spares: Spares;
}

/** one undici Agent per identity, with the connect and first-byte budgets, through the run's proxy when it has one */
export function agentCache(
  base: { connectMs: number; firstByteMs: number; proxy?: ProxyRoute },
  book: ConnectBook,
  tls: TlsReuse,
  sockets?: SocketBook,
  /** connections to an origin that may be opened ahead now, all Agents (spares.ts; none when not given) */
  room: (origin: string) => number = () => 0,
): { agentFor(id: Identity): NumberedAgent; retire(n: number): Promise<void>; close(): Promise<void> } {
  const agents = new Map<string, NumberedAgent>();
  const keyOf = identityKeyCache();
  let made = 0;

  function agentFor(id: Identity): NumberedAgent {
    const key = keyOf(id);
    let a = agents.get(key);
    if (!a) {
      const n = ++made;
      // this identity's own: a connection handshaken with its certificate is never another identity's
      const spares = new Spares(room);
      const agent = new Agent({
        // TCP with quick retries of a lost SYN (connect.ts), then TLS on it with the identity's shared context and
        // its sessions resumed (tls-reuse.ts: never another identity's), so that a target that serves few
        // connections at once (a small target, docs/design.md) is not made to run a full mutual-TLS handshake for every
        // call
        connect: hedgedConnector(
          tls.connector(id, base.connectMs),
          base.connectMs,
          book,
          sockets && { sockets, n },
          spares,
          base.proxy,
        ),
        // top level: undici overwrites connect.localAddress with this one
        localAddress: id.localAddress,
        // a connection is reused until 1 s before the server's announced keep-alive ends (undici's margin is 2 s: a
        // small server announcing `Keep-Alive: timeout=2` had every connection closed after one call, a new TLS
        // handshake and a new place in its accept queue per call: a small target)
        keepAliveTimeoutThreshold: KEEP_ALIVE_MARGIN_MS,
        headersTimeout: base.firstByteMs,
        bodyTimeout: base.firstByteMs,
      });
      agents.set(key, (a = { agent, n, spares }));
    }
    return a;
  }

  return {
    agentFor,
    retire(n: number): Promise<void> {
      const entry = [...agents].find(([, a]) => a.n === n);
      if (!entry) return Promise.resolve();
      agents.delete(entry[0]);
      entry[1].spares.close();
      // gracefully: its idle connections close at once, its calls in flight end first
      return entry[1].agent.close().catch(() => {});
    },
    async close(): Promise<void> {
      const all = [...agents.values()];
      agents.clear();
      for (const a of all) a.spares.close();
      await Promise.allSettled(all.map((a) => a.agent.close()));
    },
  };
}
