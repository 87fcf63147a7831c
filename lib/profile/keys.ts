/**
 * Keys and certificates of a profile, parsed before any traffic: a PEM that node:crypto cannot read, or a
 * client certificate whose key is another one, is a configuration error naming the field (never the value).
 */
import { createPrivateKey, createPublicKey, X509Certificate, type KeyObject } from 'node:crypto';
import type { AnyProfile } from './schema.ts';

type Pem = string | undefined;

function readKey(pem: Pem, field: string, issues: string[]): KeyObject | undefined {
  if (!pem) return undefined;
  try {
    return createPrivateKey(pem);
  } catch {
    issues.push(`${field}: not a private key node:crypto can read`);
    return undefined;
  }
}

function readCert(pem: Pem, field: string, issues: string[]): X509Certificate | undefined {
  if (!pem) return undefined;
  try {
    return new X509Certificate(pem);
  } catch {
    issues.push(`${field}: not an X.509 certificate node:crypto can read`);
    return undefined;
  }
}

/** a certificate and the key that goes with it (both optional; when both are given, they must match) */
function pair(cert: Pem, key: Pem, at: string, issues: string[]): void {
  const c = readCert(cert, `${at}.certificate`, issues);
  const k = readKey(key, `${at}.privateKey`, issues);
  if (c && k && !c.checkPrivateKey(k)) issues.push(`${at}.privateKey: does not belong to ${at}.certificate`);
}

/** Every issue as `<field.path>: <what is wrong>`; empty when every key and certificate reads. */
export function keyIssues(p: AnyProfile): string[] {
  const issues: string[] = [];
  readKey(p.report.signingKey, 'report.signingKey', issues);
  if (!('target' in p)) return issues;
  for (const role of ['code', 'partner', 'internal'] as const) {
    const c = p.clients[role];
    if (c) pair(c.certificate, c.privateKey, `clients.${role}`, issues);
  }
  if (p.tls) {
    readCert(p.tls.caCertificate, 'tls.caCertificate', issues);
    for (const [name, n] of Object.entries(p.tls.negativeCertificates))
      if (n) pair(n.certificate, n.privateKey, `tls.negativeCertificates.${name}`, issues);
  }
  const bank = p.bank.apiPublicKey;
  if (bank) {
    try {
      createPublicKey(bank);
    } catch {
      issues.push('bank.apiPublicKey: not a public key or certificate node:crypto can read');
    }
  }
  return issues;
}
