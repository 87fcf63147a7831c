/**
 * Envelope builders for the JOSE negative catalogue. Every negative is the profile's envelope (general JWE
 * RSA-OAEP-256/A256CBC-HS512 to the bank key, around a general JWS RS256 by the client key) with exactly one
 * property changed, built with lib/jose/craft.ts (the node:crypto implementation) where jose refuses to
 * produce it, and with lib/jose seal() where it can (the tamper family starts from a seal() output).
 */
import { createPublicKey, randomBytes, X509Certificate } from 'node:crypto';
import { testPki } from '../pki/index.ts';
import { b64u, craftJwe, craftJws, type CraftJweInput, type CraftJwsInput, type Signer } from '../jose/craft.ts';

type Json = Record<string, unknown>;

/** An attacker's key pair and self-signed certificate, generated once per process (never written anywhere). */
export interface Attacker {
  privateKeyPem: string;
  publicKeyPem: string;
  certificatePem: string;
  /** base64 (not url) DER of the certificate, as x5c carries it */
  certificateDerB64: string;
  /** the public key as a JWK (kty, n, e, kid, alg, use) */
  jwk: Json;
}

let attackerPromise: Promise<Attacker> | undefined;

export function attacker(): Promise<Attacker> {
  attackerPromise ??= makeAttacker();
  return attackerPromise;
}

/** the harness's attacker key of the run-time PKI (registered nowhere), with a self-signed certificate for x5c/x5u */
async function makeAttacker(): Promise<Attacker> {
  const keys = (await testPki()).attacker;
  // the certificate builder (node-forge) is loaded by the checks that use the attacker, not by every run
  const { selfSignedCertificate } = await import('../pki/issue.ts');
  const { certPem } = selfSignedCertificate('conformance-harness-attacker', keys);
  const jwk = {
    ...createPublicKey(keys.publicKeyPem).export({ format: 'jwk' }),
    kid: 'attacker',
    alg: 'RS256',
    use: 'sig',
  };
  return {
    privateKeyPem: keys.privateKeyPem,
    publicKeyPem: keys.publicKeyPem,
    certificatePem: certPem,
    certificateDerB64: new X509Certificate(certPem).raw.toString('base64'),
    jwk,
  };
}

/** The keys a JOSE check seals with: the calling client's key, the bank's API key, the attacker's. */
export interface Keys {
  /** the client's signing key (PEM) and its registered certificate */
  clientPrivateKey: string;
  clientCertificate: string;
  /** the bank's API-domain public key (SPKI or certificate PEM) */
  bankPublicKey: string;
  attacker: Attacker;
}

export function rsa(privateKeyPem: string, alg: 'RS256' | 'RS512' | 'PS256' = 'RS256'): Signer {
  return { kind: 'rsa', alg, privateKeyPem };
}

export interface Recipe {
  /** overrides of the inner JWS (payload defaults to the document) */
  jws?: Partial<CraftJwsInput>;
  /** the JWE plaintext instead of the JWS (e.g. the bare document: encrypted but unsigned) */
  plaintext?: string | Buffer;
  /** overrides of the outer JWE */
  jwe?: Partial<CraftJweInput>;
}

/** the JWS alone (general RS256 by the client unless overridden) */
export function jwsOf(k: Keys, doc: unknown, o: Partial<CraftJwsInput> = {}): Json | string {
  return craftJws({
    payload: JSON.stringify(doc),
    protectedHeader: { alg: 'RS256' },
    signer: rsa(k.clientPrivateKey),
    form: 'general',
    ...o,
  });
}

/** The profile's envelope, with the recipe's deviations. Without a recipe it is the correct envelope. */
export function envelope(k: Keys, doc: unknown, r: Recipe = {}): Json | string {
  let plaintext = r.plaintext;
  if (plaintext === undefined) {
    const jws = jwsOf(k, doc, r.jws);
    plaintext = typeof jws === 'string' ? jws : JSON.stringify(jws);
  }
  return craftJwe({
    plaintext,
    recipientPublicKeyPem: k.bankPublicKey,
    alg: 'RSA-OAEP-256',
    enc: 'A256CBC-HS512',
    form: 'general',
    ...r.jwe,
  });
}

/**
 * the envelope as JSON text with one member of the top level repeated, with a junk value `junk` (before or
 * after the real one: an RFC 7515/7516 §4 parser takes the last)
 */
export function withDuplicateMember(env: Json, member: string, junk: 'first' | 'last'): string {
  const real = JSON.stringify(env);
  const name = `${JSON.stringify(member)}:`;
  const junkMember = `${name}${JSON.stringify(b64u(randomBytes(32)))}`;
  if (junk === 'last') return `${real.slice(0, -1)},${junkMember}}`;
  const at = real.indexOf(name);
  if (at < 0) throw new Error(`the envelope has no member ${member}`);
  return `${real.slice(0, at)}${junkMember},${real.slice(at)}`;
}

/** a general JWS whose signed payload is replaced afterwards (the signature covers the original) */
export function withSwappedPayload(k: Keys, doc: unknown, other: unknown): Json {
  const jws = jwsOf(k, doc) as Json;
  return { ...jws, payload: b64u(JSON.stringify(other)) };
}
