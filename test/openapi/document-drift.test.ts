/**
 * Where the bank's document and docs/contract.md disagree on the request (suites/errors/document-drift.ts): one
 * note per disagreement, none for the mock's own document; and the judgment of one answer to a generated document
 * (suites/errors/document-judge.ts).
 */
import { describe, expect, it } from 'vitest';
import { contractMissing, documentDrift } from '../../suites/errors/document-drift.ts';
import { judgeDocumentAnswer } from '../../suites/errors/document-judge.ts';
import { requestSchemaOf } from '../../suites/errors/document-property.ts';
import type { GeneratedInput } from '../../lib/openapi/generate/generate.ts';
import { fixtureModel } from './fixture-model.ts';

function driftOf(name: string): string[] {
  const found = requestSchemaOf(fixtureModel(name));
  if ('missing' in found) throw new Error(found.missing);
  return documentDrift(found.schema, 'account_id', 'doc');
}

describe('document drift', () => {
  it('says each disagreement once, and that the contract is what the MUST checks judge', () => {
    const notes = driftOf('drifting.yaml');
    expect(notes.map((n) => n.replace(/; the MUST checks judge docs\/contract\.md's rule$/u, ''))).toEqual([
      "doc: the document's `amount.value` is number, docs/contract.md's is a string (a decimal string)",
      'doc: the document lists 3 value(s) for `amount.currency` ("AED", "USD", "EUR"), docs/contract.md allows any ISO 4217 code',
      'doc: the document does not require `account_id`, which docs/contract.md requires',
      'doc: the document requires `purpose_code`, which docs/contract.md does not',
      'doc: the document refuses undocumented members, docs/contract.md ignores the read-only ones a client sends',
    ]);
    for (const n of notes) expect(n).toMatch(/the MUST checks judge docs\/contract\.md's rule$/u);
  });

  it("finds none in the mock's document", () => {
    expect(driftOf('mock-transfers.yaml')).toEqual([]);
  });

  it('a valid document by the schema that lacks a member the contract requires is no control', () => {
    const body = { beneficiary_id: 'b', amount: { value: '1.00', currency: 'AED' }, account_id: 'a' };
    expect(contractMissing(body, 'account_id')).toEqual([]);
    expect(contractMissing({ ...body, account_id: undefined }, 'account_id')).toEqual(['account_id']);
    expect(contractMissing({ ...body, amount: { value: '1.00' } }, 'account_id')).toEqual(['amount.currency']);
  });
});

const answer = (status: number, body: unknown = {}) => ({ status, body, raw: { text: JSON.stringify(body) } });
const invalid: GeneratedInput = { kind: 'invalid', body: {}, label: 'remarks: maxLength', classes: [] };
const valid: GeneratedInput = { kind: 'valid', body: {}, label: 'remarks at its maxLength (140)', classes: [] };
const o = { quotaStatus: 429, describes: (m: string) => m === 'remarks' };

describe('document answer judgment', () => {
  it('an invalid document: any 4xx holds; 2xx and 5xx break OAS-04; a gate is no evidence', () => {
    expect(judgeDocumentAnswer(invalid, answer(422), o).verdict).toBe('holds');
    expect(judgeDocumentAnswer(invalid, answer(400), o).verdict).toBe('holds');
    expect(judgeDocumentAnswer(invalid, answer(200), o)).toMatchObject({ verdict: 'broken', requirements: ['OAS-04'] });
    expect(judgeDocumentAnswer(invalid, answer(500), o)).toMatchObject({ verdict: 'broken', requirements: ['OAS-04'] });
    for (const s of [401, 403, 429]) expect(judgeDocumentAnswer(invalid, answer(s), o).verdict).toBe('unjudged');
  });

  it('a valid document: 2xx holds; 400 or a 422 naming a described member breaks OAS-05; else no evidence', () => {
    expect(judgeDocumentAnswer(valid, answer(200), o).verdict).toBe('holds');
    expect(judgeDocumentAnswer(valid, answer(400), o)).toMatchObject({ verdict: 'broken', requirements: ['OAS-05'] });
    expect(judgeDocumentAnswer(valid, answer(422, { property: 'remarks' }), o)).toMatchObject({
      verdict: 'broken',
      requirements: ['OAS-05'],
    });
    expect(judgeDocumentAnswer(valid, answer(422, { property: 'other' }), o).verdict).toBe('unjudged');
    expect(judgeDocumentAnswer(valid, answer(500), o).verdict).toBe('unjudged');
    expect(judgeDocumentAnswer(valid, answer(404), o).verdict).toBe('unjudged');
  });

  it('a sealed answer that did not open is no evidence', () => {
    const a = { ...answer(200), opened: { ok: false, step: 'decrypt', code: 'x' } };
    expect(judgeDocumentAnswer(invalid, a, o).verdict).toBe('unjudged');
  });
});
