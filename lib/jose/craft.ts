/**
 * An independent JOSE implementation on node:crypto only (deliberately no `jose` import):
 *  - interop: sealByHand/openByHand cross-check lib/jose/index.ts against a second implementation;
 *  - the negative catalogue: envelopes jose refuses to produce (alg none, key confusion, duplicate or
 *    escaped members, two recipients/signatures, b64:false, PBES2 headers, downgraded enc...).
 * RFC 7515 (JWS), RFC 7516 (JWE), RFC 7518 §4.3 (RSA-OAEP), §5.2 (AES_CBC_HMAC_SHA2), §5.3 (AES GCM).
 */
import {
  constants,
  createCipheriv,
  createDecipheriv,
  createHmac,
  createPrivateKey,
  createPublicKey,
  privateDecrypt,
  publicEncrypt,
  randomBytes,
  sign,
  timingSafeEqual,
  verify,
  X509Certificate,
  type KeyObject,
} from 'node:crypto';

import { jwsHeadersOf, jwsPayloadOf, rememberInner } from './sent.ts';

type Json = Record<string, unknown>;

export const b64u = (data: string | Uint8Array): string => Buffer.from(data).toString('base64url');
/** strict base64url: only the URL-safe alphabet, no padding, no whitespace */
export function unb64u(s: string, what = 'value'): Buffer {
  if (typeof s !== 'string' || !/^[A-Za-z0-9_-]*$/.test(s)) throw new Error(`${what} is not base64url`);
  return Buffer.from(s, 'base64url');
}

/** parsed keys by PEM: parsing an RSA private key costs more than signing with it (~1.6 ms against ~0.6 ms) */
const publicKeys = new Map<string, KeyObject>();
const privateKeys = new Map<string, KeyObject>();

function publicKey(pem: string): KeyObject {
  let key = publicKeys.get(pem);
  if (!key) {
    key = pem.includes('-----BEGIN CERTIFICATE-----') ? new X509Certificate(pem).publicKey : createPublicKey(pem);
    publicKeys.set(pem, key);
  }
  return key;
}

function privateKey(pem: string): KeyObject {
  let key = privateKeys.get(pem);
  if (!key) {
    key = createPrivateKey(pem);
    privateKeys.set(pem, key);
  }
  return key;
}

// ---------------------------------------------------------------------------------------------------------
// JWS

export type Signer =
  | { kind: 'rsa'; alg: 'RS256' | 'RS512' | 'PS256'; privateKeyPem: string }
  | { kind: 'hmac'; alg: 'HS256'; secret: Buffer }
  | { kind: 'none' };

export interface CraftSignature {
  protectedHeader: Json;
  unprotectedHeader?: Json;
  signer: Signer;
  /** exact protected JSON text (duplicate or escaped members); protectedHeader is then ignored */
  rawProtected?: string;
  /** put this signature before the main one (e.g. an attacker's signature first) */
  first?: boolean;
}

export interface CraftJwsInput {
  payload: string | Buffer;
  protectedHeader: Json;
  unprotectedHeader?: Json;
  signer: Signer;
  form: 'general' | 'flattened' | 'compact';
  rawProtected?: string;
  extraSignatures?: CraftSignature[];
}

function signInput(input: Buffer, signer: Signer): Buffer {
  switch (signer.kind) {
    case 'none':
      return Buffer.alloc(0);
    case 'hmac':
      return createHmac('sha256', signer.secret).update(input).digest();
    case 'rsa': {
      const key = privateKey(signer.privateKeyPem);
      if (signer.alg === 'RS256') return sign('sha256', input, key);
      if (signer.alg === 'RS512') return sign('sha512', input, key);
      return sign('sha256', input, { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 });
    }
  }
}

function oneSignature(
  payloadMember: string,
  s: CraftSignature,
): { protected: string; header?: Json; signature: string } {
  const prot = b64u(s.rawProtected ?? JSON.stringify(s.protectedHeader));
  const signature = b64u(signInput(Buffer.from(`${prot}.${payloadMember}`, 'utf8'), s.signer));
  return { protected: prot, ...(s.unprotectedHeader && { header: s.unprotectedHeader }), signature };
}

/** a JWS in the requested form; the payload is base64url-encoded unless the protected header says b64:false */
export function craftJws(input: CraftJwsInput): Json | string {
  const unencoded = input.protectedHeader.b64 === false || /"b64"\s*:\s*false/.test(input.rawProtected ?? '');
  const payloadMember = unencoded ? Buffer.from(input.payload).toString('utf8') : b64u(input.payload);
  const main = oneSignature(payloadMember, input);
  if (input.form === 'compact') {
    if (input.unprotectedHeader) throw new Error('compact JWS has no unprotected header');
    return `${main.protected}.${payloadMember}.${main.signature}`;
  }
  if (input.form === 'flattened') return { payload: payloadMember, ...main };
  const before = (input.extraSignatures ?? []).filter((s) => s.first).map((s) => oneSignature(payloadMember, s));
  const after = (input.extraSignatures ?? []).filter((s) => !s.first).map((s) => oneSignature(payloadMember, s));
  return { payload: payloadMember, signatures: [...before, main, ...after] };
}

// ---------------------------------------------------------------------------------------------------------
// JWE

export type KeyAlg = 'RSA-OAEP-256' | 'RSA-OAEP' | 'RSA1_5';
export type ContentEnc = 'A256CBC-HS512' | 'A128CBC-HS256' | 'A128GCM' | 'A256GCM';

export interface CraftJweInput {
  plaintext: string | Buffer;
  /** merged over {alg, enc}: a header may lie about alg/enc (e.g. PBES2 + p2c) while the crypto uses alg/enc */
  protectedHeader?: Json;
  unprotectedHeader?: Json;
  /** per-recipient header of the main recipient */
  recipientHeader?: Json;
  recipientPublicKeyPem: string;
  alg: KeyAlg;
  enc: ContentEnc;
  form: 'general' | 'flattened' | 'compact';
  /** exact protected JSON text; protectedHeader/alg/enc are then not put in the header */
  rawProtected?: string;
  /** more recipients, each the same CEK encrypted (same alg) to recipientPublicKeyPem or to the given keys */
  extraRecipients?: number;
  extraRecipientPublicKeyPems?: string[];
}

const CEK_BYTES: Record<ContentEnc, number> = { 'A256CBC-HS512': 64, 'A128CBC-HS256': 32, A128GCM: 16, A256GCM: 32 };

function wrapCek(cek: Buffer, pem: string, alg: KeyAlg): Buffer {
  const key = publicKey(pem);
  if (alg === 'RSA1_5') return publicEncrypt({ key, padding: constants.RSA_PKCS1_PADDING }, cek);
  return publicEncrypt(
    { key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: alg === 'RSA-OAEP-256' ? 'sha256' : 'sha1' },
    cek,
  );
}

/** AL: the AAD length in bits as a 64-bit big-endian integer (RFC 7518 §5.2.2.1) */
function al(aad: Buffer): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(aad.length) * 8n);
  return b;
}

function cbcHmacParams(enc: 'A256CBC-HS512' | 'A128CBC-HS256'): { half: number; hash: string; cipher: string } {
  return enc === 'A256CBC-HS512'
    ? { half: 32, hash: 'sha512', cipher: 'aes-256-cbc' }
    : { half: 16, hash: 'sha256', cipher: 'aes-128-cbc' };
}

export function contentEncrypt(
  enc: ContentEnc,
  cek: Buffer,
  plaintext: Buffer,
  aad: Buffer,
): { iv: Buffer; ciphertext: Buffer; tag: Buffer } {
  if (enc === 'A128GCM' || enc === 'A256GCM') {
    const iv = randomBytes(12);
    const c = createCipheriv(enc === 'A128GCM' ? 'aes-128-gcm' : 'aes-256-gcm', cek, iv);
    c.setAAD(aad);
    const ciphertext = Buffer.concat([c.update(plaintext), c.final()]);
    return { iv, ciphertext, tag: c.getAuthTag() };
  }
  const { half, hash, cipher } = cbcHmacParams(enc);
  const macKey = cek.subarray(0, half);
  const encKey = cek.subarray(half);
  const iv = randomBytes(16);
  const c = createCipheriv(cipher, encKey, iv);
  const ciphertext = Buffer.concat([c.update(plaintext), c.final()]);
  const tag = createHmac(hash, macKey)
    .update(Buffer.concat([aad, iv, ciphertext, al(aad)]))
    .digest()
    .subarray(0, half);
  return { iv, ciphertext, tag };
}

export function contentDecryptCbcHmac(
  enc: 'A256CBC-HS512' | 'A128CBC-HS256',
  cek: Buffer,
  iv: Buffer,
  ciphertext: Buffer,
  tag: Buffer,
  aad: Buffer,
): Buffer {
  const { half, hash, cipher } = cbcHmacParams(enc);
  if (cek.length !== half * 2) throw new Error('CEK has the wrong length');
  const expected = createHmac(hash, cek.subarray(0, half))
    .update(Buffer.concat([aad, iv, ciphertext, al(aad)]))
    .digest()
    .subarray(0, half);
  if (tag.length !== expected.length || !timingSafeEqual(tag, expected)) throw new Error('authentication tag mismatch');
  const d = createDecipheriv(cipher, cek.subarray(half), iv);
  return Buffer.concat([d.update(ciphertext), d.final()]);
}

/** a JWE as craftJweBody builds it, its inner JWS headers remembered for the evidence (lib/jose/sent.ts) */
export function craftJwe(input: CraftJweInput): Json | string {
  // for a run's HAR: the payload of the JWS inside, or the plaintext itself when it is not a JWS (a negative case)
  const text = typeof input.plaintext === 'string' ? input.plaintext : input.plaintext.toString('utf8');
  const binary = /[\u0000-\u0008\u000e-\u001f\ufffd]/.test(text);
  const payload =
    jwsPayloadOf(text) ??
    (binary
      ? `(not a JWS: ${Buffer.byteLength(input.plaintext)} bytes of binary plaintext sealed)`
      : `(not a JWS: the plaintext sealed) ${text}`);
  return rememberInner(craftJweBody(input), jwsHeadersOf(input.plaintext), payload);
}

/** the JWE alone (sealText builds the JWS itself and remembers nothing) */
export function craftJweBody(input: CraftJweInput): Json | string {
  const protectedText =
    input.rawProtected ?? JSON.stringify({ alg: input.alg, enc: input.enc, ...input.protectedHeader });
  const prot = b64u(protectedText);
  const cek = randomBytes(CEK_BYTES[input.enc]);
  const { iv, ciphertext, tag } = contentEncrypt(
    input.enc,
    cek,
    Buffer.from(input.plaintext),
    Buffer.from(prot, 'ascii'),
  );
  const encryptedKey = b64u(wrapCek(cek, input.recipientPublicKeyPem, input.alg));
  const shared = { iv: b64u(iv), ciphertext: b64u(ciphertext), tag: b64u(tag) };
  if (input.form === 'compact') {
    if (input.unprotectedHeader || input.recipientHeader) throw new Error('compact JWE has no unprotected header');
    return `${prot}.${encryptedKey}.${shared.iv}.${shared.ciphertext}.${shared.tag}`;
  }
  const main = { ...(input.recipientHeader && { header: input.recipientHeader }), encrypted_key: encryptedKey };
  const unprotected = input.unprotectedHeader ? { unprotected: input.unprotectedHeader } : {};
  if (input.form === 'flattened') return { protected: prot, ...unprotected, ...main, ...shared };
  const extraPems = [
    ...Array.from({ length: input.extraRecipients ?? 0 }, () => input.recipientPublicKeyPem),
    ...(input.extraRecipientPublicKeyPems ?? []),
  ];
  const extras = extraPems.map((pem) => ({ encrypted_key: b64u(wrapCek(cek, pem, input.alg)) }));
  return { protected: prot, ...unprotected, recipients: [main, ...extras], ...shared };
}

// ---------------------------------------------------------------------------------------------------------
// seal / open by hand (the profile: general JWE RSA-OAEP-256/A256CBC-HS512 around general JWS RS256)

export function sealByHand(payload: unknown, keys: { signingKeyPem: string; encryptionKeyPem: string }): Json {
  const jws = craftJws({
    payload: JSON.stringify(payload),
    protectedHeader: { alg: 'RS256' },
    signer: { kind: 'rsa', alg: 'RS256', privateKeyPem: keys.signingKeyPem },
    form: 'general',
  });
  return craftJwe({
    plaintext: JSON.stringify(jws),
    recipientPublicKeyPem: keys.encryptionKeyPem,
    alg: 'RSA-OAEP-256',
    enc: 'A256CBC-HS512',
    form: 'general',
  }) as Json;
}

function asObject(v: unknown, what: string): Json {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Error(`${what} is not a JSON object`);
  return v as Json;
}

function header(b64: unknown, what: string): Json {
  if (typeof b64 !== 'string') throw new Error(`${what} protected header missing`);
  return asObject(JSON.parse(unb64u(b64, `${what} protected header`).toString('utf8')), `${what} protected header`);
}

/** decrypt then verify by hand; throws Error with the reason on any deviation from the profile */
export async function openByHand(input: {
  envelope: unknown;
  decryptionKeyPem: string;
  verificationKeyPem: string;
}): Promise<unknown> {
  const jwe = asObject(typeof input.envelope === 'string' ? JSON.parse(input.envelope) : input.envelope, 'envelope');
  if (!Array.isArray(jwe.recipients) || jwe.recipients.length !== 1)
    throw new Error('JWE must have exactly one recipient');
  if (jwe.unprotected !== undefined || jwe.aad !== undefined) throw new Error('JWE unprotected/aad not supported here');
  const recipient = asObject(jwe.recipients[0], 'recipient');
  const jweHeader = header(jwe.protected, 'JWE');
  if (jweHeader.alg !== 'RSA-OAEP-256' || jweHeader.enc !== 'A256CBC-HS512')
    throw new Error(`JWE alg/enc ${String(jweHeader.alg)}/${String(jweHeader.enc)}`);
  if (jweHeader.zip !== undefined || jweHeader.crit !== undefined) throw new Error('JWE zip/crit not supported');
  if (recipient.header !== undefined) throw new Error('recipient header not supported here');
  const cek = privateDecrypt(
    { key: privateKey(input.decryptionKeyPem), padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
    unb64u(recipient.encrypted_key as string, 'encrypted_key'),
  );
  const plaintext = contentDecryptCbcHmac(
    'A256CBC-HS512',
    cek,
    unb64u(jwe.iv as string, 'iv'),
    unb64u(jwe.ciphertext as string, 'ciphertext'),
    unb64u(jwe.tag as string, 'tag'),
    Buffer.from(jwe.protected as string, 'ascii'),
  );
  const jws = asObject(JSON.parse(plaintext.toString('utf8')), 'JWS');
  if (!Array.isArray(jws.signatures) || jws.signatures.length !== 1)
    throw new Error('JWS must have exactly one signature');
  const s = asObject(jws.signatures[0], 'signature');
  const jwsHeader = header(s.protected, 'JWS');
  if (jwsHeader.alg !== 'RS256') throw new Error(`JWS alg ${String(jwsHeader.alg)}`);
  if (jwsHeader.crit !== undefined || jwsHeader.b64 !== undefined) throw new Error('JWS crit/b64 not supported');
  if (typeof jws.payload !== 'string') throw new Error('JWS payload missing');
  const ok = verify(
    'sha256',
    Buffer.from(`${String(s.protected)}.${jws.payload}`, 'ascii'),
    publicKey(input.verificationKeyPem),
    unb64u(s.signature as string, 'signature'),
  );
  if (!ok) throw new Error('signature does not verify');
  return JSON.parse(unb64u(jws.payload, 'payload').toString('utf8'));
}

// ---------------------------------------------------------------------------------------------------------
// tamper

export type TamperField = 'protected' | 'iv' | 'ciphertext' | 'tag' | 'encrypted_key';

/**
 * flip one bit (the low bit) of one byte of the decoded field and re-encode; returns a new object.
 * Default byte: the last one, except for `protected`, where it is the last character of the last string
 * value (the JSON stays valid: with a trailing kid this breaks only the AAD; without one it changes enc).
 */
export function tamper(envelope: Json, field: TamperField, byteIndex?: number): Json {
  const copy = JSON.parse(JSON.stringify(envelope)) as Json;
  const holder: Json =
    field === 'encrypted_key' && Array.isArray(copy.recipients) ? asObject(copy.recipients[0], 'recipient') : copy;
  const value = holder[field];
  if (typeof value !== 'string') throw new Error(`no ${field} to tamper with`);
  const bytes = Buffer.from(value, 'base64url');
  if (bytes.length === 0) throw new Error(`${field} is empty`);
  let i = byteIndex ?? bytes.length - 1;
  if (byteIndex === undefined && field === 'protected') {
    const text = bytes.toString('latin1');
    const close = text.lastIndexOf('"');
    if (close > 0) i = close - 1;
  }
  bytes[i] = (bytes[i] ?? 0) ^ 1;
  holder[field] = b64u(bytes);
  return copy;
}
