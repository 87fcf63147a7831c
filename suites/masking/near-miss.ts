/**
 * Near-miss identifiers for the masking properties (docs/properties.md): from a customer's real account id or emirates
 * id, values that are almost its mask (MASK-01/02) or almost the clear id (MASK-03). An input is plain data (what to
 * change where), its value computed from the profile's ids: fast-check shrinks the description, the report shows it
 * in words, and a value that would show more of a clear id than its mask does is marked sensitive.
 */
import { mask, MASK_KEEP_HEAD, MASK_KEEP_TAIL } from '../../lib/mask/index.ts';
import type { Customer } from '../../lib/profile/schema.ts';

export type IdKind = 'account' | 'emirates';
export type End = 'head' | 'tail';

/** characters a mask must not use in place of `x`: other mask characters and Unicode look-alikes of x */
export const NOT_X = ['X', '*', '•', '\u0445', '\uff58', '\u00d7'] as const;
/** whitespace a value must not carry inside */
export const SPACES = [' ', '\t', '\u00a0', '\u200b'] as const;

/** one change to the mask (MASK-01/02) */
export type Edit =
  | { op: 'change'; end: End; at: number; shift: number }
  | { op: 'drop'; end: End; at: number }
  | { op: 'double'; end: End; at: number }
  | { op: 'x'; by: -1 | 1 }
  | { op: 'not-x'; ch: (typeof NOT_X)[number]; all: boolean; at: number }
  | { op: 'space'; ch: (typeof SPACES)[number]; at: number }
  | { op: 'other'; end: End; who: number };

/** one form of the clear id (MASK-03) */
export type ClearForm =
  | { op: 'clear' }
  | { op: 'space'; ch: (typeof SPACES)[number]; at: number }
  | { op: 'pad'; ch: (typeof SPACES)[number]; end: End }
  | { op: 'dashes' };

/** whose identifier: a customer (its place in the profile) and which of its ids */
export interface Owner {
  customer: number;
  id: IdKind;
}

export interface NearMiss {
  owner: Owner;
  edits: Edit[];
}

export interface ClearNearMiss {
  owner: Owner;
  form: ClearForm;
}

export function idOf(customers: readonly Customer[], o: Owner): string {
  const c = customers[o.customer]!;
  return o.id === 'account' ? c.accountId : (c.emiratesId ?? '');
}

/** a kept character changed within its class: a digit to another digit, a letter to another letter */
function changed(ch: string, shift: number): string {
  const classes = ['0123456789', 'abcdefghijklmnopqrstuvwxyz', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'];
  const cls = classes.find((c) => c.includes(ch)) ?? '0123456789';
  const i = cls.indexOf(ch);
  const step = 1 + ((shift - 1) % (cls.length - 1));
  return cls[((i < 0 ? 0 : i) + step) % cls.length]!;
}

/** the place of a kept character: the head's first four, or the tail's last three */
function keptIndex(length: number, e: End, n: number): number {
  return e === 'head' ? n % MASK_KEEP_HEAD : length - MASK_KEEP_TAIL + (n % MASK_KEEP_TAIL);
}

function apply(customers: readonly Customer[], owner: Owner, value: string[], e: Edit): string[] {
  const v = [...value];
  const middle = (): number[] =>
    v.map((c, i) => (c === 'x' && i >= MASK_KEEP_HEAD && i < v.length - MASK_KEEP_TAIL ? i : -1)).filter((i) => i >= 0);
  switch (e.op) {
    case 'change': {
      const i = keptIndex(v.length, e.end, e.at);
      v[i] = changed(v[i]!, e.shift);
      return v;
    }
    case 'drop':
      v.splice(keptIndex(v.length, e.end, e.at), 1);
      return v;
    case 'double': {
      const i = keptIndex(v.length, e.end, e.at);
      v.splice(i, 0, v[i]!);
      return v;
    }
    case 'x':
      if (e.by > 0) v.splice(MASK_KEEP_HEAD, 0, 'x');
      else if (middle().length > 0) v.splice(middle()[0]!, 1);
      return v;
    case 'not-x': {
      const xs = middle();
      for (const i of e.all ? xs : xs.slice(e.at % Math.max(1, xs.length), (e.at % Math.max(1, xs.length)) + 1))
        v[i] = e.ch;
      return v;
    }
    case 'space':
      v.splice(1 + (e.at % Math.max(1, v.length - 1)), 0, e.ch);
      return v;
    case 'other': {
      // another customer's kept head (or tail) on this mask: the mask of no customer
      const others = customers
        .map((_, i) => i)
        .filter((i) => i !== owner.customer && idOf(customers, { ...owner, customer: i }));
      if (others.length === 0) return v;
      const o = Array.from(mask(idOf(customers, { ...owner, customer: others[e.who % others.length]! })));
      const before = v.join('');
      if (e.end === 'head') v.splice(0, MASK_KEEP_HEAD, ...o.slice(0, MASK_KEEP_HEAD));
      else v.splice(v.length - MASK_KEEP_TAIL, MASK_KEEP_TAIL, ...o.slice(-MASK_KEEP_TAIL));
      // the same kept part (emirates ids share their 784 head): its last character changed, so that the inputs a
      // seed gives do not depend on the ids (a replay against the same shapes of ids sends the same edits)
      if (v.join('') === before) {
        const i = e.end === 'head' ? MASK_KEEP_HEAD - 1 : v.length - 1;
        v[i] = changed(v[i]!, 1);
      }
      return v;
    }
  }
}

/** the value a near-miss sends */
export function nearMissValue(customers: readonly Customer[], n: NearMiss): string {
  let v = Array.from(mask(idOf(customers, n.owner)));
  for (const e of n.edits) v = apply(customers, n.owner, v, e);
  return v.join('');
}

/** the value a form of the clear id sends */
export function clearValue(customers: readonly Customer[], n: ClearNearMiss): string {
  const id = idOf(customers, n.owner);
  const f = n.form;
  const a = Array.from(id);
  switch (f.op) {
    case 'clear':
      return id;
    case 'space':
      a.splice(1 + (f.at % Math.max(1, a.length - 1)), 0, f.ch);
      return a.join('');
    case 'pad':
      return f.end === 'head' ? f.ch + id : id + f.ch;
    case 'dashes':
      // an emirates id as printed (784-1985-1234567-1), an account id in groups of four; without them if it had any
      return id.includes('-')
        ? id.replace(/-/g, '')
        : [a.slice(0, 3), a.slice(3, 7), a.slice(7, -1), a.slice(-1)].map((p) => p.join('')).join('-');
  }
}

/** the owners the profile offers: each customer's account id, and the emirates id of `emirates` customers */
export function owners(customers: readonly Customer[], emirates: readonly number[]): Owner[] {
  return [
    ...customers.map((_, i): Owner => ({ customer: i, id: 'account' })),
    ...emirates.map((i): Owner => ({ customer: i, id: 'emirates' })),
  ];
}

const CHAR_NAMES: Record<string, string> = {
  ' ': 'a space',
  '\t': 'a tab',
  '\u00a0': 'a no-break space',
  '\u200b': 'a zero-width space',
  X: '"X"',
  '*': '"*"',
  '•': '"•" (U+2022)',
  '\u0445': 'Cyrillic "х" (U+0445)',
  '\uff58': 'fullwidth "ｘ" (U+FF58)',
  '\u00d7': '"×" (U+00D7)',
};

/** an edit in words */
export function editWords(e: Edit): string {
  const kept = (en: End, n: number): string =>
    en === 'head'
      ? `kept head character ${(n % MASK_KEEP_HEAD) + 1}`
      : `kept tail character ${(n % MASK_KEEP_TAIL) + 1}`;
  switch (e.op) {
    case 'change':
      return `${kept(e.end, e.at)} changed`;
    case 'drop':
      return `${kept(e.end, e.at)} dropped`;
    case 'double':
      return `${kept(e.end, e.at)} doubled`;
    case 'x':
      return e.by > 0 ? 'one x more' : 'one x less';
    case 'not-x':
      return `${e.all ? 'every x' : 'one x'} written ${CHAR_NAMES[e.ch]}`;
    case 'space':
      return `${CHAR_NAMES[e.ch]} inside`;
    case 'other':
      return `another customer's kept ${e.end}`;
  }
}

export function clearFormWords(f: ClearForm): string {
  switch (f.op) {
    case 'clear':
      return 'sent clear';
    case 'space':
      return `sent clear with ${CHAR_NAMES[f.ch]} inside`;
    case 'pad':
      return `sent clear with ${CHAR_NAMES[f.ch]} ${f.end === 'head' ? 'before' : 'after'} it`;
    case 'dashes':
      return 'sent clear, grouped with dashes (or without its dashes)';
  }
}

export function ownerWords(customers: readonly Customer[], o: Owner): string {
  return `the ${o.id === 'account' ? 'account id' : 'emirates id'} of customer "${customers[o.customer]!.name}"`;
}
