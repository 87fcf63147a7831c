/**
 * What the harness sealed, remembered for the evidence: the inner JWS headers of an envelope it built (the JWE's
 * content, which nobody but the bank can decrypt), keyed by the envelope it returned. A report can then show the
 * header a negative request really carried (alg "none", a foreign kid...) instead of "<JWE general, 957 bytes>".
 * Only decoded headers are kept (lib/jose inspect: sanitized), never a payload or a key. Bounded.
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

/** remembers the inner headers of `envelope` (returns it, for use in a return statement) */
export function rememberInner<T>(envelope: T, inner: Json[]): T {
  if (inner.length === 0) return envelope;
  if (typeof envelope === 'string') {
    if (byString.size >= MAX_STRINGS) byString.delete(byString.keys().next().value!);
    byString.set(envelope, inner);
  } else if (typeof envelope === 'object' && envelope !== null) byObject.set(envelope, inner);
  return envelope;
}

/** the inner JWS headers of an envelope the harness built, when it remembers them */
export function innerHeadersOf(envelope: unknown): Json[] | undefined {
  if (typeof envelope === 'string') return byString.get(envelope);
  if (typeof envelope === 'object' && envelope !== null) return byObject.get(envelope);
  return undefined;
}
