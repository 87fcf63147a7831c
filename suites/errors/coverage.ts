/**
 * The coverage phase of the invalid-documents property (ERR-01, ERR-03..05; docs/property-invalid-documents.md):
 * every class of document the generator (documents.ts) can make, at least once, sent before the random ones, so
 * that a target that gets one class wrong fails in every run whatever the seed. A class (`documentClass`) is the
 * kind of document; for one defect its member, its kind and the JSON type of the value sent; for a string value
 * also the class of its text (empty, blank, inner whitespace, non-ASCII, letters, digits, other characters: what a
 * parser or a validator may choke on). Every value of the generator's fixed lists is in the list (they are few);
 * the values it draws from a range are represented by one each.
 * Pure (no I/O); loaded with the generator by the check when it runs; unit-tested in test/errors/coverage.test.ts.
 */
import {
  MEMBERS,
  type Defect,
  type DefectKind,
  type DocumentBase,
  type GeneratedDocument,
  type Json,
  type Member,
} from './defects.ts';
import { applyDefects, edgeValidDocuments, withMember } from './documents.ts';
import { SMALLEST_AMOUNT, ZERO_SPELLINGS, zeroSpelling } from './free-text.ts';

/** the JSON type of a value: string, number, boolean, null, array, object (undefined: absent) */
export function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

/** the class of a string's text: what a parser or a validator may choke on */
export function textClass(s: string): string {
  if (s === '') return 'empty';
  if (/^\s+$/u.test(s)) return 'blank';
  if (/[^\x20-\x7e]/u.test(s)) return 'non-ASCII';
  if (/\s/u.test(s)) return 'inner whitespace';
  if (/^[a-z]+$/u.test(s)) return 'lower-case letters';
  if (/^[A-Z]{3}$/u.test(s)) return 'three capitals';
  if (/^[A-Z]+$/u.test(s)) return 'capitals, not three';
  if (/^[A-Za-z]+$/u.test(s)) return 'mixed-case letters';
  if (/^-?\d+(\.\d+)?$/u.test(s)) return 'a decimal';
  return 'other characters';
}

/** the class of one defect: member, kind, the JSON type of its value and the class of its text */
export function defectClass(d: Defect): string {
  if (d.kind === 'missing') return `${d.member} missing`;
  const type = jsonType(d.value);
  if (d.kind === 'non-positive') {
    const n = Number(d.value);
    if (n === 0) return `${d.member} non-positive zero (${zeroSpelling(String(d.value))})`;
    return `${d.member} non-positive ${n > -1 ? 'negative, above -1' : 'negative'}`;
  }
  if (d.kind === 'over-precise' && Number(d.value) < Number(SMALLEST_AMOUNT))
    return `${d.member} over-precise, under the smallest amount`;
  if (typeof d.value === 'string') return `${d.member} ${d.kind} ${type} (${textClass(d.value)})`;
  return `${d.member} ${d.kind} ${type}`;
}

/** the class of a document: valid (an ordinary one, or its edge), malformed, several defects, or its one defect's */
export function documentClass(doc: GeneratedDocument): string {
  if (doc.kind === 'valid' && doc.of)
    return doc.of.kind === 'smallest-amount' ? 'valid, the smallest amount' : `valid, ${doc.of.member} ${doc.of.text}`;
  if (doc.kind !== 'invalid') return doc.kind;
  if (doc.defects.length > 1) return 'several defects';
  return defectClass(doc.defects[0]!);
}

const show = (v: unknown): string => JSON.stringify(v) ?? String(v);

/** the member's value in the base document */
function currentOf(base: DocumentBase, member: Member): unknown {
  const amount = base.body.amount as Json;
  if (member === 'amount.value') return amount.value;
  if (member === 'amount.currency') return amount.currency;
  return base.body[member];
}

/** a defect of `kind` on `member` sending `value`, labelled as the generator labels it */
function valued(member: Member, kind: Exclude<DefectKind, 'missing' | 'wrong-type'>, value: string): Defect {
  return { member, kind, value, label: `${member} ${show(value)}` };
}

const WRONG_TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  boolean: 'a boolean',
  null: 'null',
  array: 'an array',
  object: 'an object',
};

function wrongType(member: Member, value: unknown): Defect {
  return {
    member,
    kind: 'wrong-type',
    value,
    label: `${member} as ${WRONG_TYPE_WORDS[jsonType(value)]} (${show(value)})`,
  };
}

/** one value of every other JSON type the generator sends in the member's place */
function wrongTypes(member: Member, base: DocumentBase): Defect[] {
  const current = currentOf(base, member);
  const common = [true, null, [current]];
  if (member === 'amount')
    // the amount flat: a decimal (the natural mistake), and each of the generator's other strings
    return [String((current as Json).value ?? '150.00'), 'ten', '', 'AED 150.00', 150.5, ...common].map((v) =>
      wrongType(member, v),
    );
  const number = member === 'amount.value' ? Number(current) : member === 'amount.currency' ? 1000 : 150;
  return [number, { id: String(current) }, ...common].map((v) => wrongType(member, v));
}

/** the generator's fixed lists of forbidden values (documents.ts), and one of each class it draws from a range */
const NON_POSITIVE = [...ZERO_SPELLINGS, '-0.01', '-150.00'];
const OVER_PRECISE = ['150.005', '0.001'];
const NOT_DECIMAL = ['', ' ', 'ten', 'abc', '1,50', '1.2.3', '--1', '1-', 'NaN', 'Infinity', '.', '1 000'];
const ODD_CURRENCIES = ['XYZ', 'QQQ', 'AE', 'AEDD', '', 'A1D', 'AE-', 'AE D', '€'];

/** every single defect class of every member */
export function singleDefects(base: DocumentBase): Defect[] {
  const out: Defect[] = [];
  for (const m of MEMBERS) {
    out.push({ member: m, kind: 'missing', label: `without ${m}` });
    out.push(...wrongTypes(m, base));
  }
  out.push(...NON_POSITIVE.map((v) => valued('amount.value', 'non-positive', v)));
  out.push(...OVER_PRECISE.map((v) => valued('amount.value', 'over-precise', v)));
  out.push(...NOT_DECIMAL.map((v) => valued('amount.value', 'not-decimal', v)));
  const currencies = [...new Set([base.invalidCurrency, ...ODD_CURRENCIES])];
  out.push(...currencies.map((v) => valued('amount.currency', 'unknown-currency', v)));
  return out;
}

function invalid(base: DocumentBase, defects: Defect[]): GeneratedDocument {
  return {
    kind: 'invalid',
    body: applyDefects(base.body, defects),
    defects,
    label: defects.map((d) => d.label).join('; '),
  };
}

/**
 * valid documents: the amount with 0, 1 and 2 decimals, the optional members kept and left out; then the edges: the
 * smallest amount, each free-text member with non-ASCII text and at its longest allowed length
 */
function validOnes(base: DocumentBase): GeneratedDocument[] {
  return [...ordinaryOnes(base), ...edgeValidDocuments(base)];
}

function ordinaryOnes(base: DocumentBase): GeneratedDocument[] {
  const optional = Object.keys(base.body).filter(
    (k) => !['beneficiary_id', 'amount', 'account_id', 'emirates_id'].includes(k),
  );
  return [
    { value: '150', keep: optional },
    { value: '150.5', keep: optional },
    { value: '1000.00', keep: [] },
  ].map(({ value, keep }) => {
    const body = withMember(base.body, 'amount.value', { v: value });
    for (const k of optional) if (!keep.includes(k)) delete body[k];
    return {
      kind: 'valid' as const,
      body,
      label: `amount.value ${show(value)}, with ${keep.join(', ') || 'no optional member'}`,
    };
  });
}

/** the base's JSON text cut after its first character, in its middle and before its last */
function malformedOnes(base: DocumentBase): GeneratedDocument[] {
  const text = JSON.stringify(base.body);
  return [...new Set([1, Math.floor(text.length / 2), text.length - 1])].map((n) => ({
    kind: 'malformed' as const,
    text: text.slice(0, n),
    label: `the JSON text cut after ${n} of ${text.length} characters`,
  }));
}

/**
 * The coverage list: every single defect class of every member, two and three defects on distinct members, the
 * JSON cut short, valid documents (controls).
 */
export function documentCoverage(base: DocumentBase): GeneratedDocument[] {
  const missing = (m: Member): Defect => ({ member: m, kind: 'missing', label: `without ${m}` });
  const several = [
    [missing('beneficiary_id'), valued('amount.currency', 'unknown-currency', base.invalidCurrency)],
    [wrongType('account_id', 150), valued('amount.value', 'non-positive', '0'), missing('amount.currency')],
  ];
  return [
    ...validOnes(base),
    ...singleDefects(base).map((d) => invalid(base, [d])),
    ...several.map((ds) => invalid(base, ds)),
    ...malformedOnes(base),
  ];
}
