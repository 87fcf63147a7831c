/**
 * A bank's document with recursive schemas (lib/openapi/recursive.ts): an error whose `details` are errors, a
 * request that holds a request. It loads (it was refused as "a $ref does not resolve" before), with a note; the
 * response judge follows the recursion (a nested detail that breaks the schema is a finding, at depth 3 too); the
 * input generator lists the cycle's $ref and still gives its classes, each invalid by an oracle written by hand from
 * the schema (request-oracle.ts); a cycle through another file is read the same way. OpenAPI 3.1 and 3.0 both.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadOpenApi } from '../../lib/openapi/load.ts';
import { ResponseJudge, type Answer } from '../../lib/openapi/judge.ts';
import { documentInputs } from '../../lib/openapi/generate/generate.ts';
import { requestBreaks } from './request-oracle.ts';
import { tempDirs } from '../fixtures/tmp.ts';

const DOC = join(import.meta.dirname, '..', '..', 'docs', 'openapi', 'transfers.yaml');
const tmp = tempDirs('openapi-recursive-');

/** the mock's document, its Error recursive through `details` and its TransferRequest through `split` */
function recursive(openapi = '3.1.0'): { dir: string; file: string } {
  const doc = readFileSync(DOC, 'utf8');
  // OpenAPI 3.0 has no mutualTLS scheme: the 3.0 document requires the bearer token only
  const text = (
    openapi.startsWith('3.0')
      ? doc.replace('    mtls: []\n', '').replace(/ {4}mtls:\n {6}type: mutualTLS\n.*\n/, '')
      : doc
  )
    .replace(/^openapi: .*$/m, `openapi: ${openapi}`)
    .replace(
      '        description: { type: string }\n',
      "        description: { type: string }\n        details:\n          type: array\n          items: { $ref: '#/components/schemas/Error' }\n",
    )
    .replace(
      '        account_id: { type: string,',
      "        split: { $ref: '#/components/schemas/TransferRequest' }\n        account_id: { type: string,",
    );
  expect(text).toContain('details:');
  expect(text).toContain('split:');
  const dir = tmp();
  writeFileSync(join(dir, 'doc.yaml'), text);
  return { dir, file: 'doc.yaml' };
}

const error = (details?: unknown[]): Record<string, unknown> => ({
  status: '422',
  response_code: '422001',
  property: 'amount',
  response_message: 'invalid',
  description: 'invalid amount',
  ...(details ? { details } : {}),
});

describe.each(['3.1.0', '3.0.3'])('a recursive document (OpenAPI %s)', (openapi) => {
  it('loads, says so once, and the judge follows the recursion', async () => {
    const { dir, file } = recursive(openapi);
    const m = await loadOpenApi(file, dir);
    expect(m.notes).toEqual([
      expect.stringMatching(/^recursive schemas \((Error, TransferRequest|TransferRequest, Error)\)/),
    ]);
    const j = new ResponseJudge<string>(m);
    const answer = (body: unknown, evidence: string): Answer<string> => ({
      method: 'POST',
      path: '/v1/transfers/validate',
      status: 422,
      contentType: 'application/json',
      empty: false,
      body,
      evidence,
    });
    j.judge(answer(error([error([error()])]), 'nested, valid'));
    expect(j.findings()).toEqual([]);
    // a detail two levels down without its response_code: the schema of the recursion is applied there too
    const deep = error([error([{ ...error(), response_code: undefined }])]);
    delete ((deep.details as Record<string, unknown>[])[0]!.details as Record<string, unknown>[])[0]!.response_code;
    j.judge(answer(deep, 'nested, invalid'));
    const f = j.findings();
    expect(f.map((x) => [x.requirement, x.evidence])).toEqual([['OAS-03', 'nested, invalid']]);
    expect(f[0]!.message).toMatch(/\/details\/0\/details\/0 must have required property 'response_code'/);
  });

  it('the generator lists the cycle and still gives its classes, each invalid by the schema', async () => {
    const { dir, file } = recursive(openapi);
    const m = await loadOpenApi(file, dir);
    const schema =
      m.byKey.validate!.request!.media[0]!.sealed?.payloadSchema ?? m.byKey.validate!.request!.media[0]!.schema!;
    const base = { beneficiary_id: 'b1', amount: { value: '10.00', currency: 'AED' } };
    const inputs = documentInputs(schema, base, openapi);
    expect(inputs.unproduced).toContainEqual({
      label: 'split: $ref',
      why: 'a recursive schema (#/components/schemas/TransferRequest): the generator does not follow it',
    });
    expect(inputs.classes.map((c) => c.label)).toEqual(expect.arrayContaining(['amount.currency: pattern']));
    expect(inputs.invalid.length).toBeGreaterThan(3);
    // judged by a hand-written oracle of the schema (request-oracle.ts), not the generator's own validator
    // each invalid document breaks its labelled constraint alone ("amount.value: type (number)": amount.value's type)
    const alone = (label: string): string => label.replace(/ \(\w+\)$/u, '').replace('(the document)', '(body)');
    for (const doc of inputs.invalid) expect(requestBreaks(doc.body), doc.label).toEqual([alone(doc.label)]);
    for (const doc of inputs.valid) expect(requestBreaks(doc.body), doc.label).toEqual([]);
    expect(inputs.valid.length).toBeGreaterThan(0);
  });
});

it('a cycle through another file loads too, named as such in the note', async () => {
  const dir = tmp();
  writeFileSync(
    join(dir, 'doc.yaml'),
    readFileSync(DOC, 'utf8').replace(
      '        account_id: { type: string,',
      "        split: { $ref: 'parts.yaml#/Node' }\n        account_id: { type: string,",
    ),
  );
  writeFileSync(join(dir, 'parts.yaml'), "Node:\n  type: object\n  properties:\n    next: { $ref: '#/Node' }\n");
  const m = await loadOpenApi('doc.yaml', dir);
  expect(m.notes).toEqual([expect.stringMatching(/^recursive schemas \(a schema of another file\)/)]);
  const schema = m.byKey.validate!.request!.media[0]!.sealed!.payloadSchema!;
  const base = { beneficiary_id: 'b1', amount: { value: '10.00', currency: 'AED' } };
  const inputs = documentInputs(schema, { ...base, split: { next: { next: {} } } }, '3.1.0');
  expect(inputs.unproduced.map((u) => u.why).join('\n')).not.toMatch(/base document is invalid/);
  expect(documentInputs(schema, { ...base, split: { next: { next: 3 } } }, '3.1.0').unproduced[0]!.why).toMatch(
    /base document is invalid by the schema: \/split\/next\/next type/,
  );
});
