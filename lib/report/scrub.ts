/**
 * Defence in depth before anything is written: results are meant to arrive redacted (the engine masks
 * and redacts), but the writers still refuse to put obvious credentials on disk:
 *  - the value of credential-bearing headers (authorization, proxy-authorization, cookie, set-cookie,
 *    x-api-key) keeps only its scheme word, e.g. "Bearer [redacted]", and the engine's token fingerprint
 *    ("(token sha256:1a2b3c4d5e6f)", a 48-bit hash prefix that tells two tokens apart);
 *  - any PEM PRIVATE KEY block in any string becomes "[redacted private key]".
 * The input is not changed: what changes is copied, what does not is shared with the input.
 */
import type { RunResults } from '../engine/results.ts';

const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key']);
const PEM_PRIVATE = /-----BEGIN ([A-Z ]*)PRIVATE KEY-----[\s\S]*?(-----END \1PRIVATE KEY-----|$)/g;
const REDACTED = '[redacted]';

/** the token fingerprint the engine appends (lib/engine/session/session.ts): a short hash prefix, kept */
const FINGERPRINT = /\s\(token sha256:[0-9a-f]{12}\)$/;

function redactHeader(value: string): string {
  const fingerprint = FINGERPRINT.exec(value)?.[0] ?? '';
  const rest = value.slice(0, value.length - fingerprint.length);
  if (rest.includes(REDACTED)) return value;
  const scheme = /^(Bearer|Basic|DPoP|Digest)\s/i.exec(rest)?.[1];
  return `${scheme ? `${scheme} ${REDACTED}` : REDACTED}${fingerprint}`;
}

/**
 * The scrubbed value; copy-on-write: an array or plain object none of whose strings change is returned as it is (a
 * run's results are megabytes of evidence, nearly all of it unchanged: copying it all was a tenth of the reports' CPU)
 */
function walk(x: unknown, headerName?: string): unknown {
  if (typeof x === 'string') {
    const s = x.includes('PRIVATE KEY-----') ? x.replace(PEM_PRIVATE, '[redacted private key]') : x;
    return headerName && SECRET_HEADERS.has(headerName.toLowerCase()) ? redactHeader(s) : s;
  }
  if (Array.isArray(x)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < x.length; i++) {
      const e: unknown = x[i];
      const w = walk(e);
      if (w !== e) (out ??= x.slice())[i] = w;
    }
    return out ?? x;
  }
  if (x && typeof x === 'object') {
    const proto: unknown = Object.getPrototypeOf(x);
    // only a plain object is kept as it is; anything else (a class instance) becomes its own enumerable members
    let out: Record<string, unknown> | undefined = proto === Object.prototype || proto === null ? undefined : {};
    const entries = Object.entries(x);
    for (const [k, val] of entries) {
      const w = walk(val, k);
      if (out) out[k] = w;
      else if (w !== val) {
        out = {};
        for (const [k2, v2] of entries) {
          if (k2 === k) break;
          out[k2] = v2;
        }
        out[k] = w;
      }
    }
    return out ?? x;
  }
  return x;
}

/** the same defence for any value written apart from the results (a HAR's exchanges, lib/report/har.ts and har-wire.ts) */
export function scrubValue<T>(value: T): T {
  return walk(value) as T;
}

/**
 * a credential header's string value in JSON text as JSON.stringify writes it (`"name": "value"`, the name in any case,
 * escaped quotes inside the value); its value group as JSON text
 */
const SECRET_HEADER_TEXT = /"(?:authorization|proxy-authorization|cookie|set-cookie|x-api-key)": "((?:[^"\\]|\\.)*)"/gi;

/**
 * Whether the scrub may change a value, told from its JSON text (JSON.stringify with a 2-space indent, as results.json
 * is written: a few milliseconds, where walking a run's megabytes of results is tens): false only when no string holds
 * a private key's armour and every credential header's value is redacted already (what the engine writes). The text
 * check is wider than the walk (a key's name, a value inside an escaped JSON text count too): when in doubt, walk.
 */
export function mayScrub(text: string): boolean {
  if (text.includes('PRIVATE KEY-----')) return true;
  for (const m of text.matchAll(SECRET_HEADER_TEXT)) if (!m[1]!.includes(REDACTED)) return true;
  return false;
}

export function scrubResults(results: RunResults): RunResults {
  return walk(results) as RunResults;
}
