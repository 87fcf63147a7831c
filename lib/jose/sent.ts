/**
 * What the harness sealed, remembered for the evidence: the inner JWS headers of an envelope it built (the JWE's
 * content, which nobody but the bank can decrypt), keyed by the envelope it returned. A report can then show the
 * header a negative request really carried (alg "none", a foreign kid...) instead of "<JWE general, 957 bytes>".
 * Decoded headers (lib/jose inspect: sanitized) and, apart from them, the JWS payload for a run's HAR (which redacts
 * it like any body); never a key. Bounded.
 */
import { inspect } from './inspect.ts';

type Json = Record<string, unknown>;

const byObject = new WeakMap<object, Json[]>();
/** compact envelopes are strings: the last MAX_STRINGS are kept */
const byString = new Map<string, Json[]>();
const MAX_STRINGS = 256;

/** the protected (and unprotected) headers of the JWS inside a JWE, from the plaintext that was encrypted */
export function jwsHeadersOf(plaintext: string | Uint8Array): Json[] {
  const text = typeof plaintext === 'string' ? plaintext : Buffer.from(plaintext).toString('utf8');
  try {
    return inspect(text).headers;
  } catch {
    return [];
  }
}

/** the payload of a compact JWS (the plaintext of a JWE the harness built), as text; undefined for anything else */
export function jwsPayloadOf(plaintext: string | Uint8Array): string | undefined {
  const text = typeof plaintext === 'string' ? plaintext : Buffer.from(plaintext).toString('utf8');
  const parts = text.split('.');
  if (parts.length === 3 && /^[A-Za-z0-9_-]*$/.test(parts[1]!))
    return Buffer.from(parts[1]!, 'base64url').toString('utf8');
  try {
    // a JWS in JSON serialization
    const j = JSON.parse(text) as Record<string, unknown>;
    return typeof j.payload === 'string' ? Buffer.from(j.payload, 'base64url').toString('utf8') : undefined;
  } catch {
    return undefined;
  }
}

/**
 * what the harness sealed, by the envelope's iv and tag (unique to each envelope), whatever form it is sent in (an
 * object, its JSON text, a compact string): the inner headers and the payload, for a run's HAR. The last MAX_SEALED.
 */
const byTag = new Map<string, { inner: Json[]; payload?: string }>();
const MAX_SEALED = 4096;

/** the iv and tag of an envelope (object, JSON text or compact), its key in byTag */
function tagKey(envelope: unknown): string | undefined {
  let e = envelope;
  if (typeof e === 'string') {
    const parts = e.trim().split('.');
    if (parts.length === 5) return `${parts[2]}.${parts[4]}`;
    try {
      e = JSON.parse(e) as unknown;
    } catch {
      return undefined;
    }
  }
  if (typeof e !== 'object' || e === null) return undefined;
  const { iv, tag } = e as Record<string, unknown>;
  return typeof iv === 'string' && typeof tag === 'string' ? `${iv}.${tag}` : undefined;
}

/**
 * remembers the inner headers of `envelope` and, when given, the payload it carries (returns it, for use in a
 * return statement)
 */
export function rememberInner<T>(envelope: T, inner: Json[], payload?: string): T {
  const key = inner.length || payload !== undefined ? tagKey(envelope) : undefined;
  if (key !== undefined) {
    if (byTag.size >= MAX_SEALED) byTag.delete(byTag.keys().next().value!);
    byTag.set(key, { inner, ...(payload !== undefined ? { payload } : {}) });
  }
  if (inner.length === 0) return envelope;
  if (typeof envelope === 'string') {
    if (byString.size >= MAX_STRINGS) byString.delete(byString.keys().next().value!);
    byString.set(envelope, inner);
  } else if (typeof envelope === 'object' && envelope !== null) byObject.set(envelope, inner);
  return envelope;
}

/** the payload of the JWS inside an envelope the harness built, when it remembers it (in any form it was sent) */
export function sealedPayloadOf(envelope: unknown): string | undefined {
  const key = tagKey(envelope);
  return key === undefined ? undefined : byTag.get(key)?.payload;
}

/** the inner JWS headers of an envelope the harness built, when it remembers them */
export function innerHeadersOf(envelope: unknown): Json[] | undefined {
  const known =
    typeof envelope === 'string'
      ? byString.get(envelope)
      : typeof envelope === 'object' && envelope !== null
        ? byObject.get(envelope)
        : undefined;
  if (known) return known;
  const key = tagKey(envelope);
  const byKey = key === undefined ? undefined : byTag.get(key)?.inner;
  return byKey?.length ? byKey : undefined;
}
