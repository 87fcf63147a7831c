/**
 * The harness opener's fast path (open.ts): the canonical layer a conformant bank answers with — a JWE recipient
 * whose members are exactly protected, encrypted_key, iv, ciphertext and tag, its protected header exactly
 * {alg RSA-OAEP-256, enc A256CBC-HS512}; a JWS signature whose members are exactly protected, payload and signature,
 * its protected header exactly {alg RS256}; base64url without padding or spaces — opened with node:crypto in one go.
 * jose (WebCrypto) takes about six thread-pool round trips to open one response (the RSA decryption, the AES and
 * HMAC steps, a key generated for its constant-time comparison, the signature), which cost the harness's main
 * thread, the run's bottleneck, more than the RSA operation itself (docs/performance.md); here the RSA decryption is
 * the one thread-pool job and the rest is synchronous.
 *
 * It only ever accepts: anything else in the shape, and any failure (decryption, tag, padding, signature), answers
 * undefined and jose decides, so every refusal and every unusual envelope is still jose's, and so are the verdicts
 * that rest on one. What it accepts, jose accepts with the same bytes (test/jose/open-fast.test.ts): the same
 * pinned algorithms and key (RSA, 2048 bits or more), the lengths jose requires (a 64-byte content key, a 16-byte
 * IV, a 32-byte tag), the RFC 7518 §5.2 tag (HMAC-SHA-512 over AAD, IV, ciphertext and AAD length, first half)
 * compared in constant time, the RFC 7515 §5.2 signing input. The header policy (policy.ts) has run before it, as
 * before jose. Written apart from the mock's own fast path (lib/mock/jose/open-fast.ts): the bank never shares the code
 * that judges it.
 */
import { createDecipheriv, createHmac, timingSafeEqual, verify, webcrypto, type KeyObject } from 'node:crypto';
import { isObject, strictUtf8, type Json } from './json.ts';
import { JWE_ALG, JWE_ENC, JWS_ALG } from './types.ts';

const B64URL = /^[A-Za-z0-9_-]*$/;

/** base64url without padding or spaces (a subset of what jose decodes, to the same bytes); undefined otherwise */
function bytes(v: unknown): Buffer | undefined {
  if (typeof v !== 'string' || !B64URL.test(v) || v.length % 4 === 1) return undefined;
  return Buffer.from(v, 'base64url');
}

/** exactly these member names, each a string */
function onlyStrings(o: Json, names: readonly string[]): boolean {
  const keys = Object.keys(o);
  return keys.length === names.length && names.every((n) => Object.hasOwn(o, n) && typeof o[n] === 'string');
}

/** a protected header that decodes (as jose reads it: UTF-8, JSON.parse) to exactly `expected` */
function headerIs(b64: unknown, expected: Record<string, string>): boolean {
  const raw = bytes(b64);
  if (!raw) return false;
  let h: unknown;
  try {
    h = JSON.parse(strictUtf8.decode(raw));
  } catch {
    return false;
  }
  if (!isObject(h)) return false;
  const names = Object.keys(expected);
  return Object.keys(h).length === names.length && names.every((n) => Object.hasOwn(h, n) && h[n] === expected[n]);
}

function rsa2048(key: KeyObject, type: 'private' | 'public'): boolean {
  return key.type === type && key.asymmetricKeyType === 'rsa' && (key.asymmetricKeyDetails?.modulusLength ?? 0) >= 2048;
}

/** the private key as a WebCrypto RSA-OAEP (SHA-256) key, imported once: its decryption runs on the thread pool */
const oaepKeys = new WeakMap<KeyObject, Promise<webcrypto.CryptoKey>>();
function oaepKey(key: KeyObject): Promise<webcrypto.CryptoKey> {
  let k = oaepKeys.get(key);
  if (!k) {
    k = webcrypto.subtle.importKey(
      'pkcs8',
      key.export({ type: 'pkcs8', format: 'der' }),
      { name: 'RSA-OAEP', hash: 'SHA-256' },
      false,
      ['decrypt'],
    );
    oaepKeys.set(key, k);
  }
  return k;
}

const JWE_MEMBERS = ['protected', 'encrypted_key', 'iv', 'ciphertext', 'tag'] as const;
const JWS_MEMBERS = ['protected', 'payload', 'signature'] as const;

/** the plaintext of a canonical JWE recipient (flattened members, as open.ts hands them to jose); undefined: jose decides */
export async function decryptCanonical(members: Json, key: KeyObject): Promise<Uint8Array | undefined> {
  if (!onlyStrings(members, JWE_MEMBERS) || !rsa2048(key, 'private')) return undefined;
  if (!headerIs(members.protected, { alg: JWE_ALG, enc: JWE_ENC })) return undefined;
  const [ek, iv, ciphertext, tag] = [
    bytes(members.encrypted_key),
    bytes(members.iv),
    bytes(members.ciphertext),
    bytes(members.tag),
  ];
  if (!ek || !iv || !ciphertext || !tag || ek.length === 0 || iv.length !== 16 || tag.length !== 32) return undefined;
  try {
    const cek = Buffer.from(await webcrypto.subtle.decrypt({ name: 'RSA-OAEP' }, await oaepKey(key), ek));
    if (cek.length !== 64) return undefined;
    const aad = Buffer.from(members.protected as string, 'ascii');
    const al = Buffer.alloc(8);
    al.writeBigUInt64BE(BigInt(aad.length * 8));
    const mac = createHmac('sha512', cek.subarray(0, 32)).update(aad).update(iv).update(ciphertext).update(al);
    if (!timingSafeEqual(mac.digest().subarray(0, 32), tag)) return undefined;
    const d = createDecipheriv('aes-256-cbc', cek.subarray(32), iv);
    return Buffer.concat([d.update(ciphertext), d.final()]);
  } catch {
    return undefined;
  }
}

/** the payload of a canonical JWS signature (flattened members, as open.ts hands them to jose); undefined: jose decides */
export function verifyCanonical(members: Json, key: KeyObject): Uint8Array | undefined {
  if (!onlyStrings(members, JWS_MEMBERS) || !rsa2048(key, 'public')) return undefined;
  if (!headerIs(members.protected, { alg: JWS_ALG })) return undefined;
  const [payload, signature] = [bytes(members.payload), bytes(members.signature)];
  if (!payload || !signature) return undefined;
  try {
    const input = Buffer.from(`${members.protected as string}.${members.payload as string}`, 'ascii');
    return verify('sha256', input, key, signature) ? payload : undefined;
  } catch {
    return undefined;
  }
}
