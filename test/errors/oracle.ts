/**
 * An oracle of the contract's transfer document (docs/contract.md "Transfers"), written apart from the generator
 * (suites/errors/documents.ts) and its coverage list (coverage.ts): the members a document breaks.
 */
import { expect } from 'vitest';
import type { DocumentBase, Json, Member } from '../../suites/errors/defects.ts';

export const BASE: DocumentBase = {
  body: {
    beneficiary_id: 'BEN-0001',
    account_id: '1234xxxxxx789',
    amount: { value: '150.00', currency: 'AED' },
    purpose_code: 'FAM',
    remarks: 'conformance harness',
  },
  invalidCurrency: 'XYZ',
  freeText: { members: ['remarks'], maxLength: 140 },
};

/** free text the contract allows (docs/contract.md, `contract.freeText`): a string of at most 140 characters */
const freeTextOk = (v: unknown): boolean => typeof v === 'string' && Array.from(v).length <= 140;

/** ISO 4217 alphabetic codes the oracle knows (any other three letters count as unknown here) */
const KNOWN = new Set(['AED', 'USD', 'EUR', 'GBP', 'SAR', 'INR', 'JPY', 'CHF', 'QAR', 'ZAR', 'JOD', 'XAU', 'XTS']);
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** the members the contract calls broken (an oracle independent of the generator) */
export function brokenMembers(body: Json): Set<Member> {
  const out = new Set<Member>();
  if (body.beneficiary_id !== BASE.body.beneficiary_id) out.add('beneficiary_id');
  if (body.account_id !== BASE.body.account_id) out.add('account_id');
  if (!isObj(body.amount)) out.add('amount');
  else {
    const { value, currency } = body.amount;
    if (typeof value !== 'string' || !/^\d+(\.\d{1,2})?$/.test(value) || Number(value) <= 0) out.add('amount.value');
    if (typeof currency !== 'string' || !KNOWN.has(currency)) out.add('amount.currency');
  }
  // nothing else changed: the optional members are the base's or absent, or free text the contract allows
  for (const k of Object.keys(body))
    if (k === 'remarks' && body[k] !== BASE.body[k]) expect(freeTextOk(body[k])).toBe(true);
    else if (!['beneficiary_id', 'account_id', 'amount'].includes(k)) expect(body[k]).toBe(BASE.body[k]);
  return out;
}
