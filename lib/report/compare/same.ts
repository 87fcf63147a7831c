/**
 * `npm run compare -- --same a.json b.json`: are two results files the same run? Field by field, after the values
 * that no two runs can share are replaced by a placeholder (SAME_RUN_NORMALISED, the documented list). Arrays of
 * keyed records (profiles, results, prerequisites, cases) are matched by their key, not their place; a check's
 * recorded exchanges and notes, and failure records, are compared as sets (their order is the order calls answered
 * or checks ended, which the scheduler decides and which carries no meaning). Every remaining difference is listed
 * with its path.
 */
import type { RunResults } from '../../engine/results.ts';

/** what `--same` does not compare, and why no two runs can share it (docs/results-schema.md sums it up) */
export const SAME_RUN_NORMALISED: readonly string[] = [
  'times: startedAt, finishedAt, created_at, consented_on, validFrom, validTo, an HTTP date header, any ISO time in text',
  'durations: durationMs, and "<n> ms" in notes and reasons',
  "the embedded mock's origin, and any loopback port (chosen by the system); a real target's host is compared",
  'fresh per call or per run, as the protocols demand: UUIDs (transfer ids, MsgId, X-Request-Id), payment reference ids, OAuth state, code and PKCE code_challenge, PBES2 salts (p2s), token and certificate fingerprints and certificates (keys are made at run time), jti, nonces',
  'JWS and JWE compact serialisations past their protected header (a fresh key, IV or signature each time; iat, jti)',
  "countdowns in wall seconds (a token's remaining lifetime, …expires_in in a body; Retry-After): equal within the longer run's duration",
  'content-length: follows a body that holds those fresh values (the body itself is compared)',
  "measurements of the transport: traffic.concurrency (the adapted window, connections), a property search's roundTrips and chain (calls that did not overlap), a burst's requests on kept connections, how far the shared test clock had moved before a check (other checks moved it first)",
  "the order of a check's recorded exchanges and notes (the order calls answered in) and of failure records, and a call's number among concurrent ones (#n in its label): compared as sets",
];

export interface SameRunDifference {
  /** e.g. profiles[mock-uat].results[transfers.create].reason */
  path: string;
  before?: unknown;
  after?: unknown;
}

const TIME_KEYS = new Set(['startedAt', 'finishedAt', 'created_at', 'consented_on', 'validFrom', 'validTo', 'date']);
const DROPPED_KEYS = new Set([
  'durationMs',
  'content-length',
  'serverCertificateSha256',
  'concurrency',
  'roundTrips',
  'chain',
]);
const FRESH_KEYS = new Set(['sha256', 'x-request-id', 'msgid', 'jti', 'nonce', 'payment_reference_id']);
/** arrays whose order is the scheduler's: compared sorted */
const UNORDERED = new Set(['exchanges', 'notes', 'tls', 'chain', 'failures']);
const UNORDERED_LIST = '\u0000unordered';
/** arrays of keyed records: matched by the key */
const KEYED: Record<string, string> = {
  profiles: 'profile',
  results: 'checkId',
  prerequisites: 'id',
  cases: 'id',
};

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

const REPLACEMENTS: [RegExp, string | ((m: string) => string)][] = [
  // a path segment sent percent-encoded in full (an id spelled another way) reads as its text
  [/(?:%[0-9A-Fa-f]{2}){8,}/g, safeDecode],
  [/\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)\b/g, '<time>'],
  [/\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d\d \w{3} \d{4} \d\d:\d\d:\d\d GMT\b/g, '<time>'],
  [/\b(?:127\.0\.0\.1|localhost|\[::1\]):\d+/g, '<loopback>'],
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<uuid>'],
  [/\bPRF\d{12}\b/g, '<payment-reference>'],
  [/\bsha256:[0-9a-f]{6,64}\b/g, 'sha256:<fresh>'],
  [/([?&](?:state|code|nonce|code_challenge)=)[^&\s"]+/g, '$1<fresh>'],
  [/("p2s":)"[\w-]+"/g, '$1"<fresh>"'],
  [/\bMII[A-Za-z0-9+/]{60,}={0,2}/g, '<certificate>'],
  [/\b\d+(?:\.\d+)? ?ms\b/g, '<n> ms'],
  [/("(?:consented_on|iat|exp|nbf|auth_time)":)\d+/g, '$1"<time>"'],
  [/\b(eyJ[\w-]*)\.[\w-]*\.[\w-]*\.[\w-]*\.[\w-]*/g, '$1.<JWE compact>'],
  [/\b(eyJ[\w-]*)\.[\w-]+\.[\w-]+/g, '$1.<JWS compact>'],
  [/\bthe clock moved \d+ s\b/g, 'the clock moved <n> s'],
  [/, \d+ on connections kept from an earlier burst\b/g, ''],
  [/^\d+ s passed on the clock group's moves\b/g, "<n> s passed on the clock group's moves"],
];

/**
 * a countdown in wall seconds: a token's remaining lifetime (…expires_in in a body), a Retry-After. Two runs
 * read it at other moments: equal within `slack` seconds (the longer run's duration)
 */
const LIFETIME = /("\w*expires_in":|^retry-after: )(\d+)/g;
function sameWithinLifetimes(a: string, b: string, slack: number): boolean {
  const na = [...a.matchAll(LIFETIME)].map((m) => Number(m[2]));
  const nb = [...b.matchAll(LIFETIME)].map((m) => Number(m[2]));
  return (
    na.length > 0 &&
    na.length === nb.length &&
    a.replace(LIFETIME, '$1<n>') === b.replace(LIFETIME, '$1<n>') &&
    na.every((x, i) => Math.abs(x - (nb[i] ?? NaN)) <= slack)
  );
}

function normaliseText(s: string, hosts: readonly string[]): string {
  let out = s;
  for (const h of hosts) out = out.split(h).join('<target>');
  for (const [re, to] of REPLACEMENTS) out = typeof to === 'string' ? out.replace(re, to) : out.replace(re, to);
  return out;
}

const canonical = (v: unknown): string =>
  Array.isArray(v)
    ? `[${v.map(canonical).join(',')}]`
    : v !== null && typeof v === 'object'
      ? `{${Object.keys(v)
          .sort()
          .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
          .join(',')}}`
      : JSON.stringify(v);

function normalise(v: unknown, key: string, hosts: readonly string[]): unknown {
  if (typeof v === 'string') {
    if (TIME_KEYS.has(key)) return '<time>';
    if (FRESH_KEYS.has(key.toLowerCase())) return '<fresh>';
    if (key.toLowerCase() === 'retry-after' && /^\d+$/.test(v)) return `retry-after: ${v}`;
    if (key === 'label') return normaliseText(v.replace(/ #\d+$/, ' #<n>'), hosts);
    return normaliseText(v, hosts);
  }
  if (typeof v === 'number' && TIME_KEYS.has(key)) return '<time>';
  if (Array.isArray(v)) {
    const items = v.map((x) => normalise(x, '', hosts));
    return UNORDERED.has(key) ? items.sort((x, y) => canonical(x).localeCompare(canonical(y))) : items;
  }
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      if (DROPPED_KEYS.has(k.toLowerCase()) || DROPPED_KEYS.has(k)) continue;
      out[normaliseText(k, hosts)] = normalise(x, k, hosts);
    }
    return out;
  }
  return v;
}

/** the embedded mock's origins in a run (its host and port cannot be the same across two runs) */
function hostsOf(r: RunResults): string[] {
  const out = new Set<string>();
  for (const p of r.profiles.filter((x) => x.target.embeddedMock))
    for (const u of [p.target.baseUrl, p.target.oauthBaseUrl])
      if (u)
        try {
          out.add(new URL(u).origin);
        } catch {
          // not a URL: compared as written
        }
  return [...out].sort((a, b) => b.length - a.length);
}

/** results.json as `--same` compares it */
export function normaliseRun(r: RunResults): unknown {
  return normalise(r, '', hostsOf(r));
}

function label(item: unknown, key: string | undefined, i: number): string {
  if (key && item !== null && typeof item === 'object') {
    const k = (item as Record<string, unknown>)[key];
    if (typeof k === 'string') return k;
  }
  return String(i);
}

/**
 * an unordered list (UNORDERED): what one side has more of; leftovers with the same label are compared field by
 * field (path `exchanges[<label>]`), the others listed whole (`[-]` only before, `[+]` only after)
 */
function diffSets(a: unknown[], b: unknown[], path: string, out: SameRunDifference[], slack: number): void {
  const left = [...b];
  const onlyA: unknown[] = [];
  for (const x of a) {
    const i = left.findIndex((y) => alike(x, y, slack));
    if (i >= 0) left.splice(i, 1);
    else onlyA.push(x);
  }
  // an exchange's label, a failure record's check id: what pairs two records that differ
  const labelOf = (x: unknown): string | undefined => {
    if (x === null || typeof x !== 'object') return undefined;
    const o = x as Record<string, unknown>;
    const l = o.label ?? o.checkId;
    return typeof l === 'string' ? l : undefined;
  };
  for (const x of onlyA) {
    const l = labelOf(x);
    const i = l === undefined ? -1 : left.findIndex((y) => labelOf(y) === l);
    if (i >= 0) diff(x, left.splice(i, 1)[0], `${path}[${l}]`, undefined, out, slack);
    else out.push({ path: `${path}[-]`, before: x });
  }
  for (const y of left) out.push({ path: `${path}[+]`, after: y });
}

/** equal, or equal but for token lifetimes within a second */
function alike(a: unknown, b: unknown, slack: number): boolean {
  if (canonical(a) === canonical(b)) return true;
  if (typeof a === 'string' && typeof b === 'string') return sameWithinLifetimes(a, b, slack);
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => alike(x, b[i], slack));
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  const oa = a as Record<string, unknown>;
  const ob = b as Record<string, unknown>;
  const ka = Object.keys(oa).sort();
  return canonical(ka) === canonical(Object.keys(ob).sort()) && ka.every((k) => alike(oa[k], ob[k], slack));
}

function diff(
  a: unknown,
  b: unknown,
  path: string,
  arrayKey: string | undefined,
  out: SameRunDifference[],
  slack: number,
): void {
  if (alike(a, b, slack)) return;
  if (Array.isArray(a) && Array.isArray(b) && arrayKey === UNORDERED_LIST) {
    diffSets(a, b, path, out, slack);
    return;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    // keyed by the record's key when every record has its own, else by place
    const keys = (l: unknown[]): string[] => l.map((x, i) => label(x, arrayKey, i));
    const unique = (k: string[]): boolean => new Set(k).size === k.length;
    const byKey = unique(keys(a)) && unique(keys(b));
    const la = new Map(a.map((x, i) => [byKey ? label(x, arrayKey, i) : String(i), x]));
    const lb = new Map(b.map((x, i) => [byKey ? label(x, arrayKey, i) : String(i), x]));
    for (const [k, x] of la) {
      const p = `${path}[${k}]`;
      if (lb.has(k)) diff(x, lb.get(k), p, undefined, out, slack);
      else out.push({ path: p, before: x });
    }
    for (const [k, y] of lb) if (!la.has(k)) out.push({ path: `${path}[${k}]`, after: y });
    return;
  }
  if (
    a !== null &&
    b !== null &&
    typeof a === 'object' &&
    typeof b === 'object' &&
    !Array.isArray(a) &&
    !Array.isArray(b)
  ) {
    const oa = a as Record<string, unknown>;
    const ob = b as Record<string, unknown>;
    for (const k of new Set([...Object.keys(oa), ...Object.keys(ob)])) {
      const p = path ? `${path}.${k}` : k;
      if (!(k in ob)) out.push({ path: p, before: oa[k] });
      else if (!(k in oa)) out.push({ path: p, after: ob[k] });
      else diff(oa[k], ob[k], p, UNORDERED.has(k) ? UNORDERED_LIST : KEYED[k], out, slack);
    }
    return;
  }
  out.push({ path, before: a, after: b });
}

/** how long a run took, in seconds (0 when its times are not readable) */
function lengthOf(r: RunResults): number {
  const s = (Date.parse(r.finishedAt) - Date.parse(r.startedAt)) / 1000;
  return Number.isFinite(s) && s > 0 ? s : 0;
}

/** the differences between two runs that should be the same run (empty: they are) */
export function compareSameRun(a: RunResults, b: RunResults): SameRunDifference[] {
  const out: SameRunDifference[] = [];
  diff(
    normaliseRun(a),
    normaliseRun(b),
    '',
    undefined,
    out,
    Math.max(1, Math.ceil(Math.max(lengthOf(a), lengthOf(b)))),
  );
  return out;
}

const shown = (v: unknown): string => {
  const s = v === undefined ? 'absent' : JSON.stringify(v);
  return s.length > 300 ? `${s.slice(0, 300)}… (${s.length} characters)` : s;
};

export function renderSameRun(diffs: readonly SameRunDifference[]): string {
  const lines = [`Differences after normalising times, durations, hosts, ports and fresh values: ${diffs.length}`];
  for (const d of diffs) lines.push(`  ${d.path}`, `    before: ${shown(d.before)}`, `    after:  ${shown(d.after)}`);
  return `${lines.join('\n')}\n`;
}
