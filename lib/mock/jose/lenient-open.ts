/**
 * A deliberately relaxable opener (its own crypto on node:crypto), used ONLY while a JOSE fault is switched on:
 * each relaxation breaks one rule of the contract (algorithm allow-lists, general form, pinned key,
 * authentication tag, ...) and keeps every other rule as the clean opener's rules have it (open-sealed.ts, which
 * the mock uses with no such fault on: zip, several recipients or signatures and last-wins duplicates only where
 * those rules allow them). The keys a JWS may verify with are lenient-keys.ts's.
 */
import {
  constants,
  createDecipheriv,
  createHmac,
  pbkdf2Sync,
  privateDecrypt,
  timingSafeEqual,
  type KeyObject,
} from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import forge from 'node-forge';
import { JsonRefused, readJson } from './jose-json.ts';
import { JWS_ALGS, verifyWithAnyKey } from './lenient-keys.ts';
import { canonicalB64u, spelled } from './spelling.ts';

type Json = Record<string, unknown>;

export interface Relaxations {
  /** plain JSON (no JOSE at all) is accepted */
  plain?: boolean;
  anyJwsAlg?: boolean;
  anyKeyAlg?: boolean;
  anyEnc?: boolean;
  flattened?: boolean;
  /** the JWS signature is not verified */
  skipSignature?: boolean;
  ignoreTag?: boolean;
  /** a JWE whose plaintext is plain JSON */
  unsigned?: boolean;
  /** a bare JWS (not encrypted) */
  unencrypted?: boolean;
  headerJwk?: boolean;
  fetchJku?: boolean;
  ignoreCrit?: boolean;
  /** an x5u (loopback only) is fetched and its certificate key trusted */
  fetchX5u?: boolean;
  /** the x5c leaf certificate's key is trusted */
  headerX5c?: boolean;
  /** HS256 is verified with the client's public key PEM as the HMAC secret (key confusion) */
  hs256?: boolean;
  /** a PBES2 header is processed before the alg allow-list (key derivation, ending in 500) */
  pbes2?: boolean;
  /** the compact serializations are accepted */
  compact?: boolean;
  /** an authentication tag that does not verify surfaces as 500 (an error oracle) instead of a refusal */
  tag500?: boolean;
  /** several recipients are accepted, and the tag is checked only when the first one gives the content key */
  tagFirstRecipientOnly?: boolean;
  // what the clean opener's rules allow besides (open-sealed.ts OpenRules: the lenient mock, the hardening faults),
  // so that a relaxation switched on with them does not take them back
  /** a JWE with zip DEF: its plaintext inflated (at most 1 MiB) */
  zip?: boolean;
  /** several recipients or signatures: the first that opens is used */
  several?: boolean;
  /** a member name written twice: the last value taken (refused otherwise) */
  lastWins?: boolean;
  /** a member written in a second spelling of its bytes: read as those bytes (spelling.ts `read`; refused otherwise) */
  readSpellings?: boolean;
}

export interface LenientKeys {
  /** tried in order; the first that unwraps the CEK is used */
  decryptionKeys: { key: KeyObject; pem: string }[];
  verificationKey: KeyObject;
}

export type LenientResult = { ok: true; payload: unknown } | { ok: false; reason: string; status?: 500 };

const KEY_ALGS: Record<string, string | 'pkcs1'> = {
  'RSA-OAEP-256': 'sha256',
  'RSA-OAEP': 'sha1',
  'RSA-OAEP-384': 'sha384',
  'RSA-OAEP-512': 'sha512',
  RSA1_5: 'pkcs1',
};
const ENCS: Record<string, { kind: 'cbc' | 'gcm'; bytes: number }> = {
  'A256CBC-HS512': { kind: 'cbc', bytes: 64 },
  'A192CBC-HS384': { kind: 'cbc', bytes: 48 },
  'A128CBC-HS256': { kind: 'cbc', bytes: 32 },
  A256GCM: { kind: 'gcm', bytes: 32 },
  A192GCM: { kind: 'gcm', bytes: 24 },
  A128GCM: { kind: 'gcm', bytes: 16 },
};

class Refused extends Error {
  constructor(
    reason: string,
    readonly status?: 500,
  ) {
    super(reason);
  }
}
const refuse = (reason: string, status?: 500): never => {
  throw new Refused(reason, status);
};

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** a member's bytes, written canonically only (as strict as the clean mock: a second spelling is refused, HARD-07) */
function b64(s: unknown, what: string): Buffer {
  if (typeof s !== 'string' || !canonicalB64u(s)) refuse(`${what} is not canonical base64url`);
  return Buffer.from(s as string, 'base64url');
}

/** JSON as strict as the clean mock: duplicate member names are refused (the last taken where the rules allow it) */
function strictJson(text: string, what: string, relax: Relaxations): unknown {
  try {
    return readJson(text, relax.lastWins ? 'last-wins' : 'refuse', what);
  } catch (e) {
    return refuse(e instanceof JsonRefused ? e.message : `${what} is not valid JSON`);
  }
}

function decodeHeader(s: unknown, what: string, relax: Relaxations): Json {
  if (s === undefined) return {};
  const v = strictJson(b64(s, what).toString('utf8'), what, relax);
  if (!isObject(v)) refuse(`${what} is not an object`);
  return v as Json;
}

function merge(parts: (Json | undefined)[]): Json {
  const out: Json = {};
  for (const p of parts) {
    if (p === undefined) continue;
    if (!isObject(p)) refuse('a header is not an object');
    for (const [k, v] of Object.entries(p)) {
      if (Object.hasOwn(out, k)) refuse(`header parameter ${k} appears twice`);
      out[k] = v;
    }
  }
  return out;
}

const isJwe = (o: Json): boolean => 'recipients' in o || 'ciphertext' in o;
const isJws = (o: Json): boolean => 'signatures' in o || ('payload' in o && 'signature' in o);

export async function lenientOpen(text: string, keys: LenientKeys, relax: Relaxations): Promise<LenientResult> {
  try {
    return { ok: true, payload: await openText(text, keys, relax) };
  } catch (e) {
    if (e instanceof Refused) return { ok: false, reason: e.message, ...(e.status ? { status: e.status } : {}) };
    return { ok: false, reason: 'the sealed body could not be opened' };
  }
}

const COMPACT_JWE = /^[A-Za-z0-9_-]*(\.[A-Za-z0-9_-]*){4}$/;
const COMPACT_JWS = /^[A-Za-z0-9_-]*(\.[A-Za-z0-9_-]*){2}$/;

/** the compact serializations as the JSON ones (the jose-accept-compact / jose-accept-unencrypted faults) */
function fromCompact(text: string, relax: Relaxations): Json | undefined {
  const t = text.trim();
  const p = t.split('.');
  if (relax.compact && COMPACT_JWE.test(t))
    return { protected: p[0], recipients: [{ encrypted_key: p[1] }], iv: p[2], ciphertext: p[3], tag: p[4] };
  if (relax.unencrypted && COMPACT_JWS.test(t))
    return { payload: p[1], signatures: [{ protected: p[0], signature: p[2] }] };
  return undefined;
}

/** `o` with its members written canonically when the rules read a second spelling (else as it is: b64 refuses one) */
const read = (o: Json, layer: 'jwe' | 'jws', relax: Relaxations): Json =>
  relax.readSpellings ? spelled(o, layer, 'read') : o;

async function openText(text: string, keys: LenientKeys, relax: Relaxations): Promise<unknown> {
  const top = fromCompact(text, relax) ?? strictJson(text, 'the body', relax);
  if (!isObject(top)) return refuse('the body is not a JSON object');
  if (!isJwe(top)) {
    if (isJws(top))
      return relax.unencrypted
        ? verifyJws(read(top, 'jws', relax), keys, relax)
        : refuse('the body is signed but not encrypted');
    return relax.plain ? top : refuse('the body is not sealed');
  }
  const plaintext = decryptJwe(read(top, 'jwe', relax), keys, relax).toString('utf8');
  const inner = strictJson(plaintext, 'the plaintext', relax);
  if (isObject(inner) && isJws(inner)) return verifyJws(read(inner, 'jws', relax), keys, relax);
  return relax.unsigned ? inner : refuse('the plaintext is not a JWS');
}

/** the recipients a JWE names: exactly one, or (the jose-tag-unchecked-other-recipient fault) several */
function recipientsOf(jwe: Json, relax: Relaxations): Json[] {
  if (!Array.isArray(jwe.recipients)) {
    if (!relax.flattened) refuse('flattened JWE JSON is refused');
    return [{ header: jwe.header, encrypted_key: jwe.encrypted_key }];
  }
  const several = (relax.tagFirstRecipientOnly === true || relax.several === true) && jwe.recipients.length > 1;
  if ((jwe.recipients.length !== 1 && !several) || !jwe.recipients.every(isObject))
    refuse('exactly one recipient is required');
  if ('encrypted_key' in jwe || 'header' in jwe) refuse('flattened members beside recipients');
  return jwe.recipients as Json[];
}

/** the content key of one recipient, its header checked: the first recipient that gives one is used */
function contentKey(
  jwe: Json,
  recipient: Json,
  keys: LenientKeys,
  relax: Relaxations,
): { cek: Buffer; enc: string; zip: boolean } {
  const header = merge([
    decodeHeader(jwe.protected, 'JWE protected header', relax),
    jwe.unprotected as Json | undefined,
    recipient.header as Json | undefined,
  ]);
  const alg = String(header.alg);
  const enc = String(header.enc);
  if (relax.pbes2 && alg.startsWith('PBES2')) derivePbes2(header);
  if (!(alg in KEY_ALGS) || (alg !== 'RSA-OAEP-256' && !relax.anyKeyAlg)) refuse(`JWE alg ${alg} is refused`);
  const spec = ENCS[enc];
  if (!spec || (enc !== 'A256CBC-HS512' && !relax.anyEnc)) return refuse(`JWE enc ${enc} is refused`);
  if ('zip' in header && !(relax.zip && header.zip === 'DEF')) refuse('JWE zip is refused');
  if ('crit' in header && !relax.ignoreCrit) refuse('JWE crit is refused');
  const cek = unwrapCek(KEY_ALGS[alg]!, spec.bytes, b64(recipient.encrypted_key, 'encrypted_key'), keys);
  return cek ? { cek, enc, zip: 'zip' in header } : refuse('the content encryption key could not be decrypted');
}

function decryptJwe(jwe: Json, keys: LenientKeys, relax: Relaxations): Buffer {
  const opened = openedKey(jwe, keys, relax);
  const plaintext = decryptWith(jwe, opened, relax);
  if (!opened.zip) return plaintext;
  try {
    return inflateRawSync(plaintext, { maxOutputLength: 1024 * 1024 });
  } catch {
    return refuse('the compressed plaintext could not be inflated');
  }
}

type Opened = { cek: Buffer; enc: string; zip: boolean; index: number };

function openedKey(jwe: Json, keys: LenientKeys, relax: Relaxations): Opened {
  let opened: Opened | undefined;
  let firstRefusal: unknown;
  for (const [index, recipient] of recipientsOf(jwe, relax).entries()) {
    try {
      opened = { ...contentKey(jwe, recipient, keys, relax), index };
      break;
    } catch (e) {
      firstRefusal ??= e;
    }
  }
  if (!opened) throw firstRefusal;
  return opened;
}

function decryptWith(jwe: Json, opened: Opened, relax: Relaxations): Buffer {
  const { cek, enc } = opened;
  const spec = ENCS[enc]!;
  // the jose-tag-unchecked-other-recipient fault: the tag is checked only when the first recipient gave the key
  const ignoreTag = relax.ignoreTag === true || (relax.tagFirstRecipientOnly === true && opened.index > 0);

  const iv = b64(jwe.iv, 'iv');
  const ciphertext = b64(jwe.ciphertext, 'ciphertext');
  const tag = b64(jwe.tag, 'tag');
  const aadText = typeof jwe.protected === 'string' ? jwe.protected : '';
  const aad = Buffer.from(typeof jwe.aad === 'string' ? `${aadText}.${jwe.aad}` : aadText, 'ascii');

  try {
    if (spec.kind === 'gcm') {
      const d = createDecipheriv(`aes-${spec.bytes * 8}-gcm` as 'aes-256-gcm', cek, iv);
      d.setAAD(aad);
      d.setAuthTag(tag.length === 16 ? tag : Buffer.alloc(16));
      const out = d.update(ciphertext);
      if (ignoreTag) return out;
      return Buffer.concat([out, d.final()]);
    }
    const half = spec.bytes / 2;
    const hash = `sha${half * 16}`;
    if (!ignoreTag) {
      const al = Buffer.alloc(8);
      al.writeBigUInt64BE(BigInt(aad.length * 8));
      const expected = createHmac(hash, cek.subarray(0, half))
        .update(Buffer.concat([aad, iv, ciphertext, al]))
        .digest()
        .subarray(0, half);
      if (tag.length !== expected.length || !timingSafeEqual(tag, expected))
        refuse('the authentication tag does not verify', relax.tag500 ? 500 : undefined);
    }
    const d = createDecipheriv(`aes-${half * 8}-cbc`, cek.subarray(half), iv);
    return Buffer.concat([d.update(ciphertext), d.final()]);
  } catch (e) {
    if (e instanceof Refused) throw e;
    return refuse('decryption failed');
  }
}

/** the content key, unwrapped with the first key that gives one of the right length */
function unwrapCek(hash: string, bytes: number, encryptedKey: Buffer, keys: LenientKeys): Buffer | undefined {
  for (const k of keys.decryptionKeys) {
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

/** the signatures a JWS names: exactly one, or (the rules allowing it) several */
function signaturesOf(jws: Json, relax: Relaxations): Json[] {
  if (!Array.isArray(jws.signatures)) {
    if (!relax.flattened) refuse('flattened JWS JSON is refused');
    return [{ protected: jws.protected, header: jws.header, signature: jws.signature }];
  }
  const several = relax.several === true && jws.signatures.length > 1;
  if ((jws.signatures.length !== 1 && !several) || !jws.signatures.every(isObject))
    refuse('exactly one signature is required');
  if ('signature' in jws || 'protected' in jws || 'header' in jws) refuse('flattened members beside signatures');
  return jws.signatures as Json[];
}

/** the payload of the first signature that verifies (the first refusal when none does) */
async function verifyJws(jws: Json, keys: LenientKeys, relax: Relaxations): Promise<unknown> {
  let firstRefusal: unknown;
  for (const sig of signaturesOf(jws, relax)) {
    try {
      return await verifyOne(jws, sig, keys, relax);
    } catch (e) {
      firstRefusal ??= e;
    }
  }
  throw firstRefusal;
}

async function verifyOne(jws: Json, sig: Json, keys: LenientKeys, relax: Relaxations): Promise<unknown> {
  const header = merge([decodeHeader(sig.protected, 'JWS protected header', relax), sig.header as Json | undefined]);
  const alg = String(header.alg);
  const algOk =
    alg === 'RS256' ||
    (relax.anyJwsAlg && (JWS_ALGS.includes(alg) || alg === 'none')) ||
    (relax.hs256 && alg === 'HS256');
  if (!algOk) refuse(`JWS alg ${alg} is refused`);
  if ('b64' in header && header.b64 !== true) refuse('JWS b64 is refused');
  const crit = Array.isArray(header.crit)
    ? (header.crit as unknown[]).filter((c): c is string => typeof c === 'string')
    : [];
  if ('crit' in header && !relax.ignoreCrit) refuse('JWS crit is refused');

  const payloadBytes = b64(jws.payload, 'payload');
  if (alg !== 'none') b64(sig.signature, 'signature');
  const verified =
    alg === 'none'
      ? sig.signature === ''
      : alg === 'HS256'
        ? hmacWithPublicKey(jws, sig, keys)
        : relax.skipSignature
          ? true
          : await verifyWithAnyKey(jws, sig, header, alg, crit, keys.verificationKey, relax);
  if (!verified) refuse('the signature does not verify');
  return strictJson(payloadBytes.toString('utf8'), 'the payload', relax);
}

/** the jose-hs256-key-confusion fault: HMAC-SHA256 keyed with the client's public key PEM (SPKI) */
function hmacWithPublicKey(jws: Json, sig: Json, keys: LenientKeys): boolean {
  const secret = keys.verificationKey.export({ type: 'spki', format: 'pem' });
  const input = `${String(sig.protected ?? '')}.${String(jws.payload)}`;
  const mac = createHmac('sha256', secret).update(input).digest();
  const given = b64(sig.signature, 'signature');
  return given.length === mac.length && timingSafeEqual(given, mac);
}

/** the jose-pbes2-unbounded fault: key derivation runs before the alg allow-list (iterations capped here: 20,000) */
function derivePbes2(header: Json): never {
  const p2c = typeof header.p2c === 'number' ? header.p2c : 0;
  const salt = Buffer.concat([Buffer.from(String(header.alg)), Buffer.alloc(1), b64(header.p2s ?? '', 'p2s')]);
  pbkdf2Sync('', salt, Math.min(Math.max(p2c, 1), 20_000), 32, 'sha512');
  return refuse(`PBES2 key derivation with p2c ${p2c} did not finish`, 500);
}
