/**
 * The JOSE negative catalogue (docs/design.md, "The JOSE negative catalogue"), one family per requirement id. Ids
 * keep the catalogue's numbering (S structure, A signature, E encryption, H header, T tamper, Z size); only the cases
 * that fit the partner's validate quota are sent (each family also spends one call on its positive control).
 * "naive accepts" marks a case that jose with its lenient defaults would open and verify.
 */
import { createPublicKey, randomBytes, X509Certificate } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';
import { b64u, tamper } from '../jose/craft.ts';
import { seal } from '../jose/index.ts';
import { envelope, jwsOf, rsa, withDuplicateMember, withSwappedPayload, type Keys } from './envelopes.ts';
import type { NegativeCase } from './cases.ts';
import { interceptedReason, type ProxyRoute } from '../tls/tunnel.ts';

type Json = Record<string, unknown>;
type Doc = Record<string, unknown>;

const neg = (
  id: string,
  title: string,
  body: NegativeCase['body'],
  more: Partial<NegativeCase> = {},
): NegativeCase => ({ id, title, body, ...more });

/** JOSE-01: the body is a sealed envelope (size limits are HARD-04's, duplicates HARD-01's, recipients HARD-03's) */
export function structureCases(doc: Doc): NegativeCase[] {
  return [neg('S1', 'plain JSON document, not sealed', () => doc)];
}

/**
 * A correctly sealed envelope of `bytes` bytes: JSON whitespace after the opening brace pads it (valid JSON,
 * valid JOSE: a naive receiver opens it). No crypto runs over the padding. For a size-limit check (HARD-04).
 */
export function oversizedEnvelope(k: Keys, doc: Doc, bytes: number): string {
  const text = JSON.stringify(envelope(k, doc));
  return `{${' '.repeat(Math.max(0, bytes - text.length))}${text.slice(1)}`;
}

/** HARD-01: a duplicated member whose LAST value complies (RFC 7515/7516 §4 allow last-wins): refusing is hardening */
export function duplicateCases(k: Keys, doc: Doc): NegativeCase[] {
  return [
    neg('S11', 'duplicate "ciphertext" member in the JWE JSON, junk first, the real one last', () =>
      withDuplicateMember(envelope(k, doc) as Json, 'ciphertext', 'first'),
    ),
    neg('A10', 'JWS protected header {"alg":"none","alg":"RS256"} (duplicate alg, RS256 last)', () =>
      envelope(k, doc, { jws: { rawProtected: '{"alg":"none","alg":"RS256"}' } }),
    ),
    neg('E14', 'JWE protected header with enc twice, A128GCM first, A256CBC-HS512 last', () =>
      envelope(k, doc, { jwe: { rawProtected: '{"alg":"RSA-OAEP-256","enc":"A128GCM","enc":"A256CBC-HS512"}' } }),
    ),
  ];
}

/** HARD-02: a compressed JWE (RFC 7516 allows zip DEF; refusing it is hardening against decompression bombs) */
export function zipCases(k: Keys, doc: Doc): NegativeCase[] {
  const jwsText = JSON.stringify(jwsOf(k, doc));
  return [
    neg('E12', 'JWE zip DEF (compressed plaintext)', () =>
      envelope(k, doc, { plaintext: deflateRawSync(jwsText), jwe: { protectedHeader: { zip: 'DEF' } } }),
    ),
  ];
}

/** HARD-03: more than one recipient or signature (the general serializations allow several) */
export function multiplicityCases(k: Keys, doc: Doc): NegativeCase[] {
  return [
    neg('S9', 'two recipients (the content key also wrapped for a third party)', () =>
      envelope(k, doc, { jwe: { extraRecipientPublicKeyPems: [k.attacker.publicKeyPem] } }),
    ),
    neg('S10', "two signatures, the attacker's first, the client's second", () =>
      envelope(k, doc, {
        jws: {
          extraSignatures: [{ protectedHeader: { alg: 'RS256' }, signer: rsa(k.attacker.privateKeyPem), first: true }],
        },
      }),
    ),
  ];
}

/** JOSE-02: the JWS is RS256 */
export function jwsAlgCases(k: Keys, doc: Doc): NegativeCase[] {
  const clientSpki = publicPem(k.clientCertificate);
  return [
    neg('A1', 'JWS alg "none" with an empty signature', () =>
      envelope(k, doc, { jws: { protectedHeader: { alg: 'none' }, signer: { kind: 'none' } } }),
    ),
    neg('A2', 'JWS HS256 keyed with the client public key (key confusion)', () =>
      envelope(k, doc, {
        jws: {
          protectedHeader: { alg: 'HS256' },
          signer: { kind: 'hmac', alg: 'HS256', secret: Buffer.from(clientSpki) },
        },
      }),
    ),
    neg('A3', 'JWS RS512 by the client key (naive accepts)', () =>
      envelope(k, doc, { jws: { protectedHeader: { alg: 'RS512' }, signer: rsa(k.clientPrivateKey, 'RS512') } }),
    ),
    neg('A4', 'JWS PS256 by the client key (naive accepts)', () =>
      envelope(k, doc, { jws: { protectedHeader: { alg: 'PS256' }, signer: rsa(k.clientPrivateKey, 'PS256') } }),
    ),
    neg('A12', 'JWS protected header {"alg":"RS256","alg":"RS512"} signed RS512 (duplicate alg, RS512 last)', () =>
      envelope(k, doc, {
        jws: { rawProtected: '{"alg":"RS256","alg":"RS512"}', signer: rsa(k.clientPrivateKey, 'RS512') },
      }),
    ),
  ];
}

/** JOSE-03: the JWE key management is RSA-OAEP-256 */
export function jweAlgCases(k: Keys, doc: Doc): NegativeCase[] {
  return [
    neg('E4', 'JWE alg RSA-OAEP (SHA-1; naive accepts)', () => envelope(k, doc, { jwe: { alg: 'RSA-OAEP' } })),
    neg('E5', 'JWE alg RSA1_5', () => envelope(k, doc, { jwe: { alg: 'RSA1_5' } })),
    neg(
      'E11',
      'JWE header alg PBES2-HS512+A256KW with p2c 1e9 (must be refused before any key derivation)',
      () =>
        envelope(k, doc, {
          jwe: { protectedHeader: { alg: 'PBES2-HS512+A256KW', p2s: b64u(randomBytes(16)), p2c: 1_000_000_000 } },
        }),
      { noAnswer: 'failed' },
    ),
    neg('E15', 'JWE protected header with alg twice, RSA-OAEP (SHA-1) last, the key wrapped with RSA-OAEP', () =>
      envelope(k, doc, {
        jwe: { alg: 'RSA-OAEP', rawProtected: '{"alg":"RSA-OAEP-256","enc":"A256CBC-HS512","alg":"RSA-OAEP"}' },
      }),
    ),
  ];
}

/** JOSE-04: the JWE content encryption is A256CBC-HS512 */
export function jweEncCases(k: Keys, doc: Doc): NegativeCase[] {
  return [
    neg('E1', 'JWE enc A128GCM (naive accepts)', () => envelope(k, doc, { jwe: { enc: 'A128GCM' } })),
    neg('E2', 'JWE enc A256GCM (naive accepts)', () => envelope(k, doc, { jwe: { enc: 'A256GCM' } })),
    neg('E3', 'JWE enc A128CBC-HS256 (naive accepts)', () => envelope(k, doc, { jwe: { enc: 'A128CBC-HS256' } })),
    neg('E16', 'JWE protected header with enc twice, A128GCM last, the content encrypted with A128GCM', () =>
      envelope(k, doc, {
        jwe: { enc: 'A128GCM', rawProtected: '{"alg":"RSA-OAEP-256","enc":"A256CBC-HS512","enc":"A128GCM"}' },
      }),
    ),
  ];
}

/** JOSE-05: the general JSON serializations, not compact or flattened */
export function formCases(k: Keys, doc: Doc): NegativeCase[] {
  return [
    neg('S2', 'compact JWE serialization', () => envelope(k, doc, { jwe: { form: 'compact' } })),
    neg('S3', 'flattened JWE JSON serialization', () => envelope(k, doc, { jwe: { form: 'flattened' } })),
    neg('S4', 'general JWE around a flattened JWS JSON serialization', () =>
      envelope(k, doc, { jws: { form: 'flattened' } }),
    ),
  ];
}

/** JOSE-06: the signature verifies with the client's registered certificate key, and only with it */
export function signatureKeyCases(k: Keys, doc: Doc): NegativeCase[] {
  return [
    neg('A5', 'JWS RS256 by an attacker key', () =>
      envelope(k, doc, { jws: { signer: rsa(k.attacker.privateKeyPem) } }),
    ),
    neg('A9', 'JWS payload replaced after signing (the signature covers another document)', () =>
      envelope(k, doc, { plaintext: JSON.stringify(withSwappedPayload(k, { ...doc, remarks: 'signed' }, doc)) }),
    ),
  ];
}

/**
 * JOSE-07: the JWE is encrypted to the bank's API-domain key, and only that key opens it. `tlsServerKey` reads the
 * SPKI PEM of the target's TLS server certificate key (server-key.ts; undefined when none can be read).
 */
export function encryptionKeyCases(
  tlsServerKey: () => Promise<string | undefined>,
  k: Keys,
  doc: Doc,
  /** the run's proxy route: through one that re-terminates TLS no key is read, and the case says why */
  proxy?: ProxyRoute,
): NegativeCase[] {
  let tlsSkip = '';
  const bankSpki = publicPem(k.bankPublicKey);
  return [
    neg('E6', 'JWE encrypted to an attacker key', () =>
      envelope(k, doc, { jwe: { recipientPublicKeyPem: k.attacker.publicKeyPem } }),
    ),
    neg(
      'E7',
      "JWE encrypted to the bank's TLS server certificate key",
      async () => {
        const key = await tlsServerKey();
        if (!key) tlsSkip = interceptedReason(proxy) ?? 'no TLS server certificate could be read from the target';
        else if (key === bankSpki) tlsSkip = 'the TLS server certificate has the API-domain key itself';
        if (tlsSkip || !key) return undefined;
        try {
          return envelope(k, doc, { jwe: { recipientPublicKeyPem: key } });
        } catch (e) {
          // e.g. a TLS key too small for RSA-OAEP-256 to wrap a 64-byte content key (TLS-05's business)
          tlsSkip = `the content key cannot be encrypted to the TLS server key (${e instanceof Error ? e.message : String(e)})`;
          return undefined;
        }
      },
      { skipped: () => tlsSkip },
    ),
    neg(
      'E8',
      "JWE encrypted to the client's own certificate key",
      () =>
        publicPem(k.clientCertificate) === bankSpki
          ? undefined
          : envelope(k, doc, { jwe: { recipientPublicKeyPem: k.clientCertificate } }),
      {
        skipped: () => 'the client certificate has the bank key',
      },
    ),
  ];
}

/** JOSE-08: a changed protected header, iv, ciphertext or tag is refused (the base is a seal() output) */
export function tamperCases(k: Keys, doc: Doc): NegativeCase[] {
  const t = (field: 'protected' | 'iv' | 'ciphertext' | 'tag') => async (): Promise<Json> =>
    tamper((await tamperBase(k, doc)) as unknown as Json, field);
  return [
    neg('T1', 'one bit of the JWE protected header flipped (in the kid: only the AAD changes)', t('protected')),
    neg('T2', 'one bit of the iv flipped', t('iv')),
    neg('T3', 'one bit of the ciphertext flipped', t('ciphertext')),
    neg('T4', 'one bit of the authentication tag flipped', t('tag')),
    neg('T5', 'duplicate "ciphertext" member, the sealed one first, junk last (RFC parsers take the last)', async () =>
      withDuplicateMember((await tamperBase(k, doc)) as unknown as Json, 'ciphertext', 'last'),
    ),
  ];
}

/** the tamper family's envelope: lib/jose seal() with a kid in the JWE protected header (see tamper()) */
export function tamperBase(k: Keys, doc: Doc): ReturnType<typeof seal> {
  return seal(doc, { signingKey: k.clientPrivateKey, encryptionKey: k.bankPublicKey, encryptionKid: 'bank-api-key' });
}

/** JOSE-09: both layers are present */
export function layerCases(k: Keys, doc: Doc): NegativeCase[] {
  return [
    neg('S6', 'JWE around the plain document (encrypted, not signed)', () =>
      envelope(k, doc, { plaintext: JSON.stringify(doc) }),
    ),
    neg('S7', 'general JWS JSON, not encrypted', () => jwsOf(k, doc)),
    neg('S8', 'compact JWS, not encrypted', () => jwsOf(k, doc, { form: 'compact' })),
  ];
}

function attackerSigned(k: Keys, doc: Doc, protectedHeader: Json): NegativeCase['body'] {
  return () =>
    envelope(k, doc, {
      jws: { protectedHeader: { alg: 'RS256', ...protectedHeader }, signer: rsa(k.attacker.privateKeyPem) },
    });
}

/** JOSE-10, keys in headers: every case is signed by the attacker, whose key the header carries */
export function headerKeyCases(k: Keys, doc: Doc): NegativeCase[] {
  const a = k.attacker;
  return [
    neg(
      'H1',
      'attacker-signed JWS with the attacker key as an embedded jwk (naive EmbeddedJWK accepts)',
      attackerSigned(k, doc, { jwk: a.jwk }),
    ),
    neg(
      'H4',
      'attacker-signed JWS with the attacker certificate in x5c',
      attackerSigned(k, doc, { x5c: [a.certificateDerB64] }),
    ),
  ];
}

/** JOSE-10, key URLs in headers: attacker-signed, the header points at the canary that serves the attacker key */
export function headerUrlCases(k: Keys, doc: Doc, canaryUrl: (path: string) => string): NegativeCase[] {
  return [
    neg(
      'H2',
      'attacker-signed JWS with a jku pointing at a canary serving the attacker JWKS',
      attackerSigned(k, doc, { jku: canaryUrl(CANARY_PATHS.H2) }),
    ),
    neg(
      'H3',
      'attacker-signed JWS with an x5u pointing at a canary serving the attacker certificate',
      attackerSigned(k, doc, { x5u: canaryUrl(CANARY_PATHS.H3) }),
    ),
  ];
}

/** the canary path each key-URL case points at */
export const CANARY_PATHS = { H2: '/jwks.json', H3: '/x5u.pem' } as const;

/** the isolation case of the key-header family: attacker-signed, no header key (JOSE-06's rule) */
export function attackerBaseline(k: Keys, doc: Doc): NegativeCase {
  return neg('A5', 'JWS RS256 by an attacker key, no key in any header (isolation: JOSE-06)', () =>
    envelope(k, doc, { jws: { signer: rsa(k.attacker.privateKeyPem) } }),
  );
}

/** JOSE-10, crit: an extension the bank does not understand is refused (signed by the right key) */
export function critCases(k: Keys, doc: Doc): NegativeCase[] {
  return [
    neg('H6', 'JWS protected header crit ["exp"] (an extension the bank does not process)', () =>
      envelope(k, doc, { jws: { protectedHeader: { alg: 'RS256', crit: ['exp'], exp: 1 } } }),
    ),
    neg('H7', 'JWE protected header crit ["exp"]', () =>
      envelope(k, doc, { jwe: { protectedHeader: { crit: ['exp'], exp: 1 } } }),
    ),
  ];
}

/** SPKI PEM of a public key or certificate PEM (to compare keys) */
function publicPem(pem: string): string {
  const key = pem.includes('-----BEGIN CERTIFICATE-----') ? new X509Certificate(pem).publicKey : createPublicKey(pem);
  return key.export({ type: 'spki', format: 'pem' }) as string;
}
