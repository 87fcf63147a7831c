/**
 * JSON as jose reads it (its base64url decoder, a fatal UTF-8 decoder, JSON.parse: the lexically last of
 * duplicated members wins, RFC 7515/7516 §4), plus an optional duplicate-member scan of the same text for a
 * strict reader, so that an escaped or duplicated "alg" cannot look different to us and to jose.
 */
import { base64url } from 'jose';
import { visit } from 'jsonc-parser';

export type Json = Record<string, unknown>;

export type JsonParse =
  { ok: true; value: unknown } | { ok: false; code: 'NOT_JSON' | 'DUPLICATE_MEMBER'; reason: string };

/** how duplicated member names are read: refused (strict) or the last one taken (RFC default) */
export type Duplicates = 'refuse' | 'last-wins';

export const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

export function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

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

/**
 * whether JSON.parse kept every member of the valid JSON `text` it parsed into `value`: outside strings, a JSON text
 * has one colon per object member, and a duplicated name leaves the parsed objects one key short. The exact scan
 * (findDuplicateMember, a full tokenizer) then runs only when a member was dropped, to name it.
 */
function allMembersKept(text: string, value: unknown): boolean {
  let colons = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x3a) colons++;
  }
  return colons === keysIn(value);
}

/** the own keys of every object in a parsed JSON value */
function keysIn(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  let n = 0;
  if (Array.isArray(value)) for (const v of value) n += keysIn(v);
  else for (const k of Object.keys(value)) n += 1 + keysIn((value as Json)[k]);
  return n;
}

/** JSON.parse (what jose uses); with `refuse`, a duplicated member name is refused too */
export function parseJson(text: string, duplicates: Duplicates): JsonParse {
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
  const dup = duplicates === 'refuse' && !allMembersKept(text, value) ? findDuplicateMember(text) : undefined;
  if (dup !== undefined) return { ok: false, code: 'DUPLICATE_MEMBER', reason: `duplicate member name "${dup}"` };
  return { ok: true, value };
}

export function parseStrictJson(text: string): JsonParse {
  return parseJson(text, 'refuse');
}

/** decode a protected header exactly as jose does (plus the duplicate scan when refused) */
export function decodeProtected(
  b64: string,
  duplicates: Duplicates = 'refuse',
): { ok: true; header: Json } | { ok: false; code: 'HEADER_INVALID' | 'DUPLICATE_MEMBER'; reason: string } {
  let text: string;
  try {
    text = strictUtf8.decode(base64url.decode(b64));
  } catch {
    return { ok: false, code: 'HEADER_INVALID', reason: 'protected header is not base64url of UTF-8 text' };
  }
  const parsed = parseJson(text, duplicates);
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
export function mergeDisjoint(parts: (Json | undefined)[]): Json | undefined {
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

/** copy of a plain JSON member list, dropping undefined values (jose treats absent and undefined alike) */
export function defined<T extends Json>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

export function errText(e: unknown): string {
  if (e instanceof Error) {
    const code = (e as { code?: unknown }).code;
    return typeof code === 'string' ? `${code}: ${e.message}` : e.message;
  }
  return String(e);
}

/** a header safe for evidence: an embedded jwk keeps only kty/kid/alg (never n/e/d or any private part) */
export function sanitizeHeader(h: Json): Json {
  if (!('jwk' in h)) return { ...h };
  const jwk = h.jwk;
  const kept: Json = {};
  if (isObject(jwk)) for (const k of ['kty', 'kid', 'alg']) if (k in jwk) kept[k] = jwk[k];
  return { ...h, jwk: kept };
}
