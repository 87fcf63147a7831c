/**
 * TLS probes over node:tls: protocol versions (TLS-01) and client-certificate handling (TLS-02..04). The
 * connection they share is lib/tls/connect.ts; the server certificate (TLS-05) is lib/tls/server-cert.ts, the weak
 * cipher families (TLS-09) lib/tls/ciphers.ts (re-exported here).
 */
import http from 'node:http';
import tls from 'node:tls';
import {
  DEFAULT_TIMEOUT_MS,
  connect,
  describe,
  evidenceOf,
  presented,
  rethrowClientSide,
  TlsProbeError,
  type CaInput,
  type ProbeTarget,
  type TlsVersion,
} from './connect.ts';
import type { TlsEvidence } from './types.ts';

export * from './connect.ts';
export * from './server-cert.ts';
export * from './ciphers.ts';

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
      const peer = presented(socket).certificate;
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
