/**
 * Server certificates that break TLS-05 one way each (the mock's server-cert-* faults): everything else as the
 * PKI's own server certificate (host, bank CA, dates, key), so that only the one rule breaks.
 */
import { generateKeyPairSync } from 'node:crypto';
import { issueCertificate } from './issue.ts';
import type { TestPki } from './types.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

export type ServerCertificateVariant = 'weak-key' | 'wrong-host' | 'unknown-ca' | 'expired' | 'not-yet-valid';

/**
 * weak-key: a 1536-bit RSA key (Node clients still connect: OpenSSL security level 1 admits it, and RSA-OAEP-256
 * can still wrap a 64-byte content key to it, 1024 bits could not); wrong-host: CN and SAN bank.invalid;
 * unknown-ca: issued by a CA the client is not given (the untrusted CA); expired: ended yesterday; not-yet-valid:
 * begins tomorrow. Synchronous (a TLS context is built synchronously); only weak-key generates a key.
 */
export function serverCertificateVariant(
  pki: TestPki,
  variant: ServerCertificateVariant,
): { cert: string; key: string } {
  const now = Date.now();
  const base = {
    cn: 'localhost',
    keys: { privateKeyPem: pki.server.privateKeyPem, publicKeyPem: pki.server.publicKeyPem },
    role: 'server' as const,
    issuer: pki.bankCa,
    notBefore: new Date(now - DAY_MS),
    notAfter: new Date(now + 30 * DAY_MS),
  };
  const spec = ((): Parameters<typeof issueCertificate>[0] => {
    switch (variant) {
      case 'weak-key': {
        const k = generateKeyPairSync('rsa', {
          modulusLength: 1536,
          publicKeyEncoding: { type: 'spki', format: 'pem' },
          privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
        });
        return { ...base, keys: { privateKeyPem: k.privateKey, publicKeyPem: k.publicKey } };
      }
      case 'wrong-host':
        return { ...base, cn: 'bank.invalid', altNames: { dns: ['bank.invalid'] } };
      case 'unknown-ca':
        return { ...base, issuer: pki.untrustedCa };
      case 'expired':
        return { ...base, notBefore: new Date(now - 31 * DAY_MS), notAfter: new Date(now - DAY_MS) };
      case 'not-yet-valid':
        return { ...base, notBefore: new Date(now + DAY_MS), notAfter: new Date(now + 31 * DAY_MS) };
    }
  })();
  const issued = issueCertificate(spec);
  return { cert: issued.certPem, key: issued.privateKeyPem };
}
