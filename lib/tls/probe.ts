/**
 * TLS probes over node:tls: protocol versions (TLS-01), client-certificate handling (TLS-02..04),
 * server-certificate inspection (TLS-05, TLS-08 controls) and weak TLS 1.2 cipher families (TLS-09).
 *
 * Rules every probe follows:
 * - bounded by a timeout (default 5 s) and always destroys its socket;
 * - a failure BEFORE the TCP connection exists (ECONNREFUSED, EHOSTUNREACH, ...) or a timeout is never
 *   reported as "the server refused": it throws a TlsProbeError with a stable code;
 * - a limitation of this client's OpenSSL (cannot offer a version or cipher) is never reported as a pass.
 * See /work/shared/notes/tls-facts.md for the measured behaviour behind these choices.
 */
import { X509Certificate } from 'node:crypto';
import http from 'node:http';
import { isIP } from 'node:net';
import tls from 'node:tls';
import type { TlsEvidence } from './types.ts';

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

export class TlsProbeError extends Error {
  override readonly name = 'TlsProbeError';
  constructor(
    readonly code: TlsProbeErrorCode,
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
}

/** a probe's target plus what one handshake offers */
interface ConnectOptions extends ProbeTarget {
  minVersion?: TlsVersion;
  maxVersion?: TlsVersion;
  ciphers?: string;
}

type Connected =
  | { ok: true; socket: tls.TLSSocket }
  | { ok: false; socket: tls.TLSSocket; error: NodeJS.ErrnoException; tcpConnected: boolean };

/** Error codes raised by this client's OpenSSL before anything reached the server. */
const CLIENT_SIDE_CODES = new Set([
  'ERR_SSL_NO_PROTOCOLS_AVAILABLE',
  'ERR_SSL_NO_CIPHERS_AVAILABLE',
  'ERR_SSL_NO_CIPHER_MATCH',
  'ERR_SSL_UNSUPPORTED_PROTOCOL',
]);

/** SNI must be a host name: Node deprecates IP-address servernames (DEP0123). */
function sniFor(host: string, servername?: string): string | undefined {
  return servername ?? (isIP(host) ? undefined : host);
}

/**
 * Opens a TLS connection and resolves once the handshake completes or fails (client side).
 * Throws TlsProbeError for network errors (no TCP connection) and timeouts; destroys the socket on those.
 * On success or TLS failure the caller owns the socket and must destroy it.
 */
function connect(o: ConnectOptions): Promise<Connected> {
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
    let tcpConnected = false;
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
function describe(e: NodeJS.ErrnoException & { reason?: string }): string {
  const text = typeof e.reason === 'string' && e.reason ? e.reason : (e.message.split('\n')[0] ?? '').trim();
  return e.code ? `${e.code}: ${text}` : text;
}

function oneLine(dn: string): string {
  return dn.split('\n').join(', ');
}

function keyBitsOf(x: X509Certificate): number | undefined {
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
  };
}

function evidenceOf(label: string, socket: tls.TLSSocket, outcome: string): TlsEvidence {
  const peer = socket.getPeerX509Certificate();
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

function rethrowClientSide(e: NodeJS.ErrnoException, what: string): void {
  if (e.code && CLIENT_SIDE_CODES.has(e.code)) {
    throw new TlsProbeError('TLS_PROBE_CLIENT_UNSUPPORTED', `this client cannot offer ${what}: ${describe(e)}`, e.code);
  }
}

// ---------------------------------------------------------------------------------------------------------------

export interface ProtocolProbeOptions extends ProbeTarget {
  version: TlsVersion;
}
export interface ProtocolProbeResult {
  version: TlsVersion;
  accepted: boolean;
  /** protocol actually negotiated (equals `version` when accepted) */
  negotiated?: string;
  /** why not accepted: OpenSSL code + message carrying the alert, e.g. ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION */
  error?: string;
  evidence: TlsEvidence;
}

/**
 * Offers exactly one protocol version (min = max = version, SECLEVEL=0) and reports whether the server
 * completed a handshake with it. Throws TlsProbeError on network errors, timeouts, and when this client
 * cannot offer the version at all.
 */
export async function probeProtocol(o: ProtocolProbeOptions): Promise<ProtocolProbeResult> {
  const label = `protocol ${o.version}`;
  const c = await connect({ ...o, minVersion: o.version, maxVersion: o.version });
  try {
    if (c.ok) {
      const negotiated = c.socket.getProtocol() ?? undefined;
      return {
        version: o.version,
        accepted: negotiated === o.version,
        negotiated,
        evidence: evidenceOf(label, c.socket, 'handshake completed'),
      };
    }
    rethrowClientSide(c.error, o.version);
    const error = describe(c.error);
    return { version: o.version, accepted: false, error, evidence: evidenceOf(label, c.socket, `refused: ${error}`) };
  } finally {
    c.socket.destroy();
  }
}

// ---------------------------------------------------------------------------------------------------------------

export interface ClientCertProbeOptions extends ProbeTarget {
  ca: CaInput;
  minVersion?: TlsVersion;
  maxVersion?: TlsVersion;
  request?: { method: string; path: string; headers?: Record<string, string>; body?: string | Buffer };
  /**
   * Default true: if the server certificate does not verify against `ca`, throw TLS_PROBE_SERVER_UNTRUSTED
   * instead of sending the request (never send credentials to an unverified server).
   */
  verifyServer?: boolean;
}
export interface ClientCertProbeResult {
  /**
   * handshake-refused  the handshake failed after TCP connect, or (TLS 1.3) the server sent an alert after it
   * connection-closed  the server closed/reset the connection without an alert and without an HTTP response
   * http               an HTTP response came back (status, body)
   */
  outcome: 'handshake-refused' | 'connection-closed' | 'http';
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  error?: string;
  evidence: TlsEvidence;
}

const MAX_BODY_BYTES = 1 << 20;

function isAlert(e: NodeJS.ErrnoException): boolean {
  return !!e.code && e.code.startsWith('ERR_SSL_') && /ALERT/.test(e.code);
}

/**
 * Handshakes (optionally presenting cert/key), then sends one HTTP/1.1 request (Connection: close) and reads
 * the response. In TLS 1.3 the server verifies the client certificate after the client considers the handshake
 * done, so a refusal arrives as an alert (or a reset) while writing/reading: classified here, not thrown.
 */
export async function probeClientCertificate(o: ClientCertProbeOptions): Promise<ClientCertProbeResult> {
  const label = `client certificate ${o.cert ? 'presented' : 'absent'}`;
  const timeoutMs = o.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const started = Date.now();
  const c = await connect({ ...o, minVersion: o.minVersion ?? 'TLSv1.2', timeoutMs });
  const socket = c.socket;
  try {
    if (!c.ok) {
      rethrowClientSide(c.error, 'this TLS configuration');
      const error = describe(c.error);
      return {
        outcome: 'handshake-refused',
        error,
        evidence: evidenceOf(label, socket, `handshake refused: ${error}`),
      };
    }
    if (o.verifyServer !== false) {
      const peer = socket.getPeerX509Certificate();
      const idErr = peer
        ? tls.checkServerIdentity(o.servername ?? o.host, peer.toLegacyObject())
        : new Error('no server certificate');
      if (!socket.authorized || idErr) {
        throw new TlsProbeError(
          'TLS_PROBE_SERVER_UNTRUSTED',
          `server certificate of ${o.host}:${o.port} does not verify: ${socket.authorized ? idErr?.message : String(socket.authorizationError)}`,
        );
      }
    }
    const req = o.request ?? { method: 'GET', path: '/' };
    const remaining = Math.max(1, timeoutMs - (Date.now() - started));
    const r = await httpOverSocket(socket, o.host, o.port, req, remaining);
    if ('status' in r) {
      return {
        outcome: 'http',
        status: r.status,
        headers: r.headers,
        body: r.body,
        evidence: evidenceOf(label, socket, `HTTP ${r.status}`),
      };
    }
    const error = describe(r.error);
    const outcome = isAlert(r.error) ? 'handshake-refused' : 'connection-closed';
    return { outcome, error, evidence: evidenceOf(label, socket, `${outcome}: ${error}`) };
  } finally {
    socket.destroy();
  }
}

type HttpResult = { status: number; headers: Record<string, string>; body: string } | { error: NodeJS.ErrnoException };

/** node:http does the HTTP/1.1 framing (chunked, content-length) on our already-connected TLS socket. */
function httpOverSocket(
  socket: tls.TLSSocket,
  host: string,
  port: number,
  r: NonNullable<ClientCertProbeOptions['request']>,
  timeoutMs: number,
): Promise<HttpResult> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const done = (v: HttpResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(v);
    };
    const timer = setTimeout(() => {
      if (settled) return;
      settled = true;
      socket.destroy();
      reject(new TlsProbeError('TLS_PROBE_TIMEOUT', `no HTTP response from ${host}:${port} within the timeout`));
    }, timeoutMs);
    // an alert may surface on the TLS socket before node:http sees it
    socket.once('error', (e: NodeJS.ErrnoException) => done({ error: e }));
    const body = r.body === undefined ? undefined : Buffer.isBuffer(r.body) ? r.body : Buffer.from(r.body);
    const headers: Record<string, string> = {
      host: port === 443 ? host : `${host}:${port}`,
      ...(r.headers ?? {}),
      connection: 'close',
    };
    if (body) headers['content-length'] = String(body.length);
    const req = http.request({ method: r.method, path: r.path, headers, createConnection: () => socket });
    req.on('error', (e: NodeJS.ErrnoException) => done({ error: e }));
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (d: Buffer) => {
        if (size < MAX_BODY_BYTES) chunks.push(d);
        size += d.length;
      });
      res.on('error', (e: NodeJS.ErrnoException) => done({ error: e }));
      res.on('end', () => {
        const flat: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers))
          if (v !== undefined) flat[k] = Array.isArray(v) ? v.join(', ') : v;
        done({
          status: res.statusCode ?? 0,
          headers: flat,
          body: Buffer.concat(chunks).subarray(0, MAX_BODY_BYTES).toString('utf8'),
        });
      });
    });
    req.end(body);
  });
}

// ---------------------------------------------------------------------------------------------------------------

export interface ServerCertInspection {
  sha256: string;
  subject: string;
  issuer: string;
  validFrom: string;
  validTo: string;
  keyBits: number;
  keyType: string;
  /** the presented chain verifies against `ca` (socket.authorized) */
  chainsToCa: boolean;
  chainError?: string;
  /** tls.checkServerIdentity(servername ?? host) passed */
  hostnameMatches: boolean;
  hostnameError?: string;
  inDate: boolean;
  evidence: TlsEvidence;
}

/** Connects without verification, then judges the presented certificate against `ca`, the host name and the clock. */
export async function inspectServerCertificate(
  o: Omit<ProbeTarget, 'cert' | 'key'> & { ca: CaInput },
): Promise<ServerCertInspection> {
  const c = await connect({ ...o, minVersion: 'TLSv1.2' });
  const socket = c.socket;
  try {
    if (!c.ok) {
      rethrowClientSide(c.error, 'TLS 1.2+');
      // no certificate to inspect: report it as a refusal the caller can turn into a verdict
      throw new TlsProbeError(
        'TLS_PROBE_NETWORK',
        `TLS handshake with ${o.host}:${o.port} failed: ${describe(c.error)}`,
        c.error.code,
      );
    }
    const x = socket.getPeerX509Certificate();
    if (!x) throw new TlsProbeError('TLS_PROBE_NETWORK', `${o.host}:${o.port} presented no certificate`);
    const name = o.servername ?? o.host;
    const idErr = tls.checkServerIdentity(name, x.toLegacyObject());
    const now = Date.now();
    const inDate = new Date(x.validFrom).getTime() <= now && now <= new Date(x.validTo).getTime();
    const pc = peerCertificateOf(x);
    const chainError = socket.authorizationError ? String(socket.authorizationError) : undefined;
    const hostnameMatches = idErr === undefined;
    const outcome = [
      socket.authorized ? 'chains to CA' : `does not chain to CA (${chainError})`,
      hostnameMatches ? `matches ${name}` : `does not match ${name}`,
      inDate ? 'in date' : 'out of date',
      `${pc.keyBits ?? '?'} bits`,
    ].join('; ');
    return {
      sha256: pc.sha256,
      subject: pc.subject,
      issuer: pc.issuer,
      validFrom: pc.validFrom,
      validTo: pc.validTo,
      keyBits: pc.keyBits ?? 0,
      keyType: x.publicKey.asymmetricKeyType ?? 'unknown',
      chainsToCa: socket.authorized,
      ...(chainError ? { chainError } : {}),
      hostnameMatches,
      ...(idErr ? { hostnameError: idErr.message } : {}),
      inDate,
      evidence: evidenceOf('server certificate', socket, outcome),
    };
  } finally {
    socket.destroy();
  }
}

// ---------------------------------------------------------------------------------------------------------------

export interface WeakCipherResult {
  family: string;
  /** false: this client's OpenSSL cannot offer the family, so nothing was learnt (never a pass) */
  offered: boolean;
  /** the server completed a TLS 1.2 handshake with a cipher of this family */
  accepted: boolean;
  cipher?: string;
  note?: string;
}

/** OpenSSL cipher-string selectors for each weak family. */
export const WEAK_CIPHER_FAMILIES: readonly { family: string; selector: string }[] = [
  { family: 'NULL', selector: 'eNULL' },
  { family: 'EXPORT', selector: 'EXPORT' },
  { family: 'RC4', selector: 'RC4' },
  { family: '3DES', selector: '3DES' },
  { family: 'aNULL', selector: 'aNULL' },
];

/**
 * For each family, offers ONLY that family's TLS 1.2 suites (SECLEVEL=0) and records whether the server agreed.
 * Families this client cannot offer (OpenSSL 3 ships no EXPORT suites; Node's build has no RC4/3DES suites)
 * come back offered:false with a note: the caller must report them as not checked, not as passed.
 */
export async function probeWeakCiphers(o: ProbeTarget): Promise<WeakCipherResult[]> {
  const out: WeakCipherResult[] = [];
  // sequential: bounded, and keeps the server's view simple
  for (const { family, selector } of WEAK_CIPHER_FAMILIES) {
    const unsupported = (why: string): WeakCipherResult => ({
      family,
      offered: false,
      accepted: false,
      note: `this client's OpenSSL ${process.versions.openssl} cannot offer ${family} suites (${why}); not checked`,
    });
    try {
      tls.createSecureContext({ ciphers: `${selector}:@SECLEVEL=0` });
    } catch (e) {
      out.push(unsupported((e as NodeJS.ErrnoException).code ?? 'no cipher match'));
      continue;
    }
    let c: Connected;
    try {
      c = await connect({ ...o, minVersion: 'TLSv1.2', maxVersion: 'TLSv1.2', ciphers: `${selector}:@SECLEVEL=0` });
    } catch (e) {
      if (e instanceof TlsProbeError && e.code === 'TLS_PROBE_CLIENT_UNSUPPORTED') {
        out.push(unsupported(e.causeCode ?? e.message));
        continue;
      }
      throw e;
    }
    try {
      if (c.ok) {
        const cipher = c.socket.getCipher() as tls.CipherNameAndProtocol | undefined;
        out.push({ family, offered: true, accepted: true, cipher: cipher?.standardName ?? cipher?.name });
      } else if (c.error.code && CLIENT_SIDE_CODES.has(c.error.code)) {
        out.push(unsupported(c.error.code));
      } else {
        out.push({ family, offered: true, accepted: false, note: describe(c.error) });
      }
    } finally {
      c.socket.destroy();
    }
  }
  return out;
}
