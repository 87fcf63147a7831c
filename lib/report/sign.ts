/**
 * Tamper evidence for an archived certification: a detached JWS (RFC 7515 appendix F) over the exact
 * bytes of results.json, written beside it as results.json.jws (`<protected>..<signature>`).
 * RS256 for an RSA operator key, ES256 for a P-256 key; nothing else is accepted on verification.
 */
import { X509Certificate, createPrivateKey, createPublicKey } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { CompactSign, base64url, compactVerify, decodeProtectedHeader } from 'jose';
import { ConfigurationError } from '../errors.ts';

export class SignError extends ConfigurationError {
  constructor(
    override readonly code: 'SIGN_KEY_UNSUPPORTED' | 'SIGN_KEY_INVALID',
    message: string,
  ) {
    super(message);
    this.name = 'SignError';
  }
}

type Alg = 'RS256' | 'ES256';

function algFor(key: KeyObject): Alg {
  if (key.asymmetricKeyType === 'rsa') {
    const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
    if (bits < 2048)
      throw new SignError('SIGN_KEY_UNSUPPORTED', `RSA signing key of ${bits} bits: at least 2048 are needed`);
    return 'RS256';
  }
  if (key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1') return 'ES256';
  throw new SignError(
    'SIGN_KEY_UNSUPPORTED',
    `unsupported signing key type ${key.asymmetricKeyType ?? '?'}: use RSA (RS256) or EC P-256 (ES256)`,
  );
}

/** Detached compact JWS over the UTF-8 bytes of `jsonText`. The private key never leaves this function. */
export async function signResults(jsonText: string, privateKeyPem: string, kid?: string): Promise<string> {
  let key: KeyObject;
  try {
    key = createPrivateKey(privateKeyPem);
  } catch {
    // never echo the PEM: it is a secret
    throw new SignError('SIGN_KEY_INVALID', 'the signing key is not a readable PEM private key');
  }
  const alg = algFor(key);
  const jws = await new CompactSign(new TextEncoder().encode(jsonText))
    .setProtectedHeader({ alg, cty: 'json', ...(kid ? { kid } : {}) })
    .sign(key);
  const [h, , s] = jws.split('.');
  return `${h}..${s}`;
}

function publicKeyFrom(pem: string): KeyObject {
  if (pem.includes('-----BEGIN CERTIFICATE-----')) return new X509Certificate(pem).publicKey;
  return createPublicKey(pem); // a SPKI public key (or a private key, from which the public half is taken)
}

export interface VerifyOutcome {
  ok: boolean;
  reason: string;
  alg?: string;
  kid?: string;
}

export async function verifyResults(jsonText: string, jws: string, publicKeyOrCertPem: string): Promise<VerifyOutcome> {
  const parts = jws.trim().split('.');
  if (parts.length !== 3 || parts[1] !== '')
    return { ok: false, reason: 'not a detached compact JWS (expected "<header>..<signature>")' };
  let header: { alg?: unknown; kid?: unknown };
  try {
    header = decodeProtectedHeader(`${parts[0]}.e30.${parts[2]}`);
  } catch {
    return { ok: false, reason: 'the JWS protected header is not readable' };
  }
  let key: KeyObject;
  let alg: Alg;
  try {
    key = publicKeyFrom(publicKeyOrCertPem);
    alg = algFor(key);
  } catch (e) {
    return {
      ok: false,
      reason:
        e instanceof SignError ? e.message : 'the verification key is not a readable PEM public key or certificate',
    };
  }
  const kid = typeof header.kid === 'string' ? header.kid : undefined;
  if (header.alg !== alg)
    return { ok: false, reason: `JWS alg ${String(header.alg)} does not match the ${alg} key given`, kid };
  const payload = base64url.encode(new TextEncoder().encode(jsonText));
  try {
    await compactVerify(`${parts[0]}.${payload}.${parts[2]}`, key, { algorithms: [alg] });
  } catch (e) {
    const code = (e as { code?: string }).code ?? 'ERR';
    return {
      ok: false,
      reason: `signature does not verify (${code}): results.json was changed or another key signed it`,
      alg,
      kid,
    };
  }
  return { ok: true, reason: `signature verifies (${alg}${kid ? `, kid ${kid}` : ''})`, alg, kid };
}
