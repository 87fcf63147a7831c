/**
 * What every TLS probe shares (lib/tls/probe.ts, server-cert.ts, ciphers.ts): one bounded connection over node:tls
 * that reports the handshake's outcome instead of aborting on it, the probe's errors, and TLS evidence.
 *
 * Rules every probe follows:
 * - bounded by a timeout (default 5 s) and always destroys its socket;
 * - a failure BEFORE the TCP connection exists (ECONNREFUSED, EHOSTUNREACH, ...) or a timeout is never
 *   reported as "the server refused": it throws a TlsProbeError with a stable code;
 * - a limitation of this client's OpenSSL (cannot offer a version or cipher) is never reported as a pass.
 * docs/design.md ("TLS as Node and OpenSSL do it") has the measured behaviour behind these choices.
 */
import { X509Certificate } from 'node:crypto';
import { isIP, type Socket } from 'node:net';
import tls from 'node:tls';
import type { ChainCertificate, TlsEvidence } from './types.ts';
import { openTunnel, type ProxyError, type ProxyRoute } from './tunnel.ts';
import { HarnessError } from '../errors.ts';

export type TlsVersion = 'TLSv1' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3';
export const TLS_VERSIONS: readonly TlsVersion[] = ['TLSv1', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3'];

/**
 * Without SECLEVEL=0, OpenSSL 3 will not even sign/accept a TLS 1.0/1.1 handshake (SHA-1 sigalgs), so a probe
 * would falsely report "not supported". The probe must be able to OFFER old things to test that they are refused.
 */
export const PROBE_CIPHERS = 'DEFAULT@SECLEVEL=0';
export const DEFAULT_TIMEOUT_MS = 5000;

export type TlsProbeErrorCode =
  /** no TCP connection (ECONNREFUSED, EHOSTUNREACH, ENOTFOUND, EADDRNOTAVAIL, ...) */
  | 'TLS_PROBE_NETWORK'
  /** no answer within timeoutMs */
  | 'TLS_PROBE_TIMEOUT'
  /** this client's OpenSSL cannot offer what was asked (e.g. no protocols available) */
  | 'TLS_PROBE_CLIENT_UNSUPPORTED'
  /** server certificate did not verify against `ca` and the probe refuses to send a request to it */
  | 'TLS_PROBE_SERVER_UNTRUSTED';

export class TlsProbeError extends HarnessError {
  override readonly name = 'TlsProbeError';
  constructor(
    override readonly code: TlsProbeErrorCode,
    message: string,
    /** underlying Node/OpenSSL error code, e.g. ECONNREFUSED */
    readonly causeCode?: string,
  ) {
    super(message);
  }
}

/** PEM string, PEM/DER buffer, or a list of them. */
export type CaInput = string | Buffer | (string | Buffer)[];

/** Node's `ca` option silently ignores DER: normalise everything to PEM. */
export function normaliseCa(ca: CaInput | undefined): string[] | undefined {
  if (ca === undefined) return undefined;
  const list = Array.isArray(ca) ? ca : [ca];
  return list.map((c) => (typeof c === 'string' ? c : new X509Certificate(c).toString()));
}

/** Where a probe connects, and as whom: the options every probe shares. */
export interface ProbeTarget {
  host: string;
  port: number;
  ca?: CaInput;
  servername?: string;
  /** client certificate and key (PEM) */
  cert?: string;
  key?: string;
  /** local source address (an allow-listed one, when the default route is not) */
  localAddress?: string;
  timeoutMs?: number;
  /** the run's proxy (lib/http/transport.ts): the handshake in a CONNECT tunnel through it */
  proxy?: ProxyRoute;
}

/** a probe's target plus what one handshake offers */
export interface ConnectOptions extends ProbeTarget {
  minVersion?: TlsVersion;
  maxVersion?: TlsVersion;
  ciphers?: string;
}

export type Connected =
  | { ok: true; socket: tls.TLSSocket }
  | { ok: false; socket: tls.TLSSocket; error: NodeJS.ErrnoException; tcpConnected: boolean };

/** Error codes raised by this client's OpenSSL before anything reached the server. */
export const CLIENT_SIDE_CODES = new Set([
  'ERR_SSL_NO_PROTOCOLS_AVAILABLE',
  'ERR_SSL_NO_CIPHERS_AVAILABLE',
  'ERR_SSL_NO_CIPHER_MATCH',
  'ERR_SSL_UNSUPPORTED_PROTOCOL',
]);

/** SNI must be a host name: Node deprecates IP-address servernames (DEP0123). */
export function sniFor(host: string, servername?: string): string | undefined {
  return servername ?? (isIP(host) ? undefined : host);
}

/**
 * Opens a TLS connection and resolves once the handshake completes or fails (client side).
 * Throws TlsProbeError for network errors (no TCP connection) and timeouts; destroys the socket on those.
 * On success or TLS failure the caller owns the socket and must destroy it.
 */
export function connect(o: ConnectOptions): Promise<Connected> {
  const proxy = o.proxy?.url;
  if (!proxy) return connectOver(o);
  // through the run's proxy (tunnel.ts): a CONNECT tunnel first, the handshake in it; a proxy that cannot be
  // reached or refuses the tunnel is no TCP connection to the target
  return openTunnel(proxy, o.host, o.port, o.timeoutMs ?? DEFAULT_TIMEOUT_MS, o.localAddress).then(
    (tunnel) => connectOver(o, tunnel),
    (e: ProxyError) => {
      throw new TlsProbeError('TLS_PROBE_NETWORK', e.message, e.code);
    },
  );
}

/** connect, on a tunnel through the run's proxy when one is given */
function connectOver(o: ConnectOptions, tunnel?: Socket): Promise<Connected> {
  const timeoutMs = o.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    let socket: tls.TLSSocket;
    try {
      // localAddress is passed through to net.Socket#connect (missing from @types/node's tls.ConnectionOptions)
      const options: tls.ConnectionOptions & { localAddress?: string } = {
        host: o.host,
        port: o.port,
        ca: normaliseCa(o.ca),
        servername: sniFor(o.host, o.servername),
        cert: o.cert,
        key: o.key,
        minVersion: o.minVersion,
        maxVersion: o.maxVersion,
        ciphers: o.ciphers ?? PROBE_CIPHERS,
        localAddress: o.localAddress,
        ...(tunnel ? { socket: tunnel } : {}),
        // verification is read from socket.authorized: the probe must see the handshake, not a client-side abort
        rejectUnauthorized: false,
        // keep socket.authorized about the chain only: Node would otherwise fold a host-name mismatch into it.
        // Host names are checked explicitly by the probes that need it.
        checkServerIdentity: () => undefined,
      };
      socket = tls.connect(options);
    } catch (e) {
      // e.g. a cipher string this OpenSSL does not know at all
      const err = e as NodeJS.ErrnoException;
      reject(new TlsProbeError('TLS_PROBE_CLIENT_UNSUPPORTED', `client cannot set up TLS: ${err.message}`, err.code));
      return;
    }
    let tcpConnected = tunnel !== undefined;
    let settled = false;
    const timer = setTimeout(() => {
      if (settled) return;
      settled = true;
      socket.destroy();
      reject(
        new TlsProbeError(
          'TLS_PROBE_TIMEOUT',
          `no TLS handshake result from ${o.host}:${o.port} within ${timeoutMs} ms`,
        ),
      );
    }, timeoutMs);
    // 'connect' is the TCP connection (fires before the TLS handshake)
    socket.once('connect', () => {
      tcpConnected = true;
    });
    socket.once('secureConnect', () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ok: true, socket });
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (!tcpConnected && !(error.code && error.code.startsWith('ERR_SSL'))) {
        socket.destroy();
        reject(
          new TlsProbeError(
            'TLS_PROBE_NETWORK',
            `cannot reach ${o.host}:${o.port}: ${error.code ?? error.message}`,
            error.code,
          ),
        );
        return;
      }
      resolve({ ok: false, socket, error, tcpConnected });
    });
  });
}

/**
 * "CODE: reason" on one line, no stack. For OpenSSL errors the reason names the alert
 * (e.g. "ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED: tlsv13 alert certificate required").
 */
export function describe(e: NodeJS.ErrnoException & { reason?: string }): string {
  const text = typeof e.reason === 'string' && e.reason ? e.reason : (e.message.split('\n')[0] ?? '').trim();
  return e.code ? `${e.code}: ${text}` : text;
}

export function oneLine(dn: string): string {
  return dn.split('\n').join(', ');
}

export function keyBitsOf(x: X509Certificate): number | undefined {
  const d = x.publicKey.asymmetricKeyDetails;
  if (d?.modulusLength) return d.modulusLength;
  const curveBits: Record<string, number> = { prime256v1: 256, secp384r1: 384, secp521r1: 521 };
  return d?.namedCurve ? curveBits[d.namedCurve] : undefined;
}

export function peerCertificateOf(x: X509Certificate): NonNullable<TlsEvidence['peerCertificate']> {
  return {
    subject: oneLine(x.subject),
    issuer: oneLine(x.issuer),
    validFrom: new Date(x.validFrom).toISOString(),
    validTo: new Date(x.validTo).toISOString(),
    sha256: x.fingerprint256.replace(/:/g, '').toLowerCase(),
    keyBits: keyBitsOf(x),
    ...(x.subjectAltName ? { subjectAltName: x.subjectAltName } : {}),
    ...(x.publicKey.asymmetricKeyType ? { keyType: x.publicKey.asymmetricKeyType } : {}),
  };
}

/** what the server presented: its certificate and the chain as the handshake saw it (leaf first) */
export interface Presented {
  certificate?: X509Certificate;
  chain: ChainCertificate[];
}

const presentedBySocket = new WeakMap<tls.TLSSocket, Presented>();

/**
 * The server's certificate and chain, read once per socket: in Node 20.20 a second call of getPeerCertificate or
 * getPeerX509Certificate on a client socket returns nothing (measured, TLS 1.3 against node:https), so every
 * reader of a probe's socket goes through here. The chain stops after 10 or where a certificate repeats (a root).
 */
export function presented(socket: tls.TLSSocket): Presented {
  let p = presentedBySocket.get(socket);
  if (p) return p;
  p = { chain: [] };
  const seen = new Set<string>();
  let c: tls.DetailedPeerCertificate | undefined = socket.getPeerCertificate(true);
  while (c?.raw && p.chain.length < 10) {
    const x = new X509Certificate(c.raw);
    const { subject, issuer, validFrom, validTo, sha256 } = peerCertificateOf(x);
    if (seen.has(sha256)) break;
    seen.add(sha256);
    p.certificate ??= x;
    p.chain.push({ subject, issuer, validFrom, validTo, sha256 });
    c = c.issuerCertificate;
  }
  presentedBySocket.set(socket, p);
  return p;
}

export function evidenceOf(label: string, socket: tls.TLSSocket, outcome: string): TlsEvidence {
  const peer = presented(socket).certificate;
  const cipher = socket.getCipher() as tls.CipherNameAndProtocol | undefined;
  return {
    label,
    protocol: socket.getProtocol(),
    cipher: cipher ? (cipher.standardName ?? cipher.name) : null,
    authorized: socket.authorized,
    authorizationError: socket.authorizationError ? String(socket.authorizationError) : null,
    ...(peer ? { peerCertificate: peerCertificateOf(peer) } : {}),
    outcome,
  };
}

export function rethrowClientSide(e: NodeJS.ErrnoException, what: string): void {
  if (e.code && CLIENT_SIDE_CODES.has(e.code)) {
    throw new TlsProbeError('TLS_PROBE_CLIENT_UNSUPPORTED', `this client cannot offer ${what}: ${describe(e)}`, e.code);
  }
}
