/**
 * The test PKI's certificates, built by node-forge and signed natively (lib/pki/index.ts has the process-wide PKI):
 * a module of its own so that a thread that only uses a PKI made elsewhere never loads forge (certify's main thread:
 * its PKI is made on the mocks' worker thread, lib/mock/server/thread.ts).
 */
import { constants, createPrivateKey, privateEncrypt, randomBytes, type KeyObject } from 'node:crypto';
import forge from 'node-forge';
import type { Issued, KeyPair, TestPki } from './types.ts';
import { cachedKeyPairs, type KeyCacheOptions } from './key-cache.ts';
import { certSha256, generateRsaKeyPair } from './keygen.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Random positive serial (16 bytes, top bit clear, first byte non-zero so DER keeps all 16 bytes). */
function randomSerial(): string {
  const b = randomBytes(16);
  b[0] = (b[0]! & 0x7f) | 0x01;
  return b.toString('hex');
}

/** DER prefix of a PKCS#1 v1.5 DigestInfo for SHA-256 (RFC 8017 §9.2, note 1). */
const SHA256_DIGEST_INFO = Buffer.from('3031300d060960864801650304020105000420', 'hex');

/**
 * A signer for forge's `cert.sign(key, md)`: forge builds the TBSCertificate and its SHA-256 digest, the RSA
 * private-key operation runs natively (PKCS#1 v1.5 = type-1 padding over DigestInfo), far faster than forge's pure-JS
 * RSA (docs/performance.md, "Start-up"). The output is byte-identical to forge's own signer.
 */
function nativeSigner(privateKeyPem: string): { sign(md: forge.md.MessageDigest): string } {
  return {
    sign(md) {
      const digest = Buffer.from(md.digest().getBytes(), 'binary');
      const sig = privateEncrypt(
        { key: remembered(signingKeys, privateKeyPem, createPrivateKey), padding: constants.RSA_PKCS1_PADDING },
        Buffer.concat([SHA256_DIGEST_INFO, digest]),
      );
      return sig.toString('binary');
    },
  };
}

/**
 * What issuing reads of an issuer, parsed once per issuer rather than once per certificate (a PKI issues six from
 * its client CA): its subject, its subjectKeyIdentifier (the leaf's authorityKeyIdentifier), its private key. A few
 * issuers at a time (a PKI has three CAs): the oldest is forgotten past ISSUERS_KEPT.
 */
const ISSUERS_KEPT = 16;
const issuerCerts = new Map<string, { subject: forge.pki.CertificateField[]; keyIdentifier: string }>();
const signingKeys = new Map<string, KeyObject>();

function remembered<T>(kept: Map<string, T>, pem: string, make: (pem: string) => T): T {
  let v = kept.get(pem);
  if (v === undefined) {
    v = make(pem);
    if (kept.size >= ISSUERS_KEPT) kept.delete(kept.keys().next().value!);
    kept.set(pem, v);
  }
  return v;
}

function parsedIssuer(certPem: string): { subject: forge.pki.CertificateField[]; keyIdentifier: string } {
  const issuerCert = forge.pki.certificateFromPem(certPem);
  // must equal the issuer's subjectKeyIdentifier (forge default: SHA-1 of RSAPublicKey), or OpenSSL won't chain
  return {
    subject: issuerCert.subject.attributes,
    keyIdentifier: issuerCert.generateSubjectKeyIdentifier().getBytes(),
  };
}

export type Role = 'ca' | 'server' | 'client' | 'api';

export interface CertSpec {
  cn: string;
  keys: KeyPair;
  role: Role;
  /** undefined = self-signed */
  issuer?: Issued;
  notBefore: Date;
  notAfter: Date;
  /** a server certificate's subjectAltName (default DNS:localhost, IP:127.0.0.1) */
  altNames?: { dns?: string[]; ips?: string[] };
}

function issue(spec: CertSpec): Issued {
  const cert = forge.pki.createCertificate();
  const publicKey = forge.pki.publicKeyFromPem(spec.keys.publicKeyPem);
  cert.publicKey = publicKey;
  cert.serialNumber = randomSerial();
  cert.validity.notBefore = spec.notBefore;
  cert.validity.notAfter = spec.notAfter;
  const subject = [
    { name: 'commonName', value: spec.cn },
    { name: 'organizationName', value: 'Conformance Test PKI' },
  ];
  cert.setSubject(subject);

  let signingKeyPem = spec.keys.privateKeyPem;
  const issuer = spec.issuer && remembered(issuerCerts, spec.issuer.certPem, parsedIssuer);
  if (spec.issuer && issuer) {
    cert.setIssuer(issuer.subject);
    signingKeyPem = spec.issuer.privateKeyPem;
  } else {
    cert.setIssuer(subject);
  }

  const extensions: Record<string, unknown>[] = [{ name: 'subjectKeyIdentifier' }];
  if (issuer) extensions.push({ name: 'authorityKeyIdentifier', keyIdentifier: issuer.keyIdentifier });
  switch (spec.role) {
    case 'ca':
      extensions.push({ name: 'basicConstraints', cA: true, critical: true });
      extensions.push({ name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true });
      break;
    case 'server':
      extensions.push({ name: 'basicConstraints', cA: false });
      extensions.push({ name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true });
      extensions.push({ name: 'extKeyUsage', serverAuth: true });
      // type 2 = dNSName, type 7 = iPAddress
      extensions.push({
        name: 'subjectAltName',
        altNames: [
          ...(spec.altNames?.dns ?? (spec.altNames ? [] : ['localhost'])).map((value) => ({ type: 2, value })),
          ...(spec.altNames?.ips ?? (spec.altNames ? [] : ['127.0.0.1'])).map((ip) => ({ type: 7, ip })),
        ],
      });
      break;
    case 'client':
      extensions.push({ name: 'basicConstraints', cA: false });
      extensions.push({ name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true });
      extensions.push({ name: 'extKeyUsage', clientAuth: true });
      break;
    case 'api':
      // signs JWS and decrypts JWE (RSA-OAEP key transport)
      extensions.push({ name: 'basicConstraints', cA: false });
      extensions.push({
        name: 'keyUsage',
        digitalSignature: true,
        keyEncipherment: true,
        dataEncipherment: true,
        critical: true,
      });
      break;
  }
  cert.setExtensions(extensions);
  cert.sign(nativeSigner(signingKeyPem) as unknown as forge.pki.rsa.PrivateKey, forge.md.sha256.create());

  const certPem = forge.pki.certificateToPem(cert);
  return {
    ...spec.keys,
    certPem,
    sha256: certSha256(certPem),
    subjectCN: spec.cn,
    notAfter: spec.notAfter,
  };
}

/**
 * A certificate from a spec (partner certification: a server certificate from another CA for a scenario, a
 * partner's onboarding certificate in tests). No issuer = self-signed.
 */
export function issueCertificate(spec: CertSpec): Issued {
  return issue(spec);
}

/** A self-signed signing certificate (e.g. an attacker's, for x5c/x5u cases), valid from an hour ago for a day. */
export function selfSignedCertificate(cn: string, keys: KeyPair): Issued {
  const now = Date.now();
  return issue({ cn, keys, role: 'api', notBefore: new Date(now - 3_600_000), notAfter: new Date(now + DAY_MS) });
}

/** a test PKI of `bits` (lib/pki/index.ts generateTestPki, which loads this module) */
export async function generateTestPki(
  bits = 2048,
  options: KeyCacheOptions & { cache?: boolean } = {},
): Promise<TestPki> {
  const now = Date.now();
  // Back-date by a day so small clock differences never make a fresh certificate "not yet valid".
  const notBefore = new Date(now - DAY_MS);
  const caNotAfter = new Date(now + 5 * 365 * DAY_MS);
  const leafNotAfter = new Date(now + 365 * DAY_MS);

  // A 2048-bit key is the largest fixed cost of a run (docs/performance.md, "Start-up"): the keys come from the
  // per-machine key cache (key-cache.ts; new ones with HARNESS_FRESH_KEYS=1 or `fresh`), the certificates are
  // issued anew.
  // The three negative client certificates share one key: what each is refused for is its certificate (expired,
  // other CA, registered to nobody), and the mock tells certificates apart by their SHA-256, never by their key.
  // The CA the bank does not trust is the attacker's: it signs with the attacker's key.
  const sizes = [bits, bits, bits, bits, bits, bits, bits, 1024, bits, bits];
  const [bankCaK, serverK, bankApiK, partnerCaK, codeK, partnerK, internalK, weakK, negativeK, attacker] = (
    options.cache === false
      ? await Promise.all(sizes.map((b) => generateRsaKeyPair(b)))
      : await cachedKeyPairs(sizes, generateRsaKeyPair, options)
  ) as [KeyPair, KeyPair, KeyPair, KeyPair, KeyPair, KeyPair, KeyPair, KeyPair, KeyPair, KeyPair];
  const untrustedCaK = attacker;

  const ca = (cn: string, keys: KeyPair) => issue({ cn, keys, role: 'ca', notBefore, notAfter: caNotAfter });
  const bankCa = ca('Test Bank Root CA', bankCaK);
  const partnerCa = ca('Test Partner Client CA', partnerCaK);
  const untrustedCa = ca('Untrusted Test CA', untrustedCaK);

  const client = (cn: string, keys: KeyPair, issuer: Issued = partnerCa, notAfter = leafNotAfter, from = notBefore) =>
    issue({ cn, keys, role: 'client', issuer, notBefore: from, notAfter });

  return {
    bankCa,
    server: issue({
      cn: 'localhost',
      keys: serverK,
      role: 'server',
      issuer: bankCa,
      notBefore,
      notAfter: leafNotAfter,
    }),
    bankApi: issue({
      cn: 'api.bank.test',
      keys: bankApiK,
      role: 'api',
      issuer: bankCa,
      notBefore,
      notAfter: leafNotAfter,
    }),
    partnerCa,
    clients: {
      code: client('fintech-app-001', codeK),
      partner: client('partner-inst-001', partnerK),
      internal: client('internal-app-001', internalK),
    },
    negative: {
      weak1024: client('weak-client-001', weakK),
      // valid for 30 days, ended yesterday
      expired: client('expired-client-001', negativeK, partnerCa, new Date(now - DAY_MS), new Date(now - 31 * DAY_MS)),
      untrustedCa: client('untrusted-client-001', negativeK, untrustedCa),
      unregistered: client('unregistered-client-001', negativeK),
    },
    untrustedCa,
    attacker,
  };
}
