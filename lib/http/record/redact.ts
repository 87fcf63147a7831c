/**
 * The redactor: everything recorded goes through it before it is kept.
 *
 * Always redacted, without registration:
 *  - header values of Authorization / Proxy-Authorization (scheme kept), X-Gateway-Client-Secret, Cookie, Set-Cookie;
 *  - PEM PRIVATE KEY blocks (also JSON-escaped ones, and one cut off by truncation);
 *  - JSON members and form/query fields named access_token, refresh_token, code, client_secret, id_token.
 * Registered secrets (add): replaced wherever they appear, also URL-encoded, form-encoded and JSON-escaped.
 * A clear account id (kind 'account-id' or 'emirates-id') is replaced by a marker that says so, e.g.
 * "[clear account id of customer alice]": never by its mask, which would read as if the clear id had been masked
 * where it was sent (a target that echoed a clear id would look compliant in its own evidence).
 */
import type { Redactor } from '../types.ts';

const SENSITIVE_FIELDS: Record<string, string> = {
  access_token: 'token',
  refresh_token: 'refresh-token',
  id_token: 'token',
  code: 'code',
  client_secret: 'client-secret',
};
/** the patterns of the sensitive fields whose kind is not kept */
function fieldPatterns(
  keep: ReadonlySet<string>,
): { any: RegExp; json: RegExp; escaped: RegExp; form: RegExp } | undefined {
  const names = Object.keys(SENSITIVE_FIELDS)
    .filter((n) => !keep.has(SENSITIVE_FIELDS[n]!))
    .join('|');
  if (!names) return undefined;
  return {
    /** a name of one: the three patterns below each need one, so a text without any skips them */
    any: new RegExp(names),
    /** "name": "value" | "name": 123 (the value only is replaced) */
    json: new RegExp(`("(${names})"\\s*:\\s*)("(?:[^"\\\\]|\\\\.)*"|-?[0-9][^,}\\]\\s]*)`, 'g'),
    /** JSON inside a JSON string (escaped quotes): \"name\":\"value\" */
    escaped: new RegExp(`(\\\\"(${names})\\\\"\\s*:\\s*)(\\\\"(?:[^"\\\\]|\\\\[^"])*\\\\")`, 'g'),
    /** form body or query string: name=value at the start, or after & or ? */
    form: new RegExp(`(^|[&?])(${names})=([^&#\\s"]*)`, 'g'),
  };
}
const PEM_PRIVATE = /-----BEGIN ([A-Z0-9 ]*)PRIVATE KEY-----[\s\S]*?(?:-----END \1PRIVATE KEY-----|$)/g;
/** Authorization values written in text (a logged header line, an echoed header in a body) */
const AUTH_IN_TEXT = /((?:proxy-)?authorization["']?\s*[:=]\s*["']?)(Basic|Bearer)\s+[A-Za-z0-9._~+/=-]+/gi;
/** what AUTH_IN_TEXT and PEM_PRIVATE each need in a text (tested first: most recorded texts have neither) */
const AUTH_WORD = /authorization/i;
const PEM_WORD = 'PRIVATE KEY-----';

/** the marker of a clear identifier: what it is and, when known, whose (e.g. "customer alice") */
export function clearIdMarker(kind: string, whose?: string): string {
  const what = kind === 'emirates-id' ? 'emirates id' : 'account id';
  return `[clear ${what}${whose ? ` of ${whose}` : ''}]`;
}

/** replacement for a registered secret of this kind */
function replacementFor(kind: string): string {
  return kind === 'account-id' || kind === 'emirates-id' ? clearIdMarker(kind) : `[REDACTED:${kind}]`;
}

/** the forms a secret may take in a recorded message */
function variants(secret: string): string[] {
  const out = new Set<string>([secret]);
  out.add(encodeURIComponent(secret));
  out.add(new URLSearchParams({ x: secret }).toString().slice(2)); // form encoding: space as +
  out.add(JSON.stringify(secret).slice(1, -1)); // JSON-escaped (PEM newlines as \n)
  return [...out].filter((v) => v.length > 0);
}

export function redactAuthorization(value: string): string {
  const m = /^\s*([A-Za-z][A-Za-z0-9-]*)\s+\S/.exec(value);
  if (!m) return '[REDACTED:credentials]';
  const scheme = m[1]!;
  return `${scheme} [REDACTED:${scheme.toLowerCase() === 'bearer' ? 'token' : 'credentials'}]`;
}

/** a registered variant: its replacement and its position in the order they are applied (longest first, then oldest) */
interface Entry {
  secret: string;
  rep: string;
  /** registration order: of two variants of one length, the one registered first is applied first */
  seq: number;
}

/** the length of the prefix that indexes the variants (every variant is at least this long: add refuses shorter) */
const PREFIX = 4;
/** bits of the prefix filter: a bit per hash of a registered prefix (a run registers a few thousand variants) */
const FILTER_BITS = 18;

/** the filter's hash of the PREFIX characters of `s` at `i` (UTF-16 code units, as slice() counts them) */
function prefixHash(s: string, i: number): number {
  return (
    (Math.imul(s.charCodeAt(i), 0x9e3779b1) ^
      Math.imul(s.charCodeAt(i + 1), 0x85ebca6b) ^
      Math.imul(s.charCodeAt(i + 2), 0xc2b2ae35) ^
      Math.imul(s.charCodeAt(i + 3), 0x27d4eb2f)) >>>
    (32 - FILTER_BITS)
  );
}

/** applied first: the longer variant, so that a secret containing another goes whole; then the older */
const byOrder = (a: Entry, b: Entry): number => b.secret.length - a.secret.length || a.seq - b.seq;

/**
 * The registered variants, indexed so that a text is searched only for the variants that can be in it: those
 * whose first PREFIX characters occur in it, and those that could straddle a replacement put in by an earlier
 * one (containing a replacement's first or last character, e.g. "[" or "]"). A run registers hundreds of tokens
 * (four variants each) and redacts every header value and body it records: searching each text for every
 * variant was most of the recording's cost. Kept up to date as variants are registered (rebuilt only when a
 * replacement brings a new first or last character); a text's positions are first tested against a bit filter of
 * the prefixes' hashes, and only a hit looks the prefix up.
 */
class VariantIndex {
  private readonly entries: Entry[] = [];
  private readonly ends = new Set<string>();
  private byPrefix = new Map<string, Entry[]>();
  private always: Entry[] = [];
  private filter = new Uint32Array(1 << (FILTER_BITS - 5));

  get size(): number {
    return this.entries.length;
  }

  add(secret: string, rep: string): void {
    const e: Entry = { secret, rep, seq: this.entries.length };
    this.entries.push(e);
    const before = this.ends.size;
    if (rep) this.ends.add(rep[0]!).add(rep[rep.length - 1]!);
    if (this.ends.size !== before) this.rebuild();
    else this.place(e);
  }

  private place(e: Entry): void {
    if (e.secret.length < PREFIX || [...this.ends].some((c) => e.secret.includes(c))) {
      this.always.push(e);
      return;
    }
    const k = e.secret.slice(0, PREFIX);
    const list = this.byPrefix.get(k);
    if (list) list.push(e);
    else this.byPrefix.set(k, [e]);
    const h = prefixHash(e.secret, 0);
    this.filter[h >>> 5]! |= 1 << (h & 31);
  }

  private rebuild(): void {
    this.byPrefix = new Map();
    this.always = [];
    this.filter = new Uint32Array(1 << (FILTER_BITS - 5));
    for (const e of this.entries) this.place(e);
  }

  /** the registered variants in `text`, replaced longest first (as if each variant were searched for in turn) */
  replace(text: string): string {
    // made at the first hit only: most texts (header values, summaries) hold no registered variant
    let found: Set<Entry> | undefined = this.always.length ? new Set(this.always) : undefined;
    const filter = this.filter;
    for (let i = 0, last = text.length - PREFIX; i <= last; i++) {
      const h = prefixHash(text, i);
      if ((filter[h >>> 5]! & (1 << (h & 31))) === 0) continue;
      const list = this.byPrefix.get(text.slice(i, i + PREFIX));
      if (list) for (const e of list) (found ??= new Set()).add(e);
    }
    if (!found) return text;
    let out = text;
    for (const e of [...found].sort(byOrder)) if (out.includes(e.secret)) out = out.split(e.secret).join(e.rep);
    return out;
  }
}

/** the kinds of secret `keeping(TOKEN_KINDS)` keeps: what a replay in a test environment needs */
export const TOKEN_KINDS: readonly string[] = ['token', 'refresh-token', 'code', 'code-verifier'];

/**
 * `keep`: the kinds of secret left in (a HAR kept for replay: TOKEN_KINDS); never client secrets, credentials,
 * private keys or clear identifiers
 */
export function createRedactor(keep: ReadonlySet<string> = new Set()): Redactor {
  const fields = fieldPatterns(keep);
  const keepBearer = keep.has('token');
  /** every secret added, in order, for a redactor that keeps some kinds (keeping) */
  const registrations: { secret: string; kind: string; replacement?: string }[] = [];
  let kept: { kinds: string; upTo: number; redactor: Redactor } | undefined;
  /** variant -> replacement (the first registered); longest first when applied, so a secret containing another goes whole */
  const table = new Map<string, string>();
  const index = new VariantIndex();
  const register = (variant: string, rep: string): void => {
    if (table.has(variant)) return;
    table.set(variant, rep);
    index.add(variant, rep);
  };
  /** the secrets added so far, as given */
  const added = new Set<string>();

  const redactor: Redactor = {
    add(secret: string, kind: string, replacement?: string): void {
      // very short strings would redact ordinary text; nothing real is that short
      if (typeof secret !== 'string' || secret.length < 4) return;
      // added before (a token is learnt again from every request that carries it): its variants are all there
      if (added.has(secret) && replacement === undefined) return;
      added.add(secret);
      registrations.push({ secret, kind, ...(replacement !== undefined ? { replacement } : {}) });
      if (keep.has(kind)) return;
      const rep = replacement ?? replacementFor(kind);
      for (const v of variants(secret)) register(v, rep);
      if (kind === 'private-key') {
        // a key PEM may be re-wrapped: register its base64 body too
        const body = secret.replace(/-----[A-Z0-9 ]+-----/g, '').replace(/\s+/g, '');
        if (body.length >= 32) register(body, rep);
      }
    },

    redact(text: string): string {
      if (!text) return text;
      let out = text.includes(PEM_WORD) ? text.replace(PEM_PRIVATE, '[REDACTED:private-key]') : text;
      if (fields?.any.test(out)) {
        out = out.replace(
          fields.json,
          (_m, pre: string, name: string) => `${pre}"[REDACTED:${SENSITIVE_FIELDS[name]}]"`,
        );
        out = out.replace(
          fields.escaped,
          (_m, pre: string, name: string) => `${pre}\\"[REDACTED:${SENSITIVE_FIELDS[name]}]\\"`,
        );
        out = out.replace(
          fields.form,
          (_m, sep: string, name: string) => `${sep}${name}=[REDACTED:${SENSITIVE_FIELDS[name]}]`,
        );
      }
      if (AUTH_WORD.test(out))
        out = out.replace(AUTH_IN_TEXT, (m, pre: string, scheme: string) =>
          keepBearer && scheme.toLowerCase() === 'bearer'
            ? m
            : `${pre}${scheme} [REDACTED:${scheme.toLowerCase() === 'bearer' ? 'token' : 'credentials'}]`,
        );
      if (index.size) out = index.replace(out);
      return out;
    },

    redactHeaders(headers: Record<string, string>): Record<string, string> {
      const out: Record<string, string> = {};
      for (const [name, value] of Object.entries(headers)) {
        const lower = name.toLowerCase();
        if (lower === 'authorization' && keepBearer && /^\s*Bearer\s/i.test(value)) out[name] = value;
        else if (lower === 'authorization' || lower === 'proxy-authorization') out[name] = redactAuthorization(value);
        else if (lower === 'x-gateway-client-secret') out[name] = '[REDACTED:client-secret]';
        else if (lower === 'cookie' || lower === 'set-cookie') out[name] = '[REDACTED:cookie]';
        else out[name] = redactor.redact(value);
      }
      return out;
    },

    keeping(kinds: readonly string[]): Redactor {
      const key = [...kinds].sort().join(',');
      if (kept?.kinds !== key || kept.upTo !== registrations.length) {
        const r = createRedactor(new Set(kinds));
        for (const g of registrations) r.add(g.secret, g.kind, g.replacement);
        kept = { kinds: key, upTo: registrations.length, redactor: r };
      }
      return kept.redactor;
    },
  };
  return redactor;
}

/** values learnt from headers shorter than this are test inputs (e.g. a deliberately wrong secret "x"), not
 *  secrets; registering them would blank ordinary words in the evidence */
const MIN_LEARNT = 8;

/**
 * Learn the secrets a request carries in its headers (Bearer token, Basic credentials and the secret inside
 * them, X-Gateway-Client-Secret), so that an echo of them anywhere else is redacted too.
 */
export function learnFromHeaders(target: Redactor, headers: Record<string, string>): void {
  const redactor = { add: (v: string, kind: string) => (v.length >= MIN_LEARNT ? target.add(v, kind) : undefined) };
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (lower === 'authorization' || lower === 'proxy-authorization') {
      const m = /^\s*(\S+)\s+(\S+)\s*$/.exec(value);
      if (!m) continue;
      const [, scheme, cred] = m as unknown as [string, string, string];
      if (scheme.toLowerCase() === 'bearer') redactor.add(cred, 'token');
      else if (scheme.toLowerCase() === 'basic') {
        redactor.add(cred, 'credentials');
        const decoded = Buffer.from(cred, 'base64').toString('utf8');
        const colon = decoded.indexOf(':');
        if (colon >= 0) redactor.add(decoded.slice(colon + 1), 'client-secret');
      } else redactor.add(cred, 'credentials');
    } else if (lower === 'x-gateway-client-secret') redactor.add(value, 'client-secret');
  }
}
