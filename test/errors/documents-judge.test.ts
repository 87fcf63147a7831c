/** The judgment of one generated document's answer (suites/errors/documents-judge.ts). */
import { describe, expect, it } from 'vitest';
import { judgeAnswer, type Answer } from '../../suites/errors/documents-judge.ts';
import type { Defect, GeneratedDocument } from '../../suites/errors/defects.ts';

const O = { unmaskedIdentifier: [422], basepath: '/v1', quotaStatus: 429 };

function err(property: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    status: '422',
    response_code: '422002',
    property,
    response_message: `${property} is invalid`,
    description: `The property ${property} is invalid.`,
    ...extra,
  };
}
const answer = (status: number, body: unknown = {}): Answer => ({ status, body, raw: { text: JSON.stringify(body) } });
const invalid = (...defects: Defect[]): GeneratedDocument => ({
  kind: 'invalid',
  body: {},
  defects,
  label: defects.map((d) => d.label).join('; '),
});
const VALUE_NUMBER: Defect = { member: 'amount.value', kind: 'wrong-type', value: 150, label: 'amount.value as 150' };
const NO_BEN: Defect = { member: 'beneficiary_id', kind: 'missing', label: 'without beneficiary_id' };
const AMOUNT_STRING: Defect = { member: 'amount', kind: 'wrong-type', value: '150.00', label: 'amount "150.00"' };
const ACCOUNT_NUMBER: Defect = { member: 'account_id', kind: 'wrong-type', value: 7, label: 'account_id as 7' };
const MALFORMED: GeneratedDocument = { kind: 'malformed', text: '{"a', label: 'cut' };
const VALID: GeneratedDocument = { kind: 'valid', body: {}, label: 'valid' };

const verdict = (doc: GeneratedDocument, a: Answer, sent = '{}'): string => {
  const j = judgeAnswer(doc, a, sent, O);
  return j.verdict === 'broken' ? `broken ${j.requirements.join(' ')}` : j.verdict;
};

describe('judgment of a generated document', () => {
  it('an invalid document: 422 in the ERR-01 shape naming a defective member holds; anything else is broken', () => {
    expect([
      verdict(invalid(VALUE_NUMBER), answer(422, err('amount.value'))),
      verdict(invalid(VALUE_NUMBER), answer(422, err('amount'))),
      verdict(invalid(VALUE_NUMBER), answer(422, err('amount.value', { errors: [] }))),
      verdict(invalid(VALUE_NUMBER), answer(422, err('amount.value', { status: 422 }))),
      verdict(invalid(VALUE_NUMBER), answer(200, {})),
      verdict(invalid(VALUE_NUMBER), answer(500, err('body'))),
      verdict(invalid(VALUE_NUMBER), answer(400, err('amount.value'))),
      verdict(invalid(NO_BEN), answer(201, {})),
    ]).toEqual([
      'holds',
      'broken ERR-03',
      'broken ERR-01',
      'broken ERR-01',
      'broken ERR-03',
      'broken ERR-03',
      'broken ERR-03',
      'broken ERR-02',
    ]);
  });

  it('several defects: any of them may be named; a container sent as another type, a member inside it too', () => {
    expect([
      verdict(invalid(NO_BEN, VALUE_NUMBER), answer(422, err('beneficiary_id'))),
      verdict(invalid(NO_BEN, VALUE_NUMBER), answer(422, err('amount.value'))),
      verdict(invalid(NO_BEN, VALUE_NUMBER), answer(422, err('account_id'))),
      verdict(invalid(AMOUNT_STRING), answer(422, err('amount.value'))),
    ]).toEqual(['holds', 'holds', 'broken ERR-02 ERR-03', 'holds']);
  });

  it("a defective debit identifier may get the profile's unmasked-identifier status", () => {
    const j = judgeAnswer(invalid(ACCOUNT_NUMBER), answer(400, err('account_id')), '{}', {
      ...O,
      unmaskedIdentifier: [400],
    });
    expect([j.verdict, verdict(invalid(ACCOUNT_NUMBER), answer(400, err('account_id')))]).toEqual([
      'holds',
      'broken ERR-03',
    ]);
  });

  it('a malformed document: 400 holds; 422, 2xx and 5xx are broken (ERR-04)', () => {
    expect([400, 422, 200, 500].map((s) => verdict(MALFORMED, answer(s, err('body'))))).toEqual([
      'holds',
      'broken ERR-04',
      'broken ERR-04',
      'broken ERR-04',
    ]);
  });

  it('a gate, an unopened sealed answer or a refused control is no evidence either way', () => {
    const unopened: Answer = { ...answer(422, undefined), opened: { ok: false, step: 'decrypt', code: 'X' } };
    expect([
      ...[401, 403, 429].map((s) => verdict(invalid(NO_BEN), answer(s, err('x')))),
      verdict(invalid(NO_BEN), unopened),
      verdict(VALID, answer(200, {})),
      verdict(VALID, answer(422, err('amount.value'))),
      verdict(VALID, answer(503, {})),
    ]).toEqual(['unjudged', 'unjudged', 'unjudged', 'unjudged', 'holds', 'unjudged', 'unjudged']);
  });

  it("the profile's quota status is the quota's refusal, not a crash: a 503 quota is no evidence; a 503 otherwise is", () => {
    const quota503 = (a: Answer): string => {
      const j = judgeAnswer(invalid(NO_BEN), a, '{}', { ...O, quotaStatus: 503 });
      return j.verdict === 'broken' ? `broken ${j.requirements.join(' ')}` : j.verdict;
    };
    expect([
      quota503(answer(503, err('x'))),
      // a throttle's 429 where the quota answers 503: no evidence either
      quota503(answer(429, {})),
      verdict(invalid(NO_BEN), answer(503, err('x'))),
    ]).toEqual(['unjudged', 'unjudged', 'broken ERR-02']);
  });

  it('a broken answer names the rules its document breaks, not every id of the property', () => {
    const CURRENCY: Defect = { member: 'amount.currency', kind: 'unknown-currency', value: 'XYZ', label: 'XYZ' };
    expect([
      verdict(invalid(NO_BEN), answer(500, {})),
      verdict(invalid(CURRENCY), answer(500, {})),
      verdict(invalid(NO_BEN, CURRENCY), answer(200, {})),
      verdict(MALFORMED, answer(500, {})),
      verdict(invalid(CURRENCY), answer(422, err('amount.currency', { errors: [] }))),
    ]).toEqual(['broken ERR-02', 'broken ERR-03', 'broken ERR-02 ERR-03', 'broken ERR-04', 'broken ERR-01']);
  });

  it('an internal detail in any error answer is broken (ERR-05); an echo of what was sent is not', () => {
    const stack = err('amount.value', { description: 'TypeError: x at parse (/srv/app/validate.js:10:5)' });
    const echo = err('remarks', { description: 'remarks "NullPointerException" is invalid' });
    expect([
      verdict(invalid(VALUE_NUMBER), answer(422, stack)),
      verdict(invalid(VALUE_NUMBER), answer(429, stack)),
      verdict(invalid(VALUE_NUMBER), answer(422, echo), '{"remarks":"NullPointerException"}'),
      verdict(invalid(VALUE_NUMBER), answer(422, err('amount.value', { description: 'see /v1/transfers/validate' }))),
    ]).toEqual(['broken ERR-05', 'broken ERR-05', 'broken ERR-03', 'holds']);
  });
});

describe('judgment of a valid document at the rules’ edges (XFER-01)', () => {
  const ARABIC: GeneratedDocument = {
    kind: 'valid',
    body: { remarks: 'إيجار' },
    label: 'remarks non-ASCII',
    of: { kind: 'free-text', member: 'remarks', text: 'non-ASCII' },
  };
  const SMALLEST: GeneratedDocument = { kind: 'valid', body: {}, label: '0.01', of: { kind: 'smallest-amount' } };

  it('a crash (500) on any valid document is broken, XFER-01; 502, 503, 504 are no evidence', () => {
    expect([500, 501, 502, 503, 504].map((s) => verdict(ARABIC, answer(s, {})))).toEqual([
      'broken XFER-01',
      'broken XFER-01',
      'unjudged',
      'unjudged',
      'unjudged',
    ]);
    expect(verdict(VALID, answer(500, {}))).toBe('broken XFER-01');
    expect(verdict(SMALLEST, answer(500, {}))).toBe('broken XFER-01');
  });

  it('the smallest amount refused naming amount.value is broken, XFER-01; free text refused naming its member is no evidence (the specification sets no length or script: the profile says it)', () => {
    expect([
      verdict(ARABIC, answer(422, err('remarks'))),
      verdict(ARABIC, answer(400, err('remarks'))),
      verdict(ARABIC, answer(422, err('amount.value'))),
      verdict(ARABIC, answer(200, {})),
      // the smallest amount the profile says the bank accepts (contract.smallestAmount), refused naming it
      verdict(SMALLEST, answer(422, err('amount.value'))),
      verdict(SMALLEST, answer(422, err('beneficiary_id'))),
    ]).toEqual(['unjudged', 'unjudged', 'unjudged', 'holds', 'broken XFER-01', 'unjudged']);
  });

  it('a leak in the crash’s answer is ERR-05’s', () => {
    const trace = 'Traceback (most recent call last):\n  File "/opt/bank/app/transfers.py", line 12';
    const a: Answer = { status: 500, body: undefined, raw: { text: trace } };
    expect(verdict(ARABIC, a)).toBe('broken ERR-05');
  });
});
