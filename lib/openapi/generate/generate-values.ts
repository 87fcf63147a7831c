/**
 * Candidate values of the input generator (generate.ts): for one constraint of a schema and the member's valid value,
 * values that may violate it. The generator keeps the first candidate the schema validator finds to violate that
 * constraint alone; a candidate is only a guess until then. Pure.
 */
export type Schema = { readonly [k: string]: unknown };

/** the JSON types a schema allows (`nullable` of OpenAPI 3.0 counted), undefined when it states none */
export function typesOf(s: Schema): string[] | undefined {
  const t = s.type;
  if (t === undefined) return undefined;
  const list = (Array.isArray(t) ? t : [t]).filter((x): x is string => typeof x === 'string');
  return s.nullable === true ? [...list, 'null'] : list;
}

const JSON_TYPES = ['string', 'number', 'boolean', 'null', 'array', 'object'] as const;

/** one value of a JSON type, made from the member's valid value where it can be ("150.00" → 150) */
function valueOfType(type: string, v: unknown, integerAllowed: boolean): unknown {
  switch (type) {
    case 'string':
      return v === undefined || v === null || typeof v === 'object' ? 'x' : String(v);
    case 'number': {
      // where integers are allowed, only a fraction is of another type
      if (integerAllowed) return 1.5;
      const n = typeof v === 'string' || typeof v === 'boolean' ? Number(v) : NaN;
      return Number.isFinite(n) && typeof v === 'string' && v.trim() !== '' ? n : 150;
    }
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'array':
      return v === undefined ? [] : [v];
    default:
      return {};
  }
}

/** the types a schema does not allow, each with a value of that type (an integer is a number) */
export function otherTypes(s: Schema, v: unknown): { type: string; value: unknown }[] {
  const allowed = typesOf(s);
  if (!allowed) return [];
  const integerAllowed = allowed.includes('integer');
  return JSON_TYPES.filter((t) => !allowed.includes(t)).map((t) => ({
    type: t === 'number' && integerAllowed ? 'number (not an integer)' : t,
    value: valueOfType(t, v, integerAllowed),
  }));
}

const str = (v: unknown): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v));

/** strings that may break a pattern: empty, blank, padded, punctuated, case changed, cut, doubled */
function patternCandidates(v: unknown, s: Schema): string[] {
  const t = str(v);
  const len = typeof s.minLength === 'number' ? Math.max(1, s.minLength) : 1;
  const last = t.at(-1) ?? 'a';
  return [
    `${t}!`,
    `!${t.slice(1)}`,
    `${t.slice(0, -1)}!`,
    `${t} `,
    ` ${t}`,
    t.toLowerCase(),
    t.toUpperCase(),
    `${t}${last}`,
    t.slice(1),
    t.slice(0, -1),
    `-${t}`,
    '!'.repeat(len),
    'a'.repeat(len),
    '0'.repeat(len),
    'A'.repeat(len),
    ' '.repeat(len),
    '',
  ];
}

/** strings of length n made from the valid value (its head, or padded with its last character), then plain ones */
function ofLength(v: unknown, n: number): string[] {
  const t = str(v);
  const pad = t.at(-1) ?? 'a';
  return [t.length >= n ? t.slice(0, n) : t.padEnd(n, pad), 'a'.repeat(n), '0'.repeat(n), 'A'.repeat(n), '1'.repeat(n)];
}

const num = (v: unknown): number => (typeof v === 'number' ? v : 0);

function numberCandidates(keyword: string, bound: number, integer: boolean, multipleOf: unknown): number[] {
  const step = integer ? 1 : Math.max(Math.abs(bound) / 100, 0.01);
  // a multiple of multipleOf just past the bound, so that only the bound is broken
  const m = typeof multipleOf === 'number' && multipleOf > 0 ? multipleOf : undefined;
  switch (keyword) {
    case 'minimum':
      return [bound - step, bound - 1, bound - 0.5, ...(m ? [Math.ceil(bound / m) * m - m] : [])];
    case 'maximum':
      return [bound + step, bound + 1, bound + 0.5, ...(m ? [Math.floor(bound / m) * m + m] : [])];
    default:
      // exclusiveMinimum / exclusiveMaximum: the bound itself
      return [bound];
  }
}

function differentFrom(list: readonly unknown[]): unknown[] {
  const strings = list.filter((x): x is string => typeof x === 'string');
  const numbers = list.filter((x): x is number => typeof x === 'number');
  const out: unknown[] = [];
  for (const s of strings.slice(0, 3)) {
    const last = s.at(-1) ?? 'a';
    const next = String.fromCharCode(last.charCodeAt(0) === 90 ? 89 : last.charCodeAt(0) + 1);
    out.push(`${s.slice(0, -1)}${next}`, s.toLowerCase(), `${s}X`, 'ZZZ', 'XXX');
  }
  if (numbers.length > 0) out.push(Math.max(...numbers) + 1, Math.min(...numbers) - 1);
  out.push('x', 0, false);
  return out.filter((x) => !list.some((y) => JSON.stringify(y) === JSON.stringify(x)));
}

const FORMAT_TEXT = ['x', 'not-a-value', '', '::', '2020-13-45', '25:61:00', '1.2.3.4.5', '@', 'http://', 'a b'];

/** arrays of n items made from the valid ones: copies, or copies made distinct (uniqueItems) */
function longer(v: readonly unknown[], n: number): unknown[][] {
  const extra = Array.from({ length: Math.max(0, n - v.length) }, (_, i) => i);
  const first = v[0];
  return [
    [...v, ...extra.map((i) => variant(first, i, 0))],
    [...v, ...extra.map(() => first)],
  ];
}

/** a copy of an item made different from it: a string or number changed, or an object's first such member */
function variant(x: unknown, i: number, depth: number): unknown {
  if (typeof x === 'string') return `${x}${i}`;
  if (typeof x === 'number') return x + i + 1;
  if (depth > 4 || x === null || typeof x !== 'object' || Array.isArray(x)) return x;
  const entries = Object.entries(x);
  const at = entries.findIndex(([, y]) => typeof y === 'string' || typeof y === 'number');
  if (at < 0) return x;
  return Object.fromEntries(entries.map(([k, y], j) => [k, j === at ? variant(y, i, depth + 1) : y]));
}

/** candidates that may violate `keyword` of schema `s`, for a member whose valid value is `v` */
export function candidatesFor(keyword: string, s: Schema, v: unknown): unknown[] {
  const bound = s[keyword];
  const integer = typesOf(s)?.includes('integer') === true && typesOf(s)?.includes('number') !== true;
  switch (keyword) {
    case 'enum':
      return Array.isArray(bound) ? differentFrom(bound) : [];
    case 'const':
      return differentFrom([bound]);
    case 'pattern':
      return patternCandidates(v, s);
    case 'minLength':
      return typeof bound === 'number' && bound > 0 ? ofLength(v, bound - 1) : [];
    case 'maxLength':
      return typeof bound === 'number' ? ofLength(v, bound + 1) : [];
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return typeof bound === 'number' ? numberCandidates(keyword, bound, integer, s.multipleOf) : [];
    case 'multipleOf':
      return typeof bound === 'number' ? [num(v) + bound / 2, bound / 2, bound * 1.5, bound + 1] : [];
    case 'minItems':
      return typeof bound === 'number' && bound > 0 && Array.isArray(v) ? [v.slice(0, bound - 1)] : [];
    case 'maxItems':
      return typeof bound === 'number' && Array.isArray(v) && v.length > 0 ? longer(v, bound + 1) : [];
    case 'uniqueItems':
      return bound === true && Array.isArray(v) && v.length > 0 ? [[...v, v[0]]] : [];
    case 'format':
      return typesOf(s)?.includes('string') === false ? [2 ** 31, 2 ** 63, 1.5] : FORMAT_TEXT;
    default:
      return [];
  }
}

/** a valid value to try for a member absent from the base document: its default, example, first enum value… */
export function sampleValues(s: Schema): unknown[] {
  const out: unknown[] = [];
  for (const k of ['default', 'example', 'const'] as const) if (s[k] !== undefined) out.push(s[k]);
  if (Array.isArray(s.examples)) out.push(...(s.examples as unknown[]));
  if (Array.isArray(s.enum)) out.push(...(s.enum as unknown[]).slice(0, 1));
  const types = typesOf(s) ?? [];
  const min = typeof s.minLength === 'number' ? s.minLength : 1;
  if (types.includes('string')) out.push('a'.repeat(Math.max(min, 1)), '1'.repeat(Math.max(min, 1)));
  if (types.includes('integer') || types.includes('number'))
    out.push(typeof s.minimum === 'number' ? s.minimum : 1, typeof s.maximum === 'number' ? s.maximum : 1);
  if (types.includes('boolean')) out.push(true);
  if (types.includes('array')) out.push([]);
  if (types.includes('object')) out.push({});
  return out;
}
