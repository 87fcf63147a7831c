/**
 * The invalid-documents property (ERR-01..05, docs/property-invalid-documents.md): fast-check arbitraries of transfer
 * documents (the validate/create body of docs/contract.md "Transfers") built from a valid base document, each carrying
 * the judgment it must get:
 *  - `valid`: the base with an amount and optional members varied within what the contract allows (the control);
 *  - `invalid`: EXACTLY ONE defect on one member (missing, wrong JSON type, non-positive, over-precise or
 *    non-decimal amount, unknown currency), or several defects on distinct members (`multi`): 422 naming one of
 *    the defective members;
 *  - `malformed`: the base's JSON text cut short (never valid JSON whatever extensions a parser allows, RFC 8259
 *    §9): 400.
 * The valid ones include the classes at the rules' edges (free-text.ts): the smallest amount, each free-text member
 * (contract.freeText) with non-ASCII text and at its longest allowed length; the invalid ones a zero amount in every
 * spelling the format admits (leading zeros, each number of decimals, a minus sign) and "-0.01", the first amount below zero.
 * What the contract leaves open is not generated as a defect: free text over its length (the profile's length is the
 * contract's default, not a rule the specification states), control characters in free text, unknown members (not
 * forbidden; read-only ones are ignored), lower-case or numeric currency codes (ISO 4217 has numeric codes), leading
 * zeros or exponents in a non-zero amount, trailing zeros past two decimals ("1.000" is the amount 1), non-JSON
 * extensions such as trailing commas (a parser MAY accept them).
 * Pure: no I/O, no engine types; unit-tested in test/errors/documents.test.ts.
 */
import fc from 'fast-check';

import {
  MEMBERS,
  type Defect,
  type DefectKind,
  type DocumentBase,
  type GeneratedDocument,
  type Json,
  type Member,
} from './defects.ts';
import { freeTextOf, SMALLEST_AMOUNT, ZERO_SPELLINGS } from './free-text.ts';

// ---- values

/** a valid amount: 1.00 to 1000.00, written with 0, 1 or 2 decimals ("150", "150.5", "150.50") */
export const validAmount: fc.Arbitrary<string> = fc
  .tuple(fc.integer({ min: 100, max: 100_000 }), fc.constantFrom(0, 1, 2))
  .map(([cents, decimals]) => {
    const units = Math.floor(cents / 100);
    const frac = String(cents % 100).padStart(2, '0');
    // fewer decimals only where the dropped digits are zeros: the amount stays the same
    if (decimals === 0 && frac === '00') return String(units);
    if (decimals === 1 && frac.endsWith('0')) return `${units}.${frac[0]}`;
    return `${units}.${frac}`;
  });

type Weighted<T> = { weight: number; arbitrary: fc.Arbitrary<T> };

/**
 * JSON values of another type than the member's own (string members; `amount`, an object), each type a class of
 * its own, weighted: the string/number confusions (the amount sent flat, a decimal sent as a number) twice or three
 * times as likely as the others, so that 200 runs try each a few times over
 */
function wrongTypesFor(member: Member, validValue: unknown): Weighted<{ value: unknown; label: string }>[] {
  // a currency as a number is kept off 0..999 (a three-digit ISO 4217 numeric code might be read into it)
  const number =
    member === 'amount.currency'
      ? fc.integer({ min: 1000, max: 100_000 })
      : fc.oneof(fc.integer({ min: -1000, max: 100_000 }), fc.double({ min: 0.01, max: 1000, noNaN: true }));
  const obj = fc.constantFrom<Json>({}, { value: '1.00' }, { id: String(validValue) });
  const arr = fc.constantFrom<unknown[]>([], [validValue], ['1.00', 'AED']);
  const label = (what: string) => (v: unknown) => ({ value: v, label: `${member} as ${what} (${show(v)})` });
  const w = <T>(weight: number, arbitrary: fc.Arbitrary<T>): Weighted<T> => ({ weight, arbitrary });
  const common = [
    w(1, fc.boolean().map(label('a boolean'))),
    w(1, fc.constant(null).map(label('null'))),
    w(1, arr.map(label('an array'))),
  ];
  if (member === 'amount')
    // the amount sent flat, as a string or a number, is the natural mistake
    return [
      w(3, validAmount.map(label('a string'))),
      w(1, fc.constantFrom('ten', '', 'AED 150.00').map(label('a string'))),
      w(2, number.map(label('a number'))),
      ...common,
    ];
  return [
    // the string member's own value as a JSON number, where it is a number ("150.00" → 150)
    member === 'amount.value'
      ? w(3, validAmount.map(Number).map(label('a number')))
      : w(member === 'amount.currency' ? 1 : 2, number.map(label('a number'))),
    w(1, obj.map(label('an object'))),
    ...common,
  ];
}

/**
 * not above zero: zero in every spelling the format admits ("0", "0.0", "00.00", "000", "-0.00", free-text.ts), the
 * first amount below zero and the other negative fractions ("-0.01" … "-0.99"), "-150.00"
 */
const nonPositive = fc.oneof(
  fc.constantFrom(...ZERO_SPELLINGS),
  fc.integer({ min: 1, max: 99 }).map((c) => `-0.${String(c).padStart(2, '0')}`),
  validAmount.map((v) => `-${v}`),
);

/**
 * three to six decimals, at least one of the digits past the second not zero: "150.005", "1.2301"; and under the
 * smallest amount ("0.001" … "0.009": zero to two decimals)
 */
const overPrecise = fc.oneof(
  fc.tuple(validAmount, fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 9 })).map(([v, extra, last]) => {
    const [units, frac = ''] = v.split('.');
    return `${units}.${frac.padEnd(2, '0')}${'0'.repeat(extra - 1)}${last}`;
  }),
  fc.integer({ min: 1, max: 9 }).map((d) => `0.00${d}`),
);

/** strings that are no decimal number at all (short, lower-case letters: no echo can look like an internal) */
const notDecimal = fc.oneof(
  fc.constantFrom('', ' ', 'ten', 'abc', '1,50', '1.2.3', '--1', '1-', 'NaN', 'Infinity', '.', '1 000'),
  fc.stringMatching(/^[a-z]{1,6}$/),
);

/**
 * Currency codes that are no ISO 4217 code: the profile's own, codes ISO 4217 does not assign (the X range holds
 * assigned ones such as XAU, XDR, XTS: only XYZ, which is unassigned, is taken from it), and letter strings of
 * another length than three. Lower case and three digits are left out (a lenient reading, or a numeric code).
 */
function unknownCurrency(invalid: string): fc.Arbitrary<string> {
  // three letters first: a validator that checks only the form lets exactly these through
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(invalid, 'XYZ', 'QQQ', 'ZZZ', 'AAA', 'JJJ') },
    { weight: 1, arbitrary: fc.stringMatching(/^[A-Z]{1,2}$|^[A-Z]{4,6}$/) },
    { weight: 1, arbitrary: fc.constantFrom('', 'A1D', 'AE-', 'AE D', '€') },
  );
}

// ---- documents

function clone(body: Json): Json {
  return structuredClone(body);
}

/** the body with `member` set to `value` (or removed, when `value` is absent) */
export function withMember(body: Json, member: Member, value?: { v: unknown }): Json {
  const out = clone(body);
  const [head, tail] = member.split('.') as [string, string | undefined];
  const target: Json = tail ? ((out[head] as Json | undefined) ?? (out[head] = {})) : out;
  const key = tail ?? head;
  if (value) target[key] = value.v;
  else delete target[key];
  return out;
}

/** the classes of defect on `member`, weighted (their values chosen against the base's own) */
function defectClasses(member: Member, base: DocumentBase): Weighted<Defect>[] {
  const amount = base.body.amount as Json;
  const current =
    member === 'amount.value' ? amount.value : member === 'amount.currency' ? amount.currency : base.body[member];
  const valueOf = (kind: DefectKind, weight: number, values: fc.Arbitrary<string>): Weighted<Defect> => ({
    weight,
    arbitrary: values.map((v) => ({ member, kind, value: v, label: `${member} ${show(v)}` })),
  });
  const classes: Weighted<Defect>[] = [
    { weight: 1, arbitrary: fc.constant({ member, kind: 'missing' as const, label: `without ${member}` }) },
    ...wrongTypesFor(member, current).map(({ weight, arbitrary }) => ({
      weight,
      arbitrary: arbitrary.map(({ value, label }) => ({ member, kind: 'wrong-type' as const, value, label })),
    })),
  ];
  if (member === 'amount.value')
    classes.push(
      valueOf('non-positive', 2, nonPositive),
      valueOf('over-precise', 2, overPrecise),
      valueOf('not-decimal', 2, notDecimal),
    );
  if (member === 'amount.currency') classes.push(valueOf('unknown-currency', 3, unknownCurrency(base.invalidCurrency)));
  return classes;
}

/** one defect on `member` */
export function defectOn(member: Member, base: DocumentBase): fc.Arbitrary<Defect> {
  return fc.oneof(...defectClasses(member, base));
}

/** apply defects (on distinct members, no member inside another defective one) to a body */
export function applyDefects(body: Json, defects: readonly Defect[]): Json {
  let out = body;
  for (const d of defects) out = withMember(out, d.member, d.kind === 'missing' ? undefined : { v: d.value });
  return out;
}

/** a valid document: the base with another valid amount, the optional members kept or left out */
function ordinaryValid(base: DocumentBase): fc.Arbitrary<GeneratedDocument> {
  const optional = Object.keys(base.body).filter(
    (k) => !['beneficiary_id', 'amount', 'account_id', 'emirates_id'].includes(k),
  );
  return fc.tuple(validAmount, fc.subarray(optional)).map(([value, keep]) => {
    const body = withMember(base.body, 'amount.value', { v: value });
    for (const k of optional) if (!keep.includes(k)) delete body[k];
    return {
      kind: 'valid' as const,
      body,
      label: `amount.value ${show(value)}, with ${keep.join(', ') || 'no optional member'}`,
    };
  });
}

/**
 * the valid documents of the boundary and free-text classes (the base with one member changed): the smallest amount,
 * and each free-text member holding non-ASCII text and text at its longest allowed length
 */
export function edgeValidDocuments(base: DocumentBase): GeneratedDocument[] {
  const least = base.smallestAmount ?? SMALLEST_AMOUNT;
  const smallest: GeneratedDocument = {
    kind: 'valid',
    body: withMember(base.body, 'amount.value', { v: least }),
    label: `amount.value ${show(least)}, the smallest amount`,
    of: { kind: 'smallest-amount' },
  };
  const free = base.freeText;
  const texts = (free?.members ?? []).flatMap((member) =>
    (['non-ASCII', 'longest'] as const).map((text): GeneratedDocument => {
      const value = freeTextOf(text, free!.maxLength);
      const body = clone(base.body);
      body[member] = value;
      const what = text === 'longest' ? `at its longest allowed length (${free!.maxLength} characters)` : 'non-ASCII';
      return {
        kind: 'valid',
        body,
        label: `${member} ${what}: ${show(value)}`,
        of: { kind: 'free-text', member, text },
      };
    }),
  );
  return [smallest, ...texts];
}

/** a valid document: an ordinary one (four in five), or one of the boundary and free-text classes */
export function validDocument(base: DocumentBase): fc.Arbitrary<GeneratedDocument> {
  const edges = edgeValidDocuments(base);
  return fc.oneof({ weight: 4, arbitrary: ordinaryValid(base) }, { weight: 1, arbitrary: fc.constantFrom(...edges) });
}

/** members that can be defective together: never `amount` with a member inside it */
function compatible(members: readonly Member[]): boolean {
  return !(members.includes('amount') && members.some((m) => m.startsWith('amount.')));
}

function invalidDocument(base: DocumentBase, defects: Defect[]): GeneratedDocument {
  return {
    kind: 'invalid',
    body: applyDefects(base.body, defects),
    defects,
    label: defects.map((d) => d.label).join('; '),
  };
}

/**
 * Documents with defects: the first drawn from every class of every member in one flat, weighted choice (a class is
 * as likely whatever its member's count), then `extra` defects on other members. With `extra: 'maybe'`, none in
 * four documents out of five; shrinking may drop the first (an option that is almost never empty) or the extras
 * (the empty list is the first choice, crossed to): a failing document with several defects shrinks to the one
 * that fails alone, whichever it is.
 */
function defectiveDocument(base: DocumentBase, extra: 'none' | 'some' | 'maybe'): fc.Arbitrary<GeneratedDocument> {
  const first = fc.oneof(...MEMBERS.flatMap((m) => defectClasses(m, base)));
  if (extra === 'none') return first.map((d) => invalidDocument(base, [d]));
  // each member's arbitrary built once (a chain would build them again for every document)
  const on = new Map(MEMBERS.map((m) => [m, defectOn(m, base)] as const));
  const some = fc
    .uniqueArray(fc.constantFrom(...MEMBERS), { minLength: 1, maxLength: 2 })
    .filter(compatible)
    .chain((ms) => fc.tuple(...ms.map((m) => on.get(m)!)));
  const extras =
    extra === 'some'
      ? some
      : fc.oneof(
          { withCrossShrink: true },
          { weight: 4, arbitrary: fc.constant<Defect[]>([]) },
          { weight: 1, arbitrary: some },
        );
  const lead = extra === 'some' ? first : fc.option(first, { nil: undefined, freq: 1_000_000 });
  return fc
    .tuple(lead, extras)
    .map(([d, more]) => (d ? [d, ...more] : more))
    .filter((ds) => {
      const ms = ds.map((d) => d.member);
      return ms.length > 0 && new Set(ms).size === ms.length && compatible(ms);
    })
    .map((ds) => invalidDocument(base, ds));
}

/** a document with exactly one defect */
export function oneDefectDocument(base: DocumentBase): fc.Arbitrary<GeneratedDocument> {
  return defectiveDocument(base, 'none');
}

/** a document with two or three defects on distinct members */
export function multiDefectDocument(base: DocumentBase): fc.Arbitrary<GeneratedDocument> {
  return defectiveDocument(base, 'some');
}

/** the base's JSON text cut short: a proper, non-empty prefix of an object's text is never JSON */
export function malformedDocument(base: DocumentBase): fc.Arbitrary<GeneratedDocument> {
  const text = JSON.stringify(base.body);
  return fc.integer({ min: 1, max: text.length - 1 }).map((n) => ({
    kind: 'malformed' as const,
    text: text.slice(0, n),
    label: `the JSON text cut after ${n} of ${text.length} characters`,
  }));
}

/**
 * the mix the property draws from: documents with defects (about 68 % single, 17 % several), 10 % malformed, 5 %
 * valid (controls)
 */
export function transferDocument(base: DocumentBase): fc.Arbitrary<GeneratedDocument> {
  return fc.oneof(
    { weight: 17, arbitrary: defectiveDocument(base, 'maybe') },
    { weight: 2, arbitrary: malformedDocument(base) },
    { weight: 1, arbitrary: validDocument(base) },
  );
}

function show(v: unknown): string {
  return JSON.stringify(v) ?? String(v);
}
