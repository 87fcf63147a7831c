/**
 * What the harness's API calls reuse between TLS connections of one client identity (docs/performance.md: the run's
 * cost is its RSA private-key operations, and a full handshake costs two of them, the server's signature and the
 * client's CertificateVerify, plus parsing the PEMs into a context):
 *  - one TLS secure context per identity (its certificate, key, CA and versions parsed once, not per connection);
 *  - TLS session resumption between connections of the same identity to the same server (host, port, server
 *    name): the client certificate and the server's verdict on it travel in the session, so the server sees the
 *    same certificate as on the full handshake (notes in test/http/tls-reuse.test.ts). A session is never offered
 *    by another identity, nor to another server.
 * One per process (`tlsReuse`), used by the API clients (client.ts, undici) and by bursts (burst.ts), so that a
 * burst's connections resume the API calls' sessions. The TLS checks' own handshakes (lib/tls) do not come here:
 * they make fresh ones.
 */
import { createHash } from 'node:crypto';
import tls, { type SecureContext } from 'node:tls';
import type { buildConnector as Connector } from 'undici';
import { buildConnector } from '../undici.ts';
import type { Identity } from '../types.ts';
import { withProxyCa, type ProxyRoute } from '../../tls/tunnel.ts';

const IDENTITY_FIELDS = [
  'certificate',
  'privateKey',
  'ca',
  'serverName',
  'minVersion',
  'maxVersion',
  'localAddress',
] as const;

/** an identity's name and a fingerprint of its settings (two identities under one name never share anything) */
export function identityKey(id: Identity): string {
  const h = createHash('sha256');
  for (const f of IDENTITY_FIELDS) h.update(id[f] ?? '\u0000').update('\u0001');
  return `${id.name}#${h.digest('hex').slice(0, 16)}`;
}

/** identity → key, remembered per name: hashing the PEMs on every request costs more than comparing them */
export function identityKeyCache(): (id: Identity) => string {
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

/** the most sessions and contexts kept (one per identity and server; a run has a handful of each) */
const MAX_SESSIONS = 256;
const MAX_CONTEXTS = 64;

/** sets key → value, the oldest entry dropped past `max` */
function keep<V>(map: Map<string, V>, key: string, value: V, max: number): void {
  map.delete(key);
  if (map.size >= max) map.delete(map.keys().next().value!);
  map.set(key, value);
}

/** the TLS reuse of one HTTP client: contexts per identity, sessions per identity and server */
export interface TlsReuse {
  /** node:tls connect options of an identity: its shared context, the server name, verification on */
  connectOptions(id: Identity): { secureContext: SecureContext; servername?: string; rejectUnauthorized: true };
  /** the session to offer on a new connection of `id` to host:port, if one was kept */
  session(id: Identity, host: string, port: string | number): Buffer | undefined;
  /** keeps the sessions the socket receives for later connections of `id` to host:port (and forgets a failed one) */
  watch(socket: tls.TLSSocket, id: Identity, host: string, port: string | number, offered?: Buffer): void;
  /** an undici `connect` function for an Agent of `id`: its context and the shared sessions */
  connector(id: Identity, timeoutMs: number): Connector.connector;
}

/** `proxy`: the run's route, whose CA (an intercepting proxy's) every context trusts besides the identity's */
export function createTlsReuse(proxy?: ProxyRoute): TlsReuse {
  const keyOf = identityKeyCache();
  const contexts = new Map<string, SecureContext>();
  const sessions = new Map<string, Buffer>();
  // host as undici gives it (an IPv6 address without its brackets), the port with its default
  const sessionKey = (id: Identity, host: string, port: string | number): string =>
    `${keyOf(id)}\u0000${id.serverName ?? ''}\u0000${host.replace(/^\[(.*)\]$/, '$1')}\u0000${String(port || 443)}`;

  const contextOf = (id: Identity): SecureContext => {
    const key = keyOf(id);
    let c = contexts.get(key);
    if (!c) {
      c = tls.createSecureContext({
        ...(id.certificate !== undefined ? { cert: id.certificate } : {}),
        ...(id.privateKey !== undefined ? { key: id.privateKey } : {}),
        // through an intercepting proxy (lib/tls/tunnel.ts), its CA too: it presents certificates of its own
        ...(withProxyCa(proxy, id.ca) !== undefined ? { ca: withProxyCa(proxy, id.ca) } : {}),
        ...(id.minVersion ? { minVersion: id.minVersion } : {}),
        ...(id.maxVersion ? { maxVersion: id.maxVersion } : {}),
      });
      keep(contexts, key, c, MAX_CONTEXTS);
    }
    return c;
  };

  const reuse: TlsReuse = {
    connectOptions: (id) => ({
      secureContext: contextOf(id),
      ...(id.serverName ? { servername: id.serverName } : {}),
      rejectUnauthorized: true,
    }),
    session: (id, host, port) => sessions.get(sessionKey(id, host, port)),
    watch(socket, id, host, port, offered) {
      const key = sessionKey(id, host, port);
      socket.on('session', (s: Buffer) => keep(sessions, key, s, MAX_SESSIONS));
      // a session offered on a handshake that failed is not offered again (an error after the handshake, e.g. a
      // connection closed by the server, says nothing about the session)
      let connected = false;
      socket.once('secureConnect', () => (connected = true));
      socket.once('error', () => {
        if (!connected && offered && sessions.get(key) === offered) sessions.delete(key);
      });
    },
    connector(id, timeoutMs) {
      const plain = buildConnector({ timeout: timeoutMs });
      return (opts, callback) => {
        if (opts.protocol !== 'https:') return plain(opts, callback);
        const session = reuse.session(id, opts.hostname, opts.port);
        const connect = buildConnector({
          ...reuse.connectOptions(id),
          ...(session ? { session } : {}),
          maxCachedSessions: 0,
          timeout: timeoutMs,
        });
        let watched = false;
        // undici 7's connector returns its socket (its type says void): watched at once, so that a TLS 1.2
        // session, given during the handshake, is kept too; otherwise once connected
        const socket: unknown = connect(opts, (...args) => {
          const s = args[1];
          if (!watched && s instanceof tls.TLSSocket) reuse.watch(s, id, opts.hostname, opts.port, session);
          callback(...args);
        });
        if (socket instanceof tls.TLSSocket) {
          watched = true;
          reuse.watch(socket, id, opts.hostname, opts.port, session);
        }
      };
    },
  };
  return reuse;
}

/** the process's TLS reuse of direct connections (API clients and bursts share it) */
export const tlsReuse: TlsReuse = createTlsReuse();

/** the TLS reuses of routes through a proxy, one per route value (its API clients and bursts share it) */
const throughProxies = new WeakMap<ProxyRoute, TlsReuse>();

/** the TLS reuse of connections made over `proxy` (the direct one without) */
export function tlsReuseFor(proxy: ProxyRoute | undefined): TlsReuse {
  if (!proxy) return tlsReuse;
  let reuse = throughProxies.get(proxy);
  if (!reuse) throughProxies.set(proxy, (reuse = createTlsReuse(proxy)));
  return reuse;
}
