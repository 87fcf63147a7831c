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
import type { Redactor } from './types.ts';

const SENSITIVE_FIELDS: Record<string, string> = {
  access_token: 'token',
  refresh_token: 'refresh-token',
  id_token: 'token',
  code: 'code',
  client_secret: 'client-secret',
};
const FIELD_NAMES = Object.keys(SENSITIVE_FIELDS).join('|');
/** "name": "value" | "name": 123 (the value only is replaced) */
const JSON_FIELD = new RegExp(`("(${FIELD_NAMES})"\\s*:\\s*)("(?:[^"\\\\]|\\\\.)*"|-?[0-9][^,}\\]\\s]*)`, 'g');
/** JSON inside a JSON string (escaped quotes): \"name\":\"value\" */
const ESCAPED_JSON_FIELD = new RegExp(`(\\\\"(${FIELD_NAMES})\\\\"\\s*:\\s*)(\\\\"(?:[^"\\\\]|\\\\[^"])*\\\\")`, 'g');
/** form body or query string: name=value at the start, or after & or ? */
const FORM_FIELD = new RegExp(`(^|[&?])(${FIELD_NAMES})=([^&#\\s"]*)`, 'g');
const PEM_PRIVATE = /-----BEGIN ([A-Z0-9 ]*)PRIVATE KEY-----[\s\S]*?(?:-----END \1PRIVATE KEY-----|$)/g;
/** Authorization values written in text (a logged header line, an echoed header in a body) */
const AUTH_IN_TEXT = /((?:proxy-)?authorization["']?\s*[:=]\s*["']?)(Basic|Bearer)\s+[A-Za-z0-9._~+/=-]+/gi;

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

/** a registered variant: its replacement and its place in the order they are applied (longest first) */
interface Entry {
  secret: string;
  rep: string;
  rank: number;
}

/** the length of the prefix that indexes the variants (every variant is at least this long: add refuses shorter) */
const PREFIX = 4;

/**
 * The registered variants, indexed so that a text is searched only for the variants that can be in it: those
 * whose first PREFIX characters occur in it, and those that could straddle a replacement put in by an earlier
 * one (containing a replacement's first or last character, e.g. "[" or "]"). A run registers hundreds of tokens
 * (four variants each) and redacts every header value and body it records: searching each text for every
 * variant was most of the recording's cost.
 */
function indexOf(table: Map<string, string>): { ordered: Entry[]; byPrefix: Map<string, Entry[]>; always: Entry[] } {
  const ordered = [...table.entries()]
    .sort((a, b) => b[0].length - a[0].length)
    .map(([secret, rep], rank) => ({ secret, rep, rank }));
  const ends = new Set<string>();
  for (const e of ordered) if (e.rep) ends.add(e.rep[0]!).add(e.rep[e.rep.length - 1]!);
  const byPrefix = new Map<string, Entry[]>();
  const always: Entry[] = [];
  for (const e of ordered) {
    if (e.secret.length < PREFIX || [...ends].some((c) => e.secret.includes(c))) always.push(e);
    else {
      const k = e.secret.slice(0, PREFIX);
      const list = byPrefix.get(k);
      if (list) list.push(e);
      else byPrefix.set(k, [e]);
    }
  }
  return { ordered, byPrefix, always };
}

/** the registered variants in `text`, replaced longest first (as if each variant were searched for in turn) */
function replaceRegistered(text: string, index: ReturnType<typeof indexOf>): string {
  const found = new Set<Entry>(index.always);
  for (let i = 0; i + PREFIX <= text.length; i++) {
    const list = index.byPrefix.get(text.slice(i, i + PREFIX));
    if (list) for (const e of list) found.add(e);
  }
  if (found.size === 0) return text;
  let out = text;
  for (const e of [...found].sort((a, b) => a.rank - b.rank))
    if (out.includes(e.secret)) out = out.split(e.secret).join(e.rep);
  return out;
}

export function createRedactor(): Redactor {
  /** variant -> replacement; longest first when applied, so a secret containing another goes whole */
  const table = new Map<string, string>();
  /** the secrets added so far, as given */
  const added = new Set<string>();
  let index: ReturnType<typeof indexOf> | null = null;

  const redactor: Redactor = {
    add(secret: string, kind: string, replacement?: string): void {
      // very short strings would redact ordinary text; nothing real is that short
      if (typeof secret !== 'string' || secret.length < 4) return;
      // added before (a token is learnt again from every request that carries it): its variants are all there
      if (added.has(secret) && replacement === undefined) return;
      added.add(secret);
      const rep = replacement ?? replacementFor(kind);
      for (const v of variants(secret)) if (!table.has(v)) table.set(v, rep);
      if (kind === 'private-key') {
        // a key PEM may be re-wrapped: register its base64 body too
        const body = secret.replace(/-----[A-Z0-9 ]+-----/g, '').replace(/\s+/g, '');
        if (body.length >= 32 && !table.has(body)) table.set(body, rep);
      }
      index = null;
    },

    redact(text: string): string {
      if (!text) return text;
      let out = text.replace(PEM_PRIVATE, '[REDACTED:private-key]');
      out = out.replace(JSON_FIELD, (_m, pre: string, name: string) => `${pre}"[REDACTED:${SENSITIVE_FIELDS[name]}]"`);
      out = out.replace(
        ESCAPED_JSON_FIELD,
        (_m, pre: string, name: string) => `${pre}\\"[REDACTED:${SENSITIVE_FIELDS[name]}]\\"`,
      );
      out = out.replace(
        FORM_FIELD,
        (_m, sep: string, name: string) => `${sep}${name}=[REDACTED:${SENSITIVE_FIELDS[name]}]`,
      );
      out = out.replace(
        AUTH_IN_TEXT,
        (_m, pre: string, scheme: string) =>
          `${pre}${scheme} [REDACTED:${scheme.toLowerCase() === 'bearer' ? 'token' : 'credentials'}]`,
      );
      if (table.size) out = replaceRegistered(out, (index ??= indexOf(table)));
      return out;
    },

    redactHeaders(headers: Record<string, string>): Record<string, string> {
      const out: Record<string, string> = {};
      for (const [name, value] of Object.entries(headers)) {
        const lower = name.toLowerCase();
        if (lower === 'authorization' || lower === 'proxy-authorization') out[name] = redactAuthorization(value);
        else if (lower === 'x-gateway-client-secret') out[name] = '[REDACTED:client-secret]';
        else if (lower === 'cookie' || lower === 'set-cookie') out[name] = '[REDACTED:cookie]';
        else out[name] = redactor.redact(value);
      }
      return out;
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
