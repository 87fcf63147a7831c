/**
 * The clean mock's response envelope, the mock's own (the harness opens it with jose: an interop check too): general
 * JWS RS256 ({"alg":"RS256"}) inside general JWE RSA-OAEP-256 + A256CBC-HS512 ({"alg":"RSA-OAEP-256",
 * "enc":"A256CBC-HS512"}), nothing unprotected, one recipient — the shape lib/jose's sealer makes, built on node:crypto
 * as JSON text in one go. The RSA signature is one job on libuv's thread pool; while it runs, the content key is drawn
 * and wrapped for the client (RSA-OAEP-256 with its public key), so the mock's thread does that work meanwhile. RFC
 * 7515 §5.1 (signing input), RFC 7516 §5.1 (AAD = the protected header's base64url), RFC 7518 §5.2 (MAC key the first
 * half of the 64-byte content key, AES-256-CBC key the second, tag the first 32 bytes of HMAC-SHA-512 over AAD, IV,
 * ciphertext and the AAD's length in bits).
 */
import { constants, createCipheriv, createHmac, publicEncrypt, randomBytes, sign, type KeyObject } from 'node:crypto';
import { JsonText } from '../server/http.ts';

const JWS_PROTECTED = Buffer.from('{"alg":"RS256"}', 'utf8').toString('base64url');
const JWE_PROTECTED = Buffer.from('{"alg":"RSA-OAEP-256","enc":"A256CBC-HS512"}', 'utf8').toString('base64url');
const AAD = Buffer.from(JWE_PROTECTED, 'ascii');
/** AL: the AAD's length in bits, 64-bit big-endian */
const AL = Buffer.alloc(8);
AL.writeBigUInt64BE(BigInt(AAD.length * 8));

/** a content key (64 bytes) and an IV (16) */
const DRAW = 80;
/** random bytes drawn for this many answers at once (one randomBytes call, where each was one job a call) */
const BLOCK = DRAW * 64;
let block = Buffer.alloc(0);
let next = 0;

/**
 * the next unused 80 random bytes of a block from randomBytes; a block is never written again (an answer still being
 * sealed keeps its slice), a used-up one is replaced by a new one
 */
function drawKeyAndIv(): Buffer {
  if (next + DRAW > block.length) {
    block = randomBytes(BLOCK);
    next = 0;
  }
  next += DRAW;
  return block.subarray(next - DRAW, next);
}

function signRs256(input: Buffer, key: KeyObject): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    sign('sha256', input, key, (err, signature) => (err ? reject(err) : resolve(signature)));
  });
}

/**
 * `text` (JSON) signed with `signingKey` and encrypted to `encryptionKey` (RSA keys of 2048 bits or more: the caller
 * answers a weaker client in plain JSON); the envelope as JSON text, sent as it is
 */
export async function sealCleanText(text: string, signingKey: KeyObject, encryptionKey: KeyObject): Promise<JsonText> {
  const payload = Buffer.from(text, 'utf8').toString('base64url');
  const signing = signRs256(Buffer.from(`${JWS_PROTECTED}.${payload}`, 'ascii'), signingKey);
  // the content key and IV drawn, the key wrapped, while the signature is computed
  const random = drawKeyAndIv();
  const cek = random.subarray(0, 64);
  const iv = random.subarray(64);
  let encryptedKey: Buffer;
  try {
    encryptedKey = publicEncrypt(
      { key: encryptionKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
      cek,
    );
  } catch (e) {
    signing.catch(() => undefined);
    throw e;
  }
  const signature = (await signing).toString('base64url');
  const jws = `{"payload":"${payload}","signatures":[{"protected":"${JWS_PROTECTED}","signature":"${signature}"}]}`;
  const cipher = createCipheriv('aes-256-cbc', cek.subarray(32), iv);
  const ciphertext = Buffer.concat([cipher.update(jws, 'utf8'), cipher.final()]);
  const tag = createHmac('sha512', cek.subarray(0, 32))
    .update(AAD)
    .update(iv)
    .update(ciphertext)
    .update(AL)
    .digest()
    .subarray(0, 32);
  return new JsonText(
    `{"protected":"${JWE_PROTECTED}","recipients":[{"encrypted_key":"${encryptedKey.toString('base64url')}"}],` +
      `"iv":"${iv.toString('base64url')}","ciphertext":"${ciphertext.toString('base64url')}","tag":"${tag.toString('base64url')}"}`,
  );
}
