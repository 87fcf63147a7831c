/**
 * UAT network rules (specification §5.2, §5.3; docs/design.md, "TLS as Node and OpenSSL do it"). The TLS server
 * requests a certificate but does not reject the handshake (rejectUnauthorized false), so that every refusal is
 * explicit and carries its reason: source address allow-list first, then the client certificate: present, chains to the
 * partner CA, in date, RSA >= 2048 bits (Node accepts 1024 by default: checked here), then bound to the client id
 * (certBoundTo).
 */
import type { X509Certificate } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { RegisteredClient } from '../data.ts';
import type { MockContext } from '../context.ts';
import { normaliseAddress } from './http.ts';

export interface PeerInfo {
  /** SHA-256 of the presented certificate (lower-case hex), when one was presented */
  sha256?: string;
  /** the registered client this certificate belongs to */
  certClient?: RegisteredClient;
}

export type GateResult =
  | { ok: true; peer: PeerInfo }
  | { ok: false; kind: 'source_address' | 'client_certificate'; reason: string; peer: PeerInfo };

interface SocketFacts {
  present: boolean;
  sha256?: string;
  authorized: boolean;
  authorizationError?: string;
  keyType?: string;
  bits?: number;
}

// facts about a connection do not change; what they mean depends on the faults switched on at the time
const factsCache = new WeakMap<object, SocketFacts>();
/**
 * a certificate's key type and size by its SHA-256 (the same few client certificates come on every connection: their
 * public key is not parsed again for each); bounded, a certificate not seen for a while is read again
 */
const keyFacts = new Map<string, { keyType?: string; bits?: number }>();
const KEY_FACTS_MAX = 256;

function keyFactsOf(sha256: string, cert: X509Certificate): { keyType?: string; bits?: number } {
  let k = keyFacts.get(sha256);
  if (!k) {
    const key = cert.publicKey;
    k = {
      ...(key.asymmetricKeyType ? { keyType: key.asymmetricKeyType } : {}),
      ...(key.asymmetricKeyDetails?.modulusLength ? { bits: key.asymmetricKeyDetails.modulusLength } : {}),
    };
    if (keyFacts.size >= KEY_FACTS_MAX) keyFacts.clear();
    keyFacts.set(sha256, k);
  }
  return k;
}

function socketFacts(socket: TLSSocket): SocketFacts {
  let f = factsCache.get(socket);
  if (f) return f;
  const cert = socket.getPeerX509Certificate();
  if (!cert) f = { present: false, authorized: false };
  else {
    const err = socket.authorizationError as unknown;
    const sha256 = cert.fingerprint256.replace(/:/g, '').toLowerCase();
    f = {
      present: true,
      sha256,
      authorized: socket.authorized,
      ...(err
        ? {
            authorizationError:
              err instanceof Error ? ((err as NodeJS.ErrnoException).code ?? err.message) : String(err),
          }
        : {}),
      ...keyFactsOf(sha256, cert),
    };
  }
  factsCache.set(socket, f);
  return f;
}

export function networkGate(ctx: MockContext, req: IncomingMessage): GateResult {
  if (ctx.mode !== 'uat') return { ok: true, peer: {} };
  const { faults } = ctx;
  const source = normaliseAddress(req.socket.remoteAddress);
  if (!ctx.allowList.has(source) && !faults.on('allow-list-off')) {
    return { ok: false, kind: 'source_address', reason: 'the source address is not on the allow-list', peer: {} };
  }
  const f = socketFacts(req.socket as TLSSocket);
  const peer: PeerInfo = {};
  if (f.sha256) {
    peer.sha256 = f.sha256;
    const c = ctx.data.clientByCert.get(f.sha256);
    if (c) peer.certClient = c;
  }
  const refuse = (reason: string): GateResult => ({ ok: false, kind: 'client_certificate', reason, peer });
  if (!f.present)
    return faults.on('mtls-optional') ? { ok: true, peer } : refuse('no client certificate was presented');
  if (!f.authorized) {
    if (f.authorizationError === 'CERT_HAS_EXPIRED') {
      if (!faults.on('accept-expired-client-cert')) return refuse('the client certificate has expired');
    } else if (!faults.on('accept-untrusted-ca')) {
      return refuse('the client certificate does not chain to a trusted CA');
    }
  }
  if (f.keyType !== 'rsa') return refuse('the client certificate must carry an RSA key');
  if ((f.bits ?? 0) < 2048 && !faults.on('accept-weak-client-key')) {
    return refuse(`the client certificate key has ${f.bits ?? 0} bits; at least 2048 are required`);
  }
  return { ok: true, peer };
}

/** the presented certificate is the one registered for `clientId` (UAT; always true in sandbox) */
export function certBoundTo(ctx: MockContext, peer: PeerInfo, clientId: string): boolean {
  if (ctx.mode !== 'uat') return true;
  if (peer.sha256 === undefined) return ctx.faults.on('mtls-optional');
  if (ctx.faults.on('cert-not-bound-to-client')) return true;
  return peer.certClient?.id === clientId;
}
