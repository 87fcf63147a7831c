/**
 * readOnly and writeOnly as OpenAPI and JSON Schema define them (lib/openapi/read-write.ts, docs/openapi.md): the
 * whole-bank document's one shared Transfer schema (its answer's members readOnly) gives request inputs that neither
 * send nor break those members, and the embedded mock — which ignores them, as XFER-06 requires — breaks no class of
 * the document-inputs property; a writeOnly member is not demanded in an answer, a readOnly one still is.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { documentInputs } from '../../lib/openapi/generate/generate.ts';
import type { GeneratedInput } from '../../lib/openapi/generate/generate.ts';
import type { CheckContext } from '../../lib/engine/session/context.ts';
import { ResponseJudge } from '../../lib/openapi/judge.ts';
import type { OpenApiModel } from '../../lib/openapi/types.ts';
import { loadOpenApi } from '../../lib/openapi/load.ts';
import { documentInputsSpec } from '../../suites/errors/document-property.ts';
import { runCoverage } from '../errors/coverage-run.ts';
import { tempDirs } from '../fixtures/tmp.ts';

const BANK = join(import.meta.dirname, '..', 'fixtures', 'openapi', 'bank');
const READ_ONLY = ['transfer_id', 'payment_reference_id', 'status', 'created_at'];
const tmp = tempDirs('openapi-read-write-');

/** the check's context with the document loaded (the loader puts it on the session's contexts) */
const withDocument = (ctx: CheckContext, doc: OpenApiModel): CheckContext =>
  new Proxy(ctx, { get: (t, p, r): unknown => (p === 'openapi' ? doc : Reflect.get(t, p, r)) });

describe('readOnly and writeOnly', () => {
  it('a shared Transfer schema: the request inputs neither send nor break its readOnly members', async () => {
    const m = await loadOpenApi('bank.yaml', BANK);
    const schema = m.byKey.validate!.request!.media[0]!.schema!;
    const base = { beneficiary_id: 'B1', amount: { value: '10.00', currency: 'AED' } };
    const inputs = documentInputs(schema, base, m.openapi);
    const members = (body: unknown): string[] =>
      typeof body === 'object' && body !== null && !Array.isArray(body) ? Object.keys(body) : [];
    expect(inputs.classes.map((c) => c.member).filter((x) => READ_ONLY.includes(x))).toEqual([]);
    for (const d of [...inputs.valid, ...inputs.invalid])
      expect(
        members(d.body).filter((x) => READ_ONLY.includes(x)),
        d.label,
      ).toEqual([]);
    // the writeOnly member is the client's: sent and broken as any other
    expect(inputs.classes.map((c) => c.label)).toContain('emirates_id: type (number)');
    // the answer's view of the same schema keeps the readOnly members
    const answer = m.byKey.get!.responses.find((r) => r.status === '200')!.media[0]!.schema as Record<string, object>;
    expect(Object.keys(answer.properties!)).toEqual(expect.arrayContaining(READ_ONLY));
  });

  it('the document-inputs property on the mock (which ignores readOnly members): no class broken', async () => {
    const m = await loadOpenApi('bank.yaml', BANK);
    const run = await runCoverage<GeneratedInput>('sandbox', {}, 'errors.document-inputs-property', (ctx) =>
      documentInputsSpec(withDocument(ctx, m)),
    );
    const broken = run.trials.flatMap((t, i) => (t.verdict === 'held' ? [] : [`${run.inputs[i]!.label} ${t.verdict}`]));
    expect(broken).toEqual([]);
    expect(run.inputs.length).toBeGreaterThan(20);
  }, 240_000);

  it('an answer: a required writeOnly member is not demanded, a required readOnly one is', async () => {
    const dir = tmp();
    writeFileSync(
      join(dir, 'doc.yaml'),
      [
        'openapi: 3.0.3',
        'info: { title: t, version: "1" }',
        'paths:',
        '  /transfers/{id}:',
        '    get:',
        '      x-openbank-operation: get',
        '      parameters: [{ name: id, in: path, required: true, schema: { type: string } }]',
        '      responses:',
        "        '200':",
        '          description: ok',
        '          content:',
        '            application/json:',
        '              schema:',
        '                type: object',
        '                required: [transfer_id, pin]',
        '                properties:',
        '                  transfer_id: { type: string, readOnly: true }',
        '                  pin: { type: string, writeOnly: true }',
      ].join('\n'),
    );
    const m = await loadOpenApi('doc.yaml', dir, { requireOperations: false });
    const judge = new ResponseJudge<string>(m);
    const answer = (body: unknown, evidence: string) =>
      judge.judge({
        method: 'GET',
        path: '/transfers/t1',
        status: 200,
        contentType: 'application/json',
        empty: false,
        body,
        evidence,
      });
    answer({ transfer_id: 't1' }, 'without the writeOnly member');
    expect(judge.findings()).toEqual([]);
    answer({ pin: '1234' }, 'without the readOnly member');
    expect(judge.findings().map((f) => [f.requirement, f.message, f.evidence])).toEqual([
      [
        'OAS-03',
        "200: (the body) must have required property 'transfer_id' (/paths/~1transfers~1{id}/get/responses/200/content/application~1json/required)",
        'without the readOnly member',
      ],
    ]);
  });
});
