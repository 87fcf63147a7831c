/**
 * The mock bank's request opener (independent of lib/jose's open): jose's verified primitives, one
 * flattenedDecrypt per recipient and one flattenedVerify per signature, with the algorithms pinned and the keys
 * pinned (KeyObjects, never a header key). What the contract leaves to the bank is a rule set: the clean mock
 * refuses duplicated members, zip, and several recipients or signatures (hardening, HARD-01..03); the lenient
 * mock takes what the RFCs allow (last-wins duplicates, zip, several recipients/signatures), and reads a member
 * written in a second spelling of its bytes as those bytes (spelling.ts; the clean mock refuses it, HARD-07). The canonical envelope
 * (one recipient, one signature, pinned headers and nothing else) is opened by open-fast.ts with node:crypto in one
 * go after the same checks; it only accepts, and whatever it does not open, jose decides.
 */
import type { KeyObject } from 'node:crypto';
import { base64url, flattenedDecrypt, flattenedVerify } from 'jose';
import { isJsonObject, JsonRefused, readJson, type Json, type JsonReading } from './jose-json.ts';
import { decryptCanonical, verifyCanonical } from './open-fast.ts';
import { SecondSpelling, spelled, type SpellingRule } from './spelling.ts';

export interface OpenRules {
  /** `first-wins`: the jose-duplicates-first-wins fault (the mock checks the first value, jose uses the last) */
  duplicates: JsonReading;
  zip: boolean;
  several: boolean;
  flattened: boolean;
  /** a member written in a second spelling of its bytes: refused, or read as those bytes (spelling.ts) */
  spelling: SpellingRule;
}

export const STRICT_RULES: OpenRules = {
  duplicates: 'refuse',
  zip: false,
  several: false,
  flattened: false,
  spelling: 'refuse',
};
export const LENIENT_RULES: OpenRules = {
  duplicates: 'last-wins',
  zip: true,
  several: true,
  flattened: false,
  spelling: 'read',
};

export interface OpenKeys {
  decryption: KeyObject;
  verification: KeyObject;
}

/** `code` NOT_JSON / PAYLOAD_NOT_JSON: the body / the signed payload is not JSON (the malformed-json-500 fault) */
export type SealedResult = { ok: true; payload: unknown } | { ok: false; reason: string; code?: string };

const JWE_PIN = { keyManagementAlgorithms: ['RSA-OAEP-256'], contentEncryptionAlgorithms: ['A256CBC-HS512'] };
const JWS_PIN = { algorithms: ['RS256'] };
const utf8 = new TextDecoder('utf-8', { fatal: true });

class Refused extends Error {
  constructor(
    reason: string,
    readonly code?: string,
  ) {
    super(reason);
  }
}
const refuse = (reason: string): never => {
  throw new Refused(reason);
};

/** readJson, a text that is not JSON refused with `code` */
function json(text: string, rules: OpenRules, what: string, code: string): unknown {
  try {
    return readJson(text, rules.duplicates, what);
  } catch (e) {
    if (e instanceof JsonRefused && e.kind === 'not-json') throw new Refused(e.message, code);
    throw e;
  }
}

export async function openSealed(text: string, keys: OpenKeys, rules: OpenRules): Promise<SealedResult> {
  try {
    if (/^[\w-]*(\.[\w-]*){2}(\.[\w-]*\.[\w-]*)?$/.test(text.trim()))
      return refuse('a compact serialization is refused: the general JSON serialization is required');
    const top = json(text, rules, 'the body', 'NOT_JSON');
    if (!isJsonObject(top) || !('ciphertext' in top || 'recipients' in top)) return refuse('the body is not a JWE');
    const plaintext = await decryptAny(spelled(top, 'jwe', rules.spelling), keys.decryption, rules);
    const jws = readJson(decode(plaintext, 'the plaintext'), rules.duplicates, 'the plaintext');
    if (!isJsonObject(jws) || !('payload' in jws)) return refuse('the plaintext is not a JWS');
    const payload = await verifyAny(spelled(jws, 'jws', rules.spelling), keys.verification, rules);
    return { ok: true, payload: json(decode(payload, 'the payload'), rules, 'the payload', 'PAYLOAD_NOT_JSON') };
  } catch (e) {
    if (e instanceof Refused) return { ok: false, reason: e.message, ...(e.code ? { code: e.code } : {}) };
    if (e instanceof JsonRefused || e instanceof SecondSpelling) return { ok: false, reason: e.message };
    return { ok: false, reason: 'the sealed body could not be opened' };
  }
}

function decode(bytes: Uint8Array, what: string): string {
  try {
    return utf8.decode(bytes);
  } catch {
    return refuse(`${what} is not UTF-8 text`);
  }
}

/** the protected header as the mock reads it (for its checks; jose reads it again, last-wins) */
function protectedHeader(b64: unknown, rules: OpenRules, what: string): Json {
  if (b64 === undefined) return {};
  if (typeof b64 !== 'string') return refuse(`${what} is not a string`);
  let text: string;
  try {
    text = utf8.decode(base64url.decode(b64));
  } catch {
    return refuse(`${what} is not base64url of UTF-8 text`);
  }
  const h = readJson(text, rules.duplicates, what);
  return isJsonObject(h) ? h : refuse(`${what} is not an object`);
}

function entries(o: Json, arrayName: string, what: string, rules: OpenRules): Json[] {
  if (!(arrayName in o)) return rules.flattened ? [o] : refuse(`flattened ${what} JSON is refused`);
  const list = o[arrayName];
  if (!Array.isArray(list) || list.length === 0) return refuse(`${arrayName} is not a non-empty array`);
  if (list.length > 1 && !rules.several) refuse(`exactly one ${what} entry is required`);
  return list.map((x) => (isJsonObject(x) ? x : refuse(`a ${what} entry is not an object`)));
}

async function firstThatOpens<T>(list: Json[], attempt: (x: Json) => Promise<T>): Promise<T> {
  let first: unknown;
  for (const x of list) {
    try {
      return await attempt(x);
    } catch (e) {
      first ??= e;
    }
  }
  throw first;
}

async function decryptAny(jwe: Json, key: KeyObject, rules: OpenRules): Promise<Uint8Array> {
  const prot = protectedHeader(jwe.protected, rules, 'the JWE protected header');
  const recipients = entries(jwe, 'recipients', 'JWE recipient', rules);
  return firstThatOpens(recipients, async (r) => {
    const h = { ...prot, ...(jwe.unprotected as Json | undefined), ...(r.header as Json | undefined) };
    if (h.alg !== 'RSA-OAEP-256') refuse(`JWE alg ${String(h.alg)} is refused`);
    if (h.enc !== 'A256CBC-HS512') refuse(`JWE enc ${String(h.enc)} is refused`);
    if ('zip' in h && !rules.zip) refuse('JWE zip is refused');
    if ('crit' in h) refuse('JWE crit is refused');
    const members = {
      protected: jwe.protected,
      unprotected: jwe.unprotected,
      header: r.header,
      encrypted_key: r.encrypted_key,
      iv: jwe.iv,
      ciphertext: jwe.ciphertext,
      tag: jwe.tag,
      aad: jwe.aad,
    };
    // the canonical envelope in one go (open-fast.ts: it only accepts, jose decides the rest); not under the
    // first-wins fault, where jose must process the last of the duplicated values
    const fast = rules.duplicates === 'first-wins' ? undefined : await decryptCanonical(jwe, r, key);
    if (fast) return fast;
    try {
      const out = await flattenedDecrypt(members as unknown as Parameters<typeof flattenedDecrypt>[0], key, {
        // the first-wins fault: the checks above saw the first values, jose (unpinned) processes the last
        ...(rules.duplicates === 'first-wins' ? {} : JWE_PIN),
        maxDecompressedLength: rules.zip ? 1024 * 1024 : 0,
      });
      return out.plaintext;
    } catch {
      return refuse('the JWE could not be decrypted');
    }
  });
}

async function verifyAny(jws: Json, key: KeyObject, rules: OpenRules): Promise<Uint8Array> {
  const signatures = entries(jws, 'signatures', 'JWS signature', rules);
  return firstThatOpens(signatures, async (s) => {
    const h = { ...protectedHeader(s.protected, rules, 'the JWS protected header'), ...(s.header as Json | undefined) };
    if (h.alg !== 'RS256') refuse(`JWS alg ${String(h.alg)} is refused`);
    if ('b64' in h && h.b64 !== true) refuse('JWS b64 is refused');
    if ('crit' in h) refuse('JWS crit is refused');
    const fast = rules.duplicates === 'first-wins' ? undefined : verifyCanonical(jws, s, key);
    if (fast) return fast;
    const members = { payload: jws.payload, protected: s.protected, header: s.header, signature: s.signature };
    try {
      const out = await flattenedVerify(
        members as unknown as Parameters<typeof flattenedVerify>[0],
        key,
        rules.duplicates === 'first-wins' ? {} : JWS_PIN,
      );
      return out.payload;
    } catch {
      return refuse('the signature does not verify with the registered client key');
    }
  });
}
