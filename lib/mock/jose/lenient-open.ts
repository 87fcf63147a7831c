/**
 * A deliberately relaxable opener (its own crypto on node:crypto), used ONLY while a JOSE fault is switched on:
 * each relaxation breaks one rule of the contract (algorithm allow-lists, general form, pinned key,
 * authentication tag, ...) and keeps every other rule as the clean opener's rules have it (open-sealed.ts, which
 * the mock uses with no such fault on: zip, several recipients or signatures and last-wins duplicates only where
 * those rules allow them, and the first-wins fault's parser differential, so that a relaxation does not hide it).
 * The keys a JWS may verify with are lenient-keys.ts's; the JWE's crypto is lenient-cek.ts's.
 */
import { createHmac, pbkdf2Sync, timingSafeEqual, type KeyObject } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import { JsonRefused, readJson } from './jose-json.ts';
import { decryptContent, ENCS, KEY_ALGS, unwrapCek, type DecryptionKey } from './lenient-cek.ts';
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
  /**
   * a member name written twice: refused (absent), the last value taken, or (the jose-duplicates-first-wins fault,
   * a parser differential as open-sealed.ts has it) the first value of every JSON text taken, and of a protected
   * header the first value checked while the last one is processed (the JWS verified without the RS256 pin)
   */
  duplicates?: 'last-wins' | 'first-wins';
  /** a member written in a second spelling of its bytes: read as those bytes (spelling.ts `read`; refused otherwise) */
  readSpellings?: boolean;
}

export interface LenientKeys {
  /** tried in order; the first that unwraps the CEK is used */
  decryptionKeys: DecryptionKey[];
  verificationKey: KeyObject;
}

export type LenientResult = { ok: true; payload: unknown } | { ok: false; reason: string; status?: 500 };

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

/** JSON as strict as the clean mock: duplicate member names are refused (read as the rules say where they allow them) */
function strictJson(text: string, what: string, relax: Relaxations): unknown {
  try {
    return readJson(text, relax.duplicates ?? 'refuse', what);
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

/**
 * a layer's header (its protected header merged with `others`) as the checks read it and as the crypto processes it:
 * one object, but two under the first-wins fault (the first of a duplicated member checked, the last processed)
 */
function headers(
  protectedB64: unknown,
  others: unknown[],
  what: string,
  relax: Relaxations,
): { checked: Json; processed: Json } {
  const checked = merge([decodeHeader(protectedB64, what, relax), ...(others as (Json | undefined)[])]);
  if (relax.duplicates !== 'first-wins') return { checked, processed: checked };
  const last = decodeHeader(protectedB64, what, { ...relax, duplicates: 'last-wins' });
  return { checked, processed: merge([last, ...(others as (Json | undefined)[])]) };
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
  const { checked: header, processed } = headers(
    jwe.protected,
    [jwe.unprotected, recipient.header],
    'JWE protected header',
    relax,
  );
  const alg = String(header.alg);
  const enc = String(header.enc);
  if (relax.pbes2 && String(processed.alg).startsWith('PBES2')) derivePbes2(processed);
  if (!Object.hasOwn(KEY_ALGS, alg) || (alg !== 'RSA-OAEP-256' && !relax.anyKeyAlg))
    refuse(`JWE alg ${alg} is refused`);
  if (!Object.hasOwn(ENCS, enc) || (enc !== 'A256CBC-HS512' && !relax.anyEnc)) refuse(`JWE enc ${enc} is refused`);
  if ('zip' in header && !(relax.zip && header.zip === 'DEF')) refuse('JWE zip is refused');
  if ('crit' in header && !relax.ignoreCrit) refuse('JWE crit is refused');
  // what is processed (the checked header but under the first-wins fault): what the crypto here cannot process is
  // refused, as jose refuses what it does not implement
  const hash = Object.hasOwn(KEY_ALGS, String(processed.alg)) ? KEY_ALGS[String(processed.alg)] : undefined;
  const spec = Object.hasOwn(ENCS, String(processed.enc)) ? ENCS[String(processed.enc)] : undefined;
  if (!hash || !spec || ('zip' in processed && processed.zip !== 'DEF'))
    return refuse('the JWE could not be decrypted');
  const cek = unwrapCek(hash, spec.bytes, b64(recipient.encrypted_key, 'encrypted_key'), keys.decryptionKeys);
  return cek
    ? { cek, enc: String(processed.enc), zip: 'zip' in processed }
    : refuse('the content encryption key could not be decrypted');
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
  // the jose-tag-unchecked-other-recipient fault: the tag is checked only when the first recipient gave the key
  const ignoreTag = relax.ignoreTag === true || (relax.tagFirstRecipientOnly === true && opened.index > 0);
  const iv = b64(jwe.iv, 'iv');
  const ciphertext = b64(jwe.ciphertext, 'ciphertext');
  const tag = b64(jwe.tag, 'tag');
  const aadText = typeof jwe.protected === 'string' ? jwe.protected : '';
  const aad = Buffer.from(typeof jwe.aad === 'string' ? `${aadText}.${jwe.aad}` : aadText, 'ascii');
  const out = decryptContent(ENCS[opened.enc]!, opened.cek, { iv, ciphertext, tag, aad }, !ignoreTag);
  if (out.ok) return out.plaintext;
  return out.failure === 'tag'
    ? refuse('the authentication tag does not verify', relax.tag500 ? 500 : undefined)
    : refuse('decryption failed');
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
  const { checked: header, processed } = headers(sig.protected, [sig.header], 'JWS protected header', relax);
  const alg = String(header.alg);
  const algOk =
    alg === 'RS256' ||
    (relax.anyJwsAlg && (JWS_ALGS.includes(alg) || alg === 'none')) ||
    (relax.hs256 && alg === 'HS256');
  if (!algOk) refuse(`JWS alg ${alg} is refused`);
  if ('b64' in header && header.b64 !== true) refuse('JWS b64 is refused');
  if ('crit' in header && !relax.ignoreCrit) refuse('JWS crit is refused');

  // what is processed (the checked header but under the first-wins fault): none and HS256 only where a relaxation
  // processes them (jose, which processes the rest, refuses both with an RSA key)
  const used = String(processed.alg);
  const crit = Array.isArray(processed.crit)
    ? (processed.crit as unknown[]).filter((c): c is string => typeof c === 'string')
    : [];
  const payloadBytes = b64(jws.payload, 'payload');
  if (alg !== 'none') b64(sig.signature, 'signature');
  const verified =
    used === 'none' && relax.anyJwsAlg
      ? sig.signature === ''
      : used === 'HS256' && relax.hs256
        ? hmacWithPublicKey(jws, sig, keys)
        : relax.skipSignature
          ? true
          : await verifyWithAnyKey(jws, sig, processed, used, crit, keys.verificationKey, relax);
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
