/**
 * The harness's undici Agents (lib/http/client.ts): one per client identity (mutual-TLS certificate, CA, source
 * address), cached by identity name and a fingerprint of its settings, so two different identities under one name
 * never share an Agent; connects through lib/http/connect.ts (a lost SYN sent again at once).
 */
import { createHash } from 'node:crypto';
import { Agent } from 'undici';
import { hedgedConnector, type ConnectBook } from './connect.ts';
import { tlsOptionsOf, type Identity } from './types.ts';

const IDENTITY_FIELDS = [
  'certificate',
  'privateKey',
  'ca',
  'serverName',
  'minVersion',
  'maxVersion',
  'localAddress',
] as const;

function identityKey(id: Identity): string {
  const h = createHash('sha256');
  for (const f of IDENTITY_FIELDS) h.update(id[f] ?? '\u0000').update('\u0001');
  return `${id.name}#${h.digest('hex').slice(0, 16)}`;
}

/** identity → key, remembered per name: hashing the PEMs on every request costs more than comparing them */
function identityKeyCache(): (id: Identity) => string {
  const byName = new Map<string, { id: Identity; key: string }[]>();
  return (id) => {
    const seen = byName.get(id.name) ?? [];
    const hit = seen.find((s) => IDENTITY_FIELDS.every((f) => s.id[f] === id[f]));
    if (hit) return hit.key;
    const key = identityKey(id);
    seen.push({ id: { ...id }, key });
    byName.set(id.name, seen);
    return key;
  };
}

/** one undici Agent per identity, with the connect and first-byte budgets */
export function agentCache(
  base: { connectMs: number; firstByteMs: number },
  book: ConnectBook,
): { agentFor(id: Identity): Agent; close(): Promise<void> } {
  const agents = new Map<string, Agent>();
  const keyOf = identityKeyCache();

  function agentFor(id: Identity): Agent {
    const key = keyOf(id);
    let agent = agents.get(key);
    if (!agent) {
      agent = new Agent({
        // TCP with quick retries of a lost SYN (connect.ts), then TLS on it. TLS sessions are resumed only within
        // this identity (the connector's own cache: a negative check never resumes a session another identity
        // opened); a target that serves few connections at once (issue 18 §2) is not made to run a full mutual-TLS
        // handshake for every call
        connect: hedgedConnector({ ...tlsOptionsOf(id), maxCachedSessions: 100 }, base.connectMs, book),
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
