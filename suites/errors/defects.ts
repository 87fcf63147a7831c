/**
 * The transfer documents of the invalid-documents property (ERR-01..05, docs/property-invalid-documents.md) and their
 * defects, as data: what the generator (documents.ts, fast-check) makes and the judge (documents-judge.ts) reads. A
 * module of its own so that the judge and the check's definition do not load fast-check: the property check loads the
 * generator when it runs.
 */

/** the members a defect can sit on; nested ones named with a dot, as a 422 names them (contract) */
export const MEMBERS = ['beneficiary_id', 'amount', 'amount.value', 'amount.currency', 'account_id'] as const;
export type Member = (typeof MEMBERS)[number];

export type DefectKind =
  'missing' | 'wrong-type' | 'non-positive' | 'over-precise' | 'not-decimal' | 'unknown-currency';

export interface Defect {
  member: Member;
  kind: DefectKind;
  /** the value sent in the member's place (absent for `missing`) */
  value?: unknown;
  /** a few words for the verdict: "amount.value as a JSON number (150)" */
  label: string;
}

export type Json = Record<string, unknown>;

/** what the generator starts from: a valid document for the calling customer, and what the profile says */
export interface DocumentBase {
  /** a valid body (ctx.transferBody): beneficiary_id, account_id, amount {value, currency}, optional members */
  body: Json;
  /** contract.invalidCurrency: a code the target must refuse */
  invalidCurrency: string;
  /** contract.smallestAmount: the smallest amount the target accepts (absent: the contract's 0.01) */
  smallestAmount?: string;
  /** contract.freeText: the members holding free text and their longest allowed length (absent: none sent) */
  freeText?: { members: readonly string[]; maxLength: number };
}

/**
 * what a valid document carries besides the base's own: a free-text member with text a core system may choke on
 * (non-ASCII, or at its longest allowed length), or the smallest amount; absent for the ordinary valid documents
 */
export type ValidClass =
  { kind: 'free-text'; member: string; text: 'non-ASCII' | 'longest' } | { kind: 'smallest-amount' };

export type GeneratedDocument =
  | { kind: 'valid'; body: Json; label: string; of?: ValidClass }
  | { kind: 'invalid'; body: Json; defects: Defect[]; label: string }
  | { kind: 'malformed'; text: string; label: string };

/** a member may be named for a defect on it, and for a defect on a container, any member inside it */
export function mayName(defects: readonly Defect[], property: unknown): boolean {
  if (typeof property !== 'string') return false;
  return defects.some((d) => property === d.member || (d.kind === 'wrong-type' && property.startsWith(`${d.member}.`)));
}

/** the members a 422 may name for these defects (for messages) */
export function namesFor(defects: readonly Defect[]): string[] {
  return defects.map((d) => (d.kind === 'wrong-type' && d.member === 'amount' ? 'amount (or amount.*)' : d.member));
}
