/**
 * The mock opener's fast path (open-sealed.ts): the one envelope shape a conformant client sends — general JSON,
 * one recipient, protected header {alg RSA-OAEP-256, enc A256CBC-HS512} and nothing else; one signature, protected
 * header {alg RS256} and nothing else; base64url without padding or spaces — opened with node:crypto in one go.
 * jose (WebCrypto) takes a dozen thread-pool round trips for the same work, which cost the mock more CPU than its two
 * RSA private-key operations (npm run bench -- --load); here the RSA decryption is the one thread-pool job.
 *
 * It only ever accepts: anything else in the shape, and any failure (decryption, tag, padding, signature), answers
 * undefined and jose decides, so every refusal and every unusual envelope is still jose's. What it accepts, jose
 * accepts with the same bytes (test/mock/open-fast.test.ts): the same pinned algorithms and keys (RSA, 2048 bits or
 * more), the key lengths jose requires (a 64-byte content key, a 16-byte IV, a 32-byte tag), the RFC 7518 §5.2
 * tag (HMAC-SHA-512 over AAD, IV, ciphertext and AAD length, first half) compared in constant time, the RFC 7515
 * §5.2 signing input.
 */
import { createDecipheriv, createHmac, timingSafeEqual, verify, webcrypto, type KeyObject } from 'node:crypto';

type Json = Record<string, unknown>;

const B64URL = /^[A-Za-z0-9_-]*$/;
/** UTF-8 as jose reads a header (fatal: no replacement characters); one decoder, each decode() a whole text */
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** base64url without padding or spaces (a subset of what jose decodes, to the same bytes); undefined otherwise */
function bytes(v: unknown): Buffer | undefined {
  if (typeof v !== 'string' || !B64URL.test(v) || v.length % 4 === 1) return undefined;
  return Buffer.from(v, 'base64url');
}

/** exactly these member names */
function only(o: Json, names: readonly string[]): boolean {
  const keys = Object.keys(o);
  return keys.length === names.length && names.every((n) => Object.hasOwn(o, n));
}

/** a protected header that decodes (as jose reads it: JSON.parse) to exactly `expected` */
function headerIs(b64: unknown, expected: Record<string, string>): boolean {
  const raw = bytes(b64);
  if (!raw) return false;
  let h: unknown;
  try {
    h = JSON.parse(utf8.decode(raw));
  } catch {
    return false;
  }
  if (typeof h !== 'object' || h === null || Array.isArray(h)) return false;
  const names = Object.keys(expected);
  return only(h as Json, names) && names.every((n) => (h as Json)[n] === expected[n]);
}

function rsa2048(key: KeyObject): boolean {
  return key.asymmetricKeyType === 'rsa' && (key.asymmetricKeyDetails?.modulusLength ?? 0) >= 2048;
}

/**
 * the private key as a WebCrypto RSA-OAEP (SHA-256) key, imported once: its decryption then runs on libuv's thread
 * pool (one job), not on the mock's thread, which is left its JavaScript (npm run bench -- --load: the mock's thread
 * was the bottleneck of the sealed validate loop, a third of its time in this one RSA operation)
 */
const oaepKeys = new WeakMap<KeyObject, Promise<webcrypto.CryptoKey>>();
/** the imported keys once imported (no await on the way to the decryption) */
const importedKeys = new WeakMap<KeyObject, webcrypto.CryptoKey>();
function oaepKey(key: KeyObject): webcrypto.CryptoKey | Promise<webcrypto.CryptoKey> {
  const imported = importedKeys.get(key);
  if (imported) return imported;
  let k = oaepKeys.get(key);
  if (!k) {
    k = webcrypto.subtle
      .importKey('pkcs8', key.export({ type: 'pkcs8', format: 'der' }), { name: 'RSA-OAEP', hash: 'SHA-256' }, false, [
        'decrypt',
      ])
      .then((c) => {
        importedKeys.set(key, c);
        return c;
      });
    oaepKeys.set(key, k);
  }
  return k;
}

const OAEP = { name: 'RSA-OAEP' } as const;

/** the plaintext of a canonical JWE with its one recipient `r`; undefined: let jose decide */
export async function decryptCanonical(jwe: Json, r: Json, key: KeyObject): Promise<Uint8Array | undefined> {
  if (!only(jwe, ['protected', 'recipients', 'iv', 'ciphertext', 'tag']) || !only(r, ['encrypted_key'])) return;
  if (!Array.isArray(jwe.recipients) || jwe.recipients.length !== 1 || jwe.recipients[0] !== r) return;
  if (!headerIs(jwe.protected, { alg: 'RSA-OAEP-256', enc: 'A256CBC-HS512' }) || !rsa2048(key)) return;
  const [ek, iv, ciphertext, tag] = [bytes(r.encrypted_key), bytes(jwe.iv), bytes(jwe.ciphertext), bytes(jwe.tag)];
  if (!ek || !iv || !ciphertext || !tag || iv.length !== 16 || tag.length !== 32) return;
  try {
    const k = oaepKey(key);
    const cek = Buffer.from(await webcrypto.subtle.decrypt(OAEP, k instanceof Promise ? await k : k, ek));
    if (cek.length !== 64) return;
    const aad = Buffer.from(jwe.protected as string, 'ascii');
    const al = Buffer.alloc(8);
    al.writeBigUInt64BE(BigInt(aad.length * 8));
    const mac = createHmac('sha512', cek.subarray(0, 32)).update(aad).update(iv).update(ciphertext).update(al);
    if (!timingSafeEqual(mac.digest().subarray(0, 32), tag)) return;
    const d = createDecipheriv('aes-256-cbc', cek.subarray(32), iv);
    return Buffer.concat([d.update(ciphertext), d.final()]);
  } catch {
    return;
  }
}

/** the payload of a canonical JWS with its one signature `s`; undefined: let jose decide */
export function verifyCanonical(jws: Json, s: Json, key: KeyObject): Uint8Array | undefined {
  if (!only(jws, ['payload', 'signatures']) || !only(s, ['protected', 'signature'])) return;
  if (!Array.isArray(jws.signatures) || jws.signatures.length !== 1 || jws.signatures[0] !== s) return;
  if (!headerIs(s.protected, { alg: 'RS256' }) || !rsa2048(key)) return;
  const [payload, signature] = [bytes(jws.payload), bytes(s.signature)];
  if (!payload || !signature) return;
  try {
    const input = Buffer.from(`${s.protected as string}.${jws.payload as string}`, 'ascii');
    return verify('sha256', input, key, signature) ? payload : undefined;
  } catch {
    return;
  }
}
