/**
 * The document-inputs property (OAS-04, OAS-05; suites/errors/document-property.ts) against the embedded mock with
 * its fixture document (test/fixtures/openapi/mock-transfers.yaml): every coverage class judged right on the clean
 * and the lenient mock, in both modes; each of its faults breaks exactly the classes it is about, under its own id.
 */
import { describe, expect, it } from 'vitest';
import type { CheckContext } from '../../lib/engine/session/context.ts';
import type { GeneratedInput } from '../../lib/openapi/generate/generate.ts';
import type { OpenApiModel } from '../../lib/openapi/types.ts';
import { documentInputsSpec } from '../../suites/errors/document-property.ts';
import { runCoverage } from '../errors/coverage-run.ts';
import { fixtureModel } from './fixture-model.ts';

const model = fixtureModel('mock-transfers.yaml');

/** the check's context with the document loaded (the loader puts it on the session's contexts) */
export function withDocument(ctx: CheckContext, doc: OpenApiModel | undefined): CheckContext {
  return new Proxy(ctx, { get: (t, p, r): unknown => (p === 'openapi' ? doc : Reflect.get(t, p, r)) });
}

async function broken(
  env: 'sandbox' | 'uat',
  embedded: { faults?: string[]; lenient?: boolean },
): Promise<{ classes: number; broken: string[] }> {
  const run = await runCoverage<GeneratedInput>(env, embedded, 'errors.document-inputs-property', (ctx) =>
    documentInputsSpec(withDocument(ctx, model)),
  );
  const out = run.trials.flatMap((t, i) =>
    t.verdict === 'held' ? [] : [`${run.inputs[i]!.label} ${t.verdict} ${(t.requirements ?? []).join(' ')}`.trim()],
  );
  return { classes: run.inputs.length, broken: out };
}

describe('document-inputs property against the mock with its document', () => {
  it('the clean mock answers every class as the document says (sandbox and UAT, sealed)', async () => {
    for (const env of ['sandbox', 'uat'] as const) {
      const r = await broken(env, {});
      expect(r.broken, env).toEqual([]);
      expect(r.classes, env).toBeGreaterThan(40);
    }
  }, 240_000);

  it('the lenient mock too', async () => {
    expect((await broken('sandbox', { lenient: true })).broken).toEqual([]);
  }, 120_000);

  it.each(['sandbox', 'uat'] as const)(
    'free-text-length-unchecked (%s): the over-long free text is accepted, OAS-04',
    async (env) => {
      expect((await broken(env, { faults: ['free-text-length-unchecked'] })).broken).toEqual([
        'purpose_code: maxLength broken OAS-04',
        'remarks: maxLength broken OAS-04',
      ]);
    },
    120_000,
  );

  it.each(['sandbox', 'uat'] as const)(
    'remarks-short-limit (%s): remarks at the documented 140 characters refused, OAS-05',
    async (env) => {
      expect((await broken(env, { faults: ['remarks-short-limit'] })).broken).toEqual([
        'remarks at its maxLength (140) broken OAS-05',
      ]);
    },
    120_000,
  );
});
