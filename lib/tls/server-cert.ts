/**
 * The server certificate (TLS-05): what the target presents, read over a connection that does not verify it, and
 * judged against the configured CA, the host name, the clock and the key size. The TLS-05 check and the
 * tls-handshake prerequisite (when a verifying handshake failed on the certificate) both read it here, so that the
 * run says what the target presented, not only the error code of the refusal.
 */
import { X509Certificate } from 'node:crypto';
import tls from 'node:tls';
import {
  TlsProbeError,
  connect,
  describe,
  evidenceOf,
  normaliseCa,
  peerCertificateOf,
  presented,
  rethrowClientSide,
  type CaInput,
  type ProbeTarget,
} from './connect.ts';
import type { ChainCertificate, TlsEvidence } from './types.ts';

export interface ServerCertInspection {
  sha256: string;
  subject: string;
  issuer: string;
  validFrom: string;
  validTo: string;
  keyBits: number;
  keyType: string;
  subjectAltName?: string;
  /** the chain as the handshake saw it, leaf first */
  chain: ChainCertificate[];
  /** the name the certificate was checked against (servername, else host) */
  name: string;
  /** the presented chain verifies against `ca` (socket.authorized) */
  chainsToCa: boolean;
  chainError?: string;
  /** tls.checkServerIdentity(servername ?? host) passed */
  hostnameMatches: boolean;
  hostnameError?: string;
  inDate: boolean;
  evidence: TlsEvidence;
}

/**
 * Connects without verification (presenting `cert`/`key` when given: a target may ask for a client certificate in
 * the handshake), then judges the presented certificate against `ca`, the host name and the clock.
 */
export async function inspectServerCertificate(o: ProbeTarget & { ca: CaInput }): Promise<ServerCertInspection> {
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
    const { certificate: x, chain } = presented(socket);
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
    const evidence = evidenceOf('server certificate', socket, outcome);
    if (evidence.peerCertificate) evidence.peerCertificate.chain = chain;
    return {
      sha256: pc.sha256,
      subject: pc.subject,
      issuer: pc.issuer,
      validFrom: pc.validFrom,
      validTo: pc.validTo,
      keyBits: pc.keyBits ?? 0,
      keyType: x.publicKey.asymmetricKeyType ?? 'unknown',
      ...(pc.subjectAltName ? { subjectAltName: pc.subjectAltName } : {}),
      chain,
      name,
      chainsToCa: socket.authorized,
      ...(chainError ? { chainError } : {}),
      hostnameMatches,
      ...(idErr ? { hostnameError: idErr.message } : {}),
      inDate,
      evidence,
    };
  } finally {
    socket.destroy();
  }
}

/** OpenSSL's verification codes for a certificate out of its validity period */
const DATE_ERRORS = new Set(['CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID']);

/** the subjects of the configured CA certificates (a PEM bundle may hold several), one line each */
export function caSubjects(ca: CaInput | undefined): string[] {
  const pems = (normaliseCa(ca) ?? []).flatMap(
    (pem) => pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [],
  );
  return pems.map((pem) => {
    try {
      return peerCertificateOf(new X509Certificate(pem)).subject;
    } catch {
      return '(unreadable certificate)';
    }
  });
}

/**
 * A certificate that does not chain to the configured CA reads two ways: the target presents a certificate from
 * another CA (TLS-05 fails), or the profile's tls.caCertificate is not the CA that issues the target's certificate.
 * The message names both sides so that the reader can tell which.
 */
function chainProblem(s: ServerCertInspection, configuredCa: CaInput | undefined): string {
  const subjects = caSubjects(configuredCa);
  const configured = subjects.length ? subjects.map((x) => `"${x}"`).join(', ') : '(none)';
  return (
    `does not chain to the configured CA (${s.chainError ?? 'unverified'}): it was issued by "${s.issuer}", ` +
    `the profile's tls.caCertificate is ${configured}; either the target presents a certificate from another CA, ` +
    `or tls.caCertificate is not the CA that issues the target's certificate`
  );
}

/**
 * What breaks TLS-05 in an inspected certificate, one phrase each (empty: it holds). The key-size minimum of the
 * specification is for RSA; an EC key is judged by NIST SP 800-57 equivalence (224-bit EC ~ RSA 2048).
 */
export function serverCertificateProblems(s: ServerCertInspection, configuredCa: CaInput | undefined): string[] {
  const problems: string[] = [];
  // an out-of-date leaf makes the chain fail for its dates: said once, as the date problem
  const dateOnly = !s.inDate && DATE_ERRORS.has(s.chainError ?? '');
  if (!s.chainsToCa && !dateOnly) problems.push(chainProblem(s, configuredCa));
  if (!s.hostnameMatches)
    problems.push(`does not match ${s.name} (${s.subjectAltName ? `SANs ${s.subjectAltName}` : 'no SANs'})`);
  if (!s.inDate) {
    const early = Date.now() < new Date(s.validFrom).getTime();
    problems.push(`${early ? 'is not yet valid' : 'has expired'} (valid ${s.validFrom} to ${s.validTo})`);
  }
  const strongEnough = s.keyType === 'ec' ? s.keyBits >= 224 : s.keyBits >= 2048;
  if (!strongEnough) problems.push(`has a ${s.keyType} key of ${s.keyBits} bits`);
  return problems;
}
