import type { Socket } from 'node:net';
import type { InFlightWindow, WindowStats } from './connections/window.ts';
import { HarnessError } from '../errors.ts';
/** Who is calling: selects the undici Agent (one per identity). */
export interface Identity {
  /** stable name for the agent cache, e.g. "partner", "weak1024", "none" */
  name: string;
  /** client certificate and key for mutual TLS (PEM) */
  certificate?: string;
  privateKey?: string;
  /** CA(s) the server certificate must chain to (PEM); absent = system CAs */
  ca?: string;
  /** expected server host name, when not the URL host */
  serverName?: string;
  minVersion?: 'TLSv1' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3';
  maxVersion?: 'TLSv1' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3';
  /** local source address (Agent top level: undici overwrites connect.localAddress, docs/design.md) */
  localAddress?: string;
}

/** the TLS options of an identity (node:tls connect options; the server certificate is always verified) */
export function tlsOptionsOf(id: Identity): {
  cert?: string;
  key?: string;
  ca?: string;
  servername?: string;
  minVersion?: Identity['minVersion'];
  maxVersion?: Identity['maxVersion'];
  rejectUnauthorized: true;
} {
  return {
    cert: id.certificate,
    key: id.privateKey,
    ca: id.ca,
    servername: id.serverName,
    minVersion: id.minVersion,
    maxVersion: id.maxVersion,
    rejectUnauthorized: true,
  };
}

export interface HttpRequest {
  method: string;
  url: string;
  headers?: Record<string, string>;
  /** string or object (object = JSON.stringify, content-type application/json unless set) */
  body?: string | Buffer | object;
  identity?: Identity;
  /** a short label for the evidence, e.g. "validate (sealed, alg none)" */
  label?: string;
  timeoutMs?: number;
  /**
   * 'checked': this call may be sent again after a timeout although its method is not idempotent, because its
   * caller checks its effect (HttpResponse.resent: the target may have counted the timed-out attempt too)
   */
  resend?: 'checked';
  /**
   * a call every other check waits for (a prerequisite's): it goes before the calls waiting for the target's
   * in-flight window (lib/http/connections/window.ts), never past the window
   */
  first?: boolean;
  /** do not follow redirects (default: never follow) */
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** parsed JSON or undefined when the body is not JSON */
  json: unknown;
  /** attempts of this call that timed out and were sent again before this answer (the target may have seen them) */
  resent?: number;
}

/** Transport failure: the call never produced an HTTP response. */
export class TransportError extends HarnessError {
  constructor(
    message: string,
    /** e.g. ECONNRESET, UND_ERR_SOCKET, ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED, ETIMEDOUT, ECONNREFUSED */
    public override readonly code: string,
  ) {
    super(message);
    this.name = 'TransportError';
  }
}

/** Replaces secrets in text: registered secret strings, tokens, clear account/emirates ids (by their mask). */
export interface Redactor {
  /** register a secret (client secret, token, key PEM); `replacement` defaults to "[REDACTED:<kind>]" */
  add(secret: string, kind: string, replacement?: string): void;
  redact(text: string): string;
  redactHeaders(headers: Record<string, string>): Record<string, string>;
  /** the same redaction, but secrets of these kinds (e.g. "token", "code") left in: a HAR kept for replay */
  keeping?(kinds: readonly string[]): Redactor;
}

export interface Recorder {
  record(exchange: RecordedExchange): void;
  readonly exchanges: readonly RecordedExchange[];
}

export interface HttpClient {
  /** sends, records (redacted) into the recorder, throws TransportError on no response */
  send(req: HttpRequest, recorder?: Recorder): Promise<HttpResponse>;
  close(): Promise<void>;
  /** the in-flight window of a URL's target (lib/http/connections/window.ts): bursts take their places from it */
  window?(url: string): InFlightWindow;
  /** per target origin, what its in-flight window did (the adapted concurrency, for the report) */
  traffic?(): Record<string, WindowStats>;
  /** the idle connections bursts leave for later bursts (lib/http/burst/burst-pool.ts), closed at close() */
  bursts?: KeptConnections;
}

/** the idle connections bursts leave for later bursts (lib/http/burst/burst-pool.ts BurstPool) */
export interface KeptConnections {
  /** the key of a request's connections: its identity and origin */
  key(id: Identity | undefined, url: URL): string;
  /** a kept connection for `key`, taken out (undefined: none) */
  take(key: string): Socket | undefined;
  /** keeps a connection node:http freed after a whole answer, for `idleMs` at most */
  keep(key: string, origin: string, socket: Socket, idleMs: number): void;
  /** how it served bursts */
  readonly stats: { reused: number; kept: number; replaced: number };
}

/** One request and its answer as recorded for the evidence (already redacted). */
export interface RecordedMessage {
  headers: Record<string, string>;
  /** redacted body text (truncated), or a summary such as "<sealed JWE, 2 kB>" */
  body?: string;
}
export interface RecordedExchange {
  label?: string;
  method: string;
  url: string;
  startedAt: string;
  durationMs: number;
  request: RecordedMessage;
  response?: RecordedMessage & { status: number };
  /** transport error, e.g. "ECONNRESET" or "handshake refused: certificate required" */
  error?: string;
  /** decoded JOSE headers of a sealed request or response (protected + unprotected, never keys) */
  jose?: {
    direction: 'request' | 'response';
    form: string;
    headers: Record<string, unknown>[];
    opened?: unknown;
    /** a sealed response that opened: the header of the JWS inside the JWE (alg, kid...) */
    innerHeader?: Record<string, unknown>;
    /** a sealed response whose signature verified: the fingerprint of the key that verified it */
    verifiedWith?: string;
  };
  /** a sealed request the harness built: the plaintext it sealed, redacted like any body */
  sealedPlaintext?: string;
}

/**
 * Codes of a server certificate that did not verify (Node/OpenSSL). The client then rightly refuses to talk to
 * the server, so no check can conclude on its own rule: that is TLS-05's rule (server certificate).
 */
const SERVER_CERTIFICATE_ERRORS = new Set([
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'ERR_TLS_CERT_ALTNAME_FORMAT',
  'HOSTNAME_MISMATCH',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_SIGNATURE_FAILURE',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'CERT_CHAIN_TOO_LONG',
  'INVALID_CA',
  'EE_KEY_TOO_SMALL',
  'CA_KEY_TOO_SMALL',
]);
export function isServerCertificateError(e: unknown): boolean {
  return e instanceof TransportError && SERVER_CERTIFICATE_ERRORS.has(e.code);
}
/** the same, for the code of a node:tls error */
export function isServerCertificateCode(code: string | undefined): boolean {
  return code !== undefined && SERVER_CERTIFICATE_ERRORS.has(code);
}
