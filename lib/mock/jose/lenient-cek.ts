/**
 * The JWE crypto of the lenient opener (lenient-open.ts) on node:crypto, below the JOSE reading: the content key
 * unwrapped with a key management algorithm, the content decrypted with a content encryption, the authentication
 * tag checked or (a relaxation) not. What a header says and whether a rule allows it is lenient-open.ts's concern.
 */
import { constants, createDecipheriv, createHmac, privateDecrypt, timingSafeEqual, type KeyObject } from 'node:crypto';
import forge from 'node-forge';

/** the key management algorithms the lenient opener can process: the OAEP hash, or PKCS#1 v1.5 */
export const KEY_ALGS: Readonly<Record<string, string | 'pkcs1'>> = {
  'RSA-OAEP-256': 'sha256',
  'RSA-OAEP': 'sha1',
  'RSA-OAEP-384': 'sha384',
  'RSA-OAEP-512': 'sha512',
  RSA1_5: 'pkcs1',
};

export interface EncSpec {
  kind: 'cbc' | 'gcm';
  /** the content key's length */
  bytes: number;
}

/** the content encryptions the lenient opener can process */
export const ENCS: Readonly<Record<string, EncSpec>> = {
  'A256CBC-HS512': { kind: 'cbc', bytes: 64 },
  'A192CBC-HS384': { kind: 'cbc', bytes: 48 },
  'A128CBC-HS256': { kind: 'cbc', bytes: 32 },
  A256GCM: { kind: 'gcm', bytes: 32 },
  A192GCM: { kind: 'gcm', bytes: 24 },
  A128GCM: { kind: 'gcm', bytes: 16 },
};

/** a private key the bank decrypts with, and its PEM (forge reads the PEM for RSA1_5) */
export interface DecryptionKey {
  key: KeyObject;
  pem: string;
}

/** the content key, unwrapped with the first key that gives one of the right length */
export function unwrapCek(
  hash: string,
  bytes: number,
  encryptedKey: Buffer,
  keys: readonly DecryptionKey[],
): Buffer | undefined {
  for (const k of keys) {
    try {
      let cek: Buffer;
      if (hash === 'pkcs1') {
        // Node refuses PKCS#1 v1.5 decryption (CVE-2023-46809): the RSA1_5 fault decrypts with forge
        const priv = forge.pki.privateKeyFromPem(k.pem) as forge.pki.rsa.PrivateKey;
        cek = Buffer.from(priv.decrypt(encryptedKey.toString('binary'), 'RSAES-PKCS1-V1_5'), 'binary');
      } else {
        cek = privateDecrypt({ key: k.key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: hash }, encryptedKey);
      }
      if (cek.length === bytes) return cek;
    } catch {
      /* the next key */
    }
  }
  return undefined;
}

export interface Sealed {
  iv: Buffer;
  ciphertext: Buffer;
  tag: Buffer;
  /** the additional authenticated data (the protected header, and the aad member) */
  aad: Buffer;
}

/**
 * the plaintext, or why not: `tag` an A*CBC-HS* tag that does not verify (checked first), `decryption` anything
 * else (an AES-GCM tag that does not verify among it). `checkTag` false: the tag is not checked.
 */
export function decryptContent(
  spec: EncSpec,
  cek: Buffer,
  s: Sealed,
  checkTag: boolean,
): { ok: true; plaintext: Buffer } | { ok: false; failure: 'tag' | 'decryption' } {
  try {
    if (spec.kind === 'gcm') {
      const d = createDecipheriv(`aes-${spec.bytes * 8}-gcm` as 'aes-256-gcm', cek, s.iv);
      d.setAAD(s.aad);
      d.setAuthTag(s.tag.length === 16 ? s.tag : Buffer.alloc(16));
      const out = d.update(s.ciphertext);
      return { ok: true, plaintext: checkTag ? Buffer.concat([out, d.final()]) : out };
    }
    const half = spec.bytes / 2;
    if (checkTag) {
      const al = Buffer.alloc(8);
      al.writeBigUInt64BE(BigInt(s.aad.length * 8));
      const expected = createHmac(`sha${half * 16}`, cek.subarray(0, half))
        .update(Buffer.concat([s.aad, s.iv, s.ciphertext, al]))
        .digest()
        .subarray(0, half);
      if (s.tag.length !== expected.length || !timingSafeEqual(s.tag, expected)) return { ok: false, failure: 'tag' };
    }
    const d = createDecipheriv(`aes-${half * 8}-cbc`, cek.subarray(half), s.iv);
    return { ok: true, plaintext: Buffer.concat([d.update(s.ciphertext), d.final()]) };
  } catch {
    return { ok: false, failure: 'decryption' };
  }
}
