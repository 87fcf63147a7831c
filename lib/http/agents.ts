/**
 * The harness's undici Agents (lib/http/client.ts): one per client identity (mutual-TLS certificate, CA, source
 * address), cached by identity name and a fingerprint of its settings, so two different identities under one name
 * never share an Agent; connects through lib/http/connect.ts (a lost SYN sent again at once).
 */
import { Agent } from 'undici';
import { hedgedConnector, type ConnectBook } from './connect.ts';
import { identityKeyCache, type TlsReuse } from './tls-reuse.ts';
import type { Identity } from './types.ts';

/** one undici Agent per identity, with the connect and first-byte budgets */
export function agentCache(
  base: { connectMs: number; firstByteMs: number },
  book: ConnectBook,
  tls: TlsReuse,
): { agentFor(id: Identity): Agent; close(): Promise<void> } {
  const agents = new Map<string, Agent>();
  const keyOf = identityKeyCache();

  function agentFor(id: Identity): Agent {
    const key = keyOf(id);
    let agent = agents.get(key);
    if (!agent) {
      agent = new Agent({
        // TCP with quick retries of a lost SYN (connect.ts), then TLS on it with the identity's shared context and
        // its sessions resumed (tls-reuse.ts: never another identity's), so that a target that serves few
        // connections at once (issue 18 §2) is not made to run a full mutual-TLS handshake for every call
        connect: hedgedConnector(tls.connector(id, base.connectMs), base.connectMs, book),
        // top level: undici overwrites connect.localAddress with this one
        localAddress: id.localAddress,
        headersTimeout: base.firstByteMs,
        bodyTimeout: base.firstByteMs,
      });
      agents.set(key, agent);
    }
    return agent;
  }

  return {
    agentFor,
    async close(): Promise<void> {
      const all = [...agents.values()];
      agents.clear();
      await Promise.allSettled(all.map((a) => a.close()));
    },
  };
}
