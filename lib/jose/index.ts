/**
 * Sealed payloads: JWS (general JSON, RS256) inside JWE (general JSON, RSA-OAEP-256 + A256CBC-HS512).
 *
 * jose's defaults are lenient (any alg that fits the key, last-wins duplicate members, flattened forms,
 * several recipients/signatures), so open() checks every layer explicitly BEFORE any crypto and names
 * the step that refused. Headers are parsed exactly as jose parses them (its own base64url decoder, a
 * fatal UTF-8 decoder, JSON.parse) so an escaped or duplicated "alg" cannot look different to us and to jose.
 */
import { createPrivateKey, createPublicKey, X509Certificate, type KeyObject } from 'node:crypto';
import { base64url, flattenedDecrypt, flattenedVerify, GeneralEncrypt, GeneralSign } from 'jose';
import { visit } from 'jsonc-parser';
import {
  JWE_ALG,
  JWE_ENC,
  JWS_ALG,
  type GeneralJwe,
  type JoseForm,
  type OpenFailure,
  type OpenOptions,
  type OpenResult,
  type OpenStep,
  type SealOptions,
} from './types.ts';

export * from './types.ts';

/** default maximum size of an envelope handed to open() */
export const DEFAULT_MAX_BYTES = 1024 * 1024;

/** header parameters that name or carry a key: never used, never fetched (the pinned key is always used) */
export const KEY_HEADER_PARAMS = ['jwk', 'jku', 'x5u', 'x5c', 'x5t', 'x5t#S256'] as const;

type Json = Record<string, unknown>;

// ---------------------------------------------------------------------------------------------------------
// keys: imported once per PEM string

const publicKeys = new Map<string, KeyObject>();
const privateKeys = new Map<string, KeyObject>();

/** SPKI / PKCS#1 public PEM, or an X.509 certificate PEM */
export function publicKeyFromPem(pem: string): KeyObject {
  let key = publicKeys.get(pem);
  if (!key) {
    key = pem.includes('-----BEGIN CERTIFICATE-----') ? new X509Certificate(pem).publicKey : createPublicKey(pem);
    publicKeys.set(pem, key);
  }
  return key;
}

/** PKCS#8 (or PKCS#1) private PEM */
export function privateKeyFromPem(pem: string): KeyObject {
  let key = privateKeys.get(pem);
  if (!key) {
    key = createPrivateKey(pem);
    privateKeys.set(pem, key);
  }
  return key;
}

// ---------------------------------------------------------------------------------------------------------
// strict JSON: JSON.parse (what jose uses) plus a duplicate-member scan of the same text

type JsonParse = { ok: true; value: unknown } | { ok: false; code: 'NOT_JSON' | 'DUPLICATE_MEMBER'; reason: string };

/** the first duplicated member name in a JSON text (names compared after unescaping), or undefined */
export function findDuplicateMember(text: string): string | undefined {
  const stack: Set<string>[] = [];
  let dup: string | undefined;
  visit(text, {
    onObjectBegin: () => {
      stack.push(new Set());
    },
    onObjectEnd: () => {
      stack.pop();
    },
    onObjectProperty: (name) => {
      const names = stack[stack.length - 1];
      if (!names || dup !== undefined) return;
      if (names.has(name)) dup = name;
      else names.add(name);
    },
  });
  return dup;
}

export function parseStrictJson(text: string): JsonParse {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    // never echo the engine's message: it quotes the input, which may hold secrets
    const at = /position (\d+)/.exec((e as Error).message)?.[1];
    return {
      ok: false,
      code: 'NOT_JSON',
      reason: at === undefined ? 'not valid JSON' : `not valid JSON (at offset ${at})`,
    };
  }
  const dup = findDuplicateMember(text);
  if (dup !== undefined) return { ok: false, code: 'DUPLICATE_MEMBER', reason: `duplicate member name "${dup}"` };
  return { ok: true, value };
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** decode a protected header exactly as jose does, plus the duplicate scan */
function decodeProtected(b64: string): { ok: true; header: Json } | { ok: false; code: string; reason: string } {
  let text: string;
  try {
    text = strictUtf8.decode(base64url.decode(b64));
  } catch {
    return { ok: false, code: 'HEADER_INVALID', reason: 'protected header is not base64url of UTF-8 text' };
  }
  const parsed = parseStrictJson(text);
  if (!parsed.ok) {
    return parsed.code === 'DUPLICATE_MEMBER'
      ? { ok: false, code: parsed.code, reason: `protected header: ${parsed.reason}` }
      : { ok: false, code: 'HEADER_INVALID', reason: 'protected header is not JSON' };
  }
  if (!isObject(parsed.value))
    return { ok: false, code: 'HEADER_INVALID', reason: 'protected header is not a JSON object' };
  return { ok: true, header: parsed.value };
}

/** merge header parts; undefined when a parameter name appears in two parts (jose refuses that too) */
function mergeDisjoint(parts: (Json | undefined)[]): Json | undefined {
  const out: Json = {};
  for (const part of parts) {
    if (!part) continue;
    for (const [k, v] of Object.entries(part)) {
      if (Object.hasOwn(out, k)) return undefined;
      out[k] = v;
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// forms

const COMPACT_JWE = /^[A-Za-z0-9_-]*(\.[A-Za-z0-9_-]*){4}$/;
const COMPACT_JWS = /^[A-Za-z0-9_-]*(\.[A-Za-z0-9_-]*){2}$/;

export type JoseKind = 'jwe' | 'jws' | 'json' | 'not-json' | 'unknown';

/** what a value is (JWE, JWS, other JSON) and in which serialization */
export function classify(value: unknown): { kind: JoseKind; form: JoseForm } {
  if (value === undefined) return { kind: 'unknown', form: 'unknown' };
  if (value instanceof Uint8Array) {
    try {
      return classify(strictUtf8.decode(value));
    } catch {
      return { kind: 'not-json', form: 'not-json' };
    }
  }
  if (typeof value === 'string') {
    const t = value.trim();
    if (COMPACT_JWE.test(t)) return { kind: 'jwe', form: 'compact' };
    if (COMPACT_JWS.test(t)) return { kind: 'jws', form: 'compact' };
    try {
      return classify(JSON.parse(t) as unknown);
    } catch {
      return { kind: 'not-json', form: 'not-json' };
    }
  }
  if (!isObject(value)) return { kind: 'json', form: 'plain-json' };
  if ('recipients' in value) return { kind: 'jwe', form: 'general' };
  if ('ciphertext' in value || 'encrypted_key' in value || 'iv' in value || 'tag' in value)
    return { kind: 'jwe', form: 'flattened' };
  if ('signatures' in value) return { kind: 'jws', form: 'general' };
  if ('payload' in value && ('signature' in value || 'protected' in value)) return { kind: 'jws', form: 'flattened' };
  return { kind: 'json', form: 'plain-json' };
}

export function formOf(value: unknown): JoseForm {
  return classify(value).form;
}

// ---------------------------------------------------------------------------------------------------------
// seal

const encoder = new TextEncoder();

export async function seal(payload: unknown, opts: SealOptions): Promise<GeneralJwe> {
  const text = JSON.stringify(payload);
  if (text === undefined) throw new TypeError('seal: payload is not JSON-serializable');
  const jws = await new GeneralSign(encoder.encode(text))
    .addSignature(privateKeyFromPem(opts.signingKey))
    .setProtectedHeader({ alg: JWS_ALG, ...(opts.signingKid !== undefined && { kid: opts.signingKid }) })
    .sign();
  const jwe = await new GeneralEncrypt(encoder.encode(JSON.stringify(jws)))
    .setProtectedHeader({
      alg: JWE_ALG,
      enc: JWE_ENC,
      ...(opts.cty !== undefined && { cty: opts.cty }),
      ...(opts.encryptionKid !== undefined && { kid: opts.encryptionKid }),
    })
    .addRecipient(publicKeyFromPem(opts.encryptionKey))
    .encrypt();
  return jwe as GeneralJwe;
}

// ---------------------------------------------------------------------------------------------------------
// open

function presentKeyParams(header: Json, prefix: string): string[] {
  return KEY_HEADER_PARAMS.filter((k) => Object.hasOwn(header, k)).map((k) => `${prefix}.${k}`);
}

/** copy of a plain JSON member list, dropping undefined values (jose treats absent and undefined alike) */
function defined<T extends Json>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

function errText(e: unknown): string {
  if (e instanceof Error) {
    const code = (e as { code?: unknown }).code;
    return typeof code === 'string' ? `${code}: ${e.message}` : e.message;
  }
  return String(e);
}

export async function open(envelope: unknown, opts: OpenOptions & { maxBytes?: number }): Promise<OpenResult> {
  const ctx: Partial<Pick<OpenFailure, 'jweForm' | 'jwsForm' | 'jweHeader' | 'jwsHeader'>> = {};
  const fail = (step: OpenStep, code: string, reason: string): OpenFailure => ({
    ok: false,
    step,
    code,
    reason,
    ...ctx,
  });
  try {
    return await openInner(envelope, opts, ctx, fail);
  } catch (e) {
    // open() never throws for bad input; a throw here is a bad key/option (our side), still reported as a failure
    return fail('parse', 'INTERNAL', `unexpected error: ${errText(e)}`);
  }
}

async function openInner(
  envelope: unknown,
  opts: OpenOptions & { maxBytes?: number },
  ctx: Partial<Pick<OpenFailure, 'jweForm' | 'jwsForm' | 'jweHeader' | 'jwsHeader'>>,
  fail: (step: OpenStep, code: string, reason: string) => OpenFailure,
): Promise<OpenResult> {
  // our own keys first: a bad key is a configuration error, not the envelope's fault
  let decryptionKey: KeyObject;
  let verificationKey: KeyObject;
  try {
    decryptionKey = privateKeyFromPem(opts.decryptionKey);
  } catch (e) {
    return fail('decrypt', 'KEY_INVALID', `the decryption key does not import: ${errText(e)}`);
  }
  try {
    verificationKey = publicKeyFromPem(opts.verificationKey);
  } catch (e) {
    return fail('verify', 'KEY_INVALID', `the verification key does not import: ${errText(e)}`);
  }
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  const allowFlattened = opts.allowFlattened === true;

  // --- size + parse: reduce every input to one JSON text (objects are re-serialized: no getters, no cycles)
  let text: string;
  if (typeof envelope === 'string') text = envelope;
  else if (envelope instanceof Uint8Array) {
    if (envelope.byteLength > maxBytes)
      return fail('size', 'TOO_LARGE', `envelope is ${envelope.byteLength} bytes (max ${maxBytes})`);
    try {
      text = strictUtf8.decode(envelope);
    } catch {
      return fail('parse', 'NOT_JSON', 'envelope is not UTF-8 text');
    }
  } else {
    try {
      const s = JSON.stringify(envelope);
      if (s === undefined) return fail('parse', 'NOT_JSON', 'envelope is not a JSON value');
      text = s;
    } catch (e) {
      return fail('parse', 'NOT_JSON', `envelope is not a JSON value: ${errText(e)}`);
    }
  }
  const size = Buffer.byteLength(text, 'utf8');
  if (size > maxBytes) return fail('size', 'TOO_LARGE', `envelope is ${size} bytes (max ${maxBytes})`);

  const trimmed = text.trim();
  if (COMPACT_JWE.test(trimmed)) {
    ctx.jweForm = 'compact';
    return fail(
      'jwe-structure',
      'COMPACT_FORM',
      'JWE compact serialization; the general JSON serialization is required',
    );
  }
  if (COMPACT_JWS.test(trimmed)) {
    ctx.jweForm = 'not-json';
    ctx.jwsForm = 'compact';
    return fail('jwe-structure', 'NOT_ENCRYPTED', 'a compact JWS, not encrypted');
  }
  const parsed = parseStrictJson(text);
  if (!parsed.ok) {
    ctx.jweForm = parsed.code === 'NOT_JSON' ? 'not-json' : 'unknown';
    return fail('parse', parsed.code, parsed.reason);
  }

  // --- JWE structure
  const top = classify(parsed.value);
  if (top.kind !== 'jwe') {
    ctx.jweForm = 'plain-json';
    if (top.kind === 'jws') {
      ctx.jwsForm = top.form;
      return fail('jwe-structure', 'NOT_ENCRYPTED', `a ${top.form} JWS, not encrypted`);
    }
    return fail('jwe-structure', 'NOT_SEALED', 'plain JSON with no JWE members');
  }
  ctx.jweForm = top.form;
  const jwe = parsed.value as Json;
  let recipient: Json;
  if (top.form === 'flattened') {
    if (!allowFlattened)
      return fail(
        'jwe-structure',
        'FLATTENED_FORM',
        'flattened JWE JSON; the general form (recipients array) is required',
      );
    if ('recipients' in jwe) return fail('jwe-structure', 'JWE_MALFORMED', 'both recipients and flattened members');
    recipient = { header: jwe.header, encrypted_key: jwe.encrypted_key };
  } else {
    if (!Array.isArray(jwe.recipients)) return fail('jwe-structure', 'JWE_MALFORMED', 'recipients is not an array');
    if (jwe.recipients.length !== 1) {
      return fail(
        'jwe-structure',
        'MULTIPLE_RECIPIENTS',
        `${jwe.recipients.length} recipients; exactly one is required`,
      );
    }
    if ('encrypted_key' in jwe || 'header' in jwe)
      return fail('jwe-structure', 'JWE_MALFORMED', 'flattened members beside recipients');
    const r: unknown = jwe.recipients[0];
    if (!isObject(r)) return fail('jwe-structure', 'JWE_MALFORMED', 'recipient is not an object');
    recipient = r;
  }
  const members: Json = defined({
    protected: jwe.protected,
    unprotected: jwe.unprotected,
    header: recipient.header,
    encrypted_key: recipient.encrypted_key,
    iv: jwe.iv,
    ciphertext: jwe.ciphertext,
    tag: jwe.tag,
    aad: jwe.aad,
  });
  for (const m of ['protected', 'encrypted_key', 'iv', 'ciphertext', 'tag', 'aad']) {
    if (m in members && typeof members[m] !== 'string')
      return fail('jwe-structure', 'JWE_MALFORMED', `${m} is not a string`);
  }
  for (const m of ['iv', 'ciphertext', 'tag', 'encrypted_key']) {
    if (typeof members[m] !== 'string' || members[m] === '')
      return fail('jwe-structure', 'JWE_MALFORMED', `${m} missing or empty`);
  }
  for (const m of ['unprotected', 'header']) {
    if (m in members && !isObject(members[m])) return fail('jwe-structure', 'JWE_MALFORMED', `${m} is not an object`);
  }

  // --- JWE header
  let jweProtected: Json | undefined;
  if (members.protected !== undefined) {
    const d = decodeProtected(members.protected as string);
    if (!d.ok)
      return fail('jwe-header', d.code === 'DUPLICATE_MEMBER' ? d.code : 'JWE_HEADER_INVALID', `JWE ${d.reason}`);
    jweProtected = d.header;
  }
  const jweHeader = mergeDisjoint([
    jweProtected,
    members.unprotected as Json | undefined,
    members.header as Json | undefined,
  ]);
  if (!jweHeader)
    return fail('jwe-header', 'HEADER_NOT_DISJOINT', 'a JWE header parameter appears in more than one header part');
  ctx.jweHeader = sanitizeHeader(jweHeader);
  if (jweHeader.alg !== JWE_ALG)
    return fail('jwe-header', 'JWE_ALG_NOT_ALLOWED', `JWE alg ${JSON.stringify(jweHeader.alg)}; only ${JWE_ALG}`);
  if (jweHeader.enc !== JWE_ENC)
    return fail('jwe-header', 'JWE_ENC_NOT_ALLOWED', `JWE enc ${JSON.stringify(jweHeader.enc)}; only ${JWE_ENC}`);
  if ('zip' in jweHeader) return fail('jwe-header', 'JWE_ZIP_NOT_ALLOWED', 'JWE zip (compression) is not allowed');
  if ('crit' in jweHeader) return fail('jwe-header', 'CRIT_UNSUPPORTED', 'JWE crit: no extension is supported');

  // --- decrypt
  let plaintext: Uint8Array;
  try {
    const out = await flattenedDecrypt(members as unknown as Parameters<typeof flattenedDecrypt>[0], decryptionKey, {
      keyManagementAlgorithms: [JWE_ALG],
      contentEncryptionAlgorithms: [JWE_ENC],
    });
    plaintext = out.plaintext;
  } catch (e) {
    return fail('decrypt', 'DECRYPT_FAILED', `decryption failed (${errText(e)})`);
  }

  // --- JWS structure
  let jwsText: string;
  try {
    jwsText = strictUtf8.decode(plaintext);
  } catch {
    ctx.jwsForm = 'not-json';
    return fail('jws-structure', 'NOT_SIGNED', 'plaintext is not UTF-8 text, not a JWS');
  }
  if (COMPACT_JWS.test(jwsText.trim())) {
    ctx.jwsForm = 'compact';
    return fail(
      'jws-structure',
      'COMPACT_FORM',
      'JWS compact serialization inside the JWE; the general JSON serialization is required',
    );
  }
  const jwsParsed = parseStrictJson(jwsText);
  if (!jwsParsed.ok) {
    if (jwsParsed.code === 'NOT_JSON') {
      ctx.jwsForm = 'not-json';
      return fail('jws-structure', 'NOT_SIGNED', 'plaintext is not JSON, not a JWS');
    }
    return fail('jws-structure', jwsParsed.code, `JWS: ${jwsParsed.reason}`);
  }
  const inner = classify(jwsParsed.value);
  if (inner.kind !== 'jws') {
    ctx.jwsForm = inner.kind === 'jwe' ? inner.form : 'plain-json';
    return fail(
      'jws-structure',
      'NOT_SIGNED',
      inner.kind === 'jwe' ? 'plaintext is another JWE, not a JWS' : 'plaintext is plain JSON, not a JWS',
    );
  }
  ctx.jwsForm = inner.form;
  const jws = jwsParsed.value as Json;
  let sig: Json;
  if (inner.form === 'flattened') {
    if (!allowFlattened)
      return fail(
        'jws-structure',
        'FLATTENED_FORM',
        'flattened JWS JSON; the general form (signatures array) is required',
      );
    if ('signatures' in jws) return fail('jws-structure', 'JWS_MALFORMED', 'both signatures and flattened members');
    sig = { protected: jws.protected, header: jws.header, signature: jws.signature };
  } else {
    if (!Array.isArray(jws.signatures)) return fail('jws-structure', 'JWS_MALFORMED', 'signatures is not an array');
    if (jws.signatures.length !== 1) {
      return fail(
        'jws-structure',
        'MULTIPLE_SIGNATURES',
        `${jws.signatures.length} signatures; exactly one is required`,
      );
    }
    if ('signature' in jws || 'protected' in jws || 'header' in jws)
      return fail('jws-structure', 'JWS_MALFORMED', 'flattened members beside signatures');
    const s: unknown = jws.signatures[0];
    if (!isObject(s)) return fail('jws-structure', 'JWS_MALFORMED', 'signature entry is not an object');
    sig = s;
  }
  const jwsMembers: Json = defined({
    protected: sig.protected,
    header: sig.header,
    payload: jws.payload,
    signature: sig.signature,
  });
  for (const m of ['payload', 'signature']) {
    if (typeof jwsMembers[m] !== 'string')
      return fail('jws-structure', 'JWS_MALFORMED', `${m} missing or not a string`);
  }
  if ('protected' in jwsMembers && typeof jwsMembers.protected !== 'string')
    return fail('jws-structure', 'JWS_MALFORMED', 'protected is not a string');
  if ('header' in jwsMembers && !isObject(jwsMembers.header))
    return fail('jws-structure', 'JWS_MALFORMED', 'header is not an object');
  if (!('protected' in jwsMembers) && !('header' in jwsMembers))
    return fail('jws-structure', 'JWS_MALFORMED', 'no JWS header');

  // --- JWS header
  let jwsProtected: Json | undefined;
  if (jwsMembers.protected !== undefined) {
    const d = decodeProtected(jwsMembers.protected as string);
    if (!d.ok)
      return fail('jws-header', d.code === 'DUPLICATE_MEMBER' ? d.code : 'JWS_HEADER_INVALID', `JWS ${d.reason}`);
    jwsProtected = d.header;
  }
  const jwsHeader = mergeDisjoint([jwsProtected, jwsMembers.header as Json | undefined]);
  if (!jwsHeader)
    return fail(
      'jws-header',
      'HEADER_NOT_DISJOINT',
      'a JWS header parameter appears in both protected and unprotected headers',
    );
  ctx.jwsHeader = sanitizeHeader(jwsHeader);
  if (jwsHeader.alg !== JWS_ALG)
    return fail('jws-header', 'JWS_ALG_NOT_ALLOWED', `JWS alg ${JSON.stringify(jwsHeader.alg)}; only ${JWS_ALG}`);
  if ('b64' in jwsHeader && jwsHeader.b64 !== true)
    return fail('jws-header', 'JWS_B64_NOT_ALLOWED', 'JWS b64 other than true (unencoded payload) is not allowed');
  if ('crit' in jwsHeader) return fail('jws-header', 'CRIT_UNSUPPORTED', 'JWS crit: no extension is supported');

  // --- verify with the pinned key only (never a header key: jose is given a KeyObject, not a resolver)
  let payloadBytes: Uint8Array;
  try {
    const out = await flattenedVerify(jwsMembers as unknown as Parameters<typeof flattenedVerify>[0], verificationKey, {
      algorithms: [JWS_ALG],
    });
    payloadBytes = out.payload;
  } catch (e) {
    return fail('verify', 'SIGNATURE_INVALID', `signature does not verify with the pinned key (${errText(e)})`);
  }

  // --- payload
  let payloadText: string;
  try {
    payloadText = strictUtf8.decode(payloadBytes);
  } catch {
    return fail('payload', 'PAYLOAD_NOT_JSON', 'payload is not UTF-8 text');
  }
  const payload = parseStrictJson(payloadText);
  if (!payload.ok)
    return fail(
      'payload',
      payload.code === 'NOT_JSON' ? 'PAYLOAD_NOT_JSON' : payload.code,
      `payload: ${payload.reason}`,
    );

  return {
    ok: true,
    payload: payload.value,
    jweForm: top.form,
    jwsForm: inner.form,
    jweHeader: sanitizeHeader(jweHeader),
    jwsHeader: sanitizeHeader(jwsHeader),
    ignoredHeaderKeys: [...presentKeyParams(jweHeader, 'jwe'), ...presentKeyParams(jwsHeader, 'jws')],
  };
}

// ---------------------------------------------------------------------------------------------------------
// inspect: visible headers, no key needed

/** a header safe for evidence: an embedded jwk keeps only kty/kid/alg (never n/e/d or any private part) */
export function sanitizeHeader(h: Json): Json {
  if (!('jwk' in h)) return { ...h };
  const jwk = h.jwk;
  const kept: Json = {};
  if (isObject(jwk)) for (const k of ['kty', 'kid', 'alg']) if (k in jwk) kept[k] = jwk[k];
  return { ...h, jwk: kept };
}

function tryProtected(b64: unknown): Json | undefined {
  if (typeof b64 !== 'string') return undefined;
  const d = decodeProtected(b64);
  if (d.ok) return d.header;
  // duplicate members: show what JSON.parse (and so jose) would see, flagged
  try {
    const v: unknown = JSON.parse(strictUtf8.decode(base64url.decode(b64)));
    return isObject(v) ? { ...v, '(duplicate members)': true } : undefined;
  } catch {
    return undefined;
  }
}

export interface InspectResult {
  jweForm: JoseForm;
  jwsForm?: JoseForm;
  headers: Record<string, unknown>[];
}

export function inspect(envelope: unknown): InspectResult {
  let value: unknown = envelope;
  if (envelope instanceof Uint8Array) {
    try {
      value = strictUtf8.decode(envelope);
    } catch {
      return { jweForm: 'not-json', headers: [] };
    }
  }
  const { kind, form } = classify(value);
  const headers: Json[] = [];
  const push = (h: unknown): void => {
    if (isObject(h)) headers.push(sanitizeHeader(h));
  };
  if (typeof value === 'string') {
    const t = value.trim();
    if (form === 'compact') push(tryProtected(t.split('.')[0]));
    else {
      try {
        value = JSON.parse(t) as unknown;
      } catch {
        /* not-json: nothing to show */
      }
    }
  }
  if (form !== 'compact' && isObject(value)) {
    if (kind === 'jwe') {
      push(tryProtected(value.protected));
      push(value.unprotected);
      if (Array.isArray(value.recipients)) for (const r of value.recipients) if (isObject(r)) push(r.header);
      push(value.header);
    } else if (kind === 'jws') {
      const sigs = Array.isArray(value.signatures) ? value.signatures : [value];
      for (const s of sigs) {
        if (!isObject(s)) continue;
        push(tryProtected(s.protected));
        push(s.header);
      }
    }
  }
  if (kind === 'jwe') return { jweForm: form, headers };
  if (kind === 'jws') return { jweForm: 'plain-json', jwsForm: form, headers };
  return { jweForm: form, headers };
}
