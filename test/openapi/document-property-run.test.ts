/**
 * The whole document-inputs property (coverage, random documents, shrinking; lib/engine/property/property.ts) against the
 * embedded mock with its fixture document: it passes on the clean mock and its summary counts the document's
 * coverage classes; it fails on free-text-length-unchecked under OAS-04 with the one over-long member as its
 * counterexample; without a document it is not applicable.
 */
import { describe, expect, it } from 'vitest';
import { CheckFailed, NotApplicable } from '../../lib/engine/check.ts';
import type { CheckContext } from '../../lib/engine/session/context.ts';
import { checkProperty } from '../../lib/engine/property/property.ts';
import { prepare } from '../../lib/engine/run/prepare.ts';
import { createSession } from '../../lib/engine/session/session.ts';
import { runChecks } from '../../lib/engine/run/runner.ts';
import type { OpenApiModel } from '../../lib/openapi/types.ts';
import { EmbeddedProfile } from '../../lib/profile/schema.ts';
import { documentInputsSpec } from '../../suites/errors/document-property.ts';
import { allChecks } from '../../suites/index.ts';
import { fixtureModel } from './fixture-model.ts';

const model = fixtureModel('mock-transfers.yaml');

async function withContext<R>(faults: string[], doc: OpenApiModel | undefined, f: (c: CheckContext) => Promise<R>) {
  const profile = EmbeddedProfile.parse({
    name: 'document-property',
    environment: 'sandbox',
    embedded: { faults },
    run: { properties: { runs: 40 } },
  });
  const prepared = await prepare(profile, { checkTimeoutMs: 120_000 });
  const session = await createSession(prepared.runtime);
  try {
    const def = allChecks.find((c) => c.id === 'errors.document-inputs-property')!;
    const ctx = session.context(def, { exchanges: [], notes: [], tls: [] });
    const withDoc = new Proxy(ctx, {
      get: (t, p, r): unknown => (p === 'openapi' ? doc : Reflect.get(t, p, r)),
    });
    try {
      return await f(withDoc);
    } finally {
      ctx.dispose();
    }
  } finally {
    await session.close();
    await prepared.close();
  }
}

describe('document-inputs property, the whole search', () => {
  it("passes on the clean mock; the summary counts the document's classes and the random documents", async () => {
    const e = await withContext([], model, async (c) => checkProperty(c, await documentInputsSpec(c)));
    expect(e.broken).toBe(0);
    expect(e.coverage?.covered).toBe(e.coverage?.classes);
    expect(e.summary).toMatch(/(\d+) of \1 coverage classes covered; \d+ random judged/u);
  }, 180_000);

  it('fails on free-text-length-unchecked under OAS-04, shrunk to one over-long member', async () => {
    const err = await withContext(['free-text-length-unchecked'], model, async (c) =>
      checkProperty(c, await documentInputsSpec(c)).then(
        () => undefined,
        (e: unknown) => e,
      ),
    );
    expect(err).toBeInstanceOf(CheckFailed);
    const f = err as CheckFailed;
    expect(f.requirements).toEqual(['OAS-04']);
    expect(f.message).toMatch(/^(remarks|purpose_code): maxLength, which the document says is invalid: accepted/u);
  }, 180_000);

  it('is not applicable without a document', async () => {
    const err = await withContext([], undefined, (c) =>
      documentInputsSpec(c).then(
        () => undefined,
        (e: unknown) => e,
      ),
    );
    expect(err).toBeInstanceOf(NotApplicable);
  }, 60_000);

  it('through the runner without a document: not applicable, with its reason', async () => {
    const profile = EmbeddedProfile.parse({ name: 'no-document', environment: 'sandbox', embedded: {} });
    const prepared = await prepare(profile, { checkTimeoutMs: 60_000 });
    const session = await createSession(prepared.runtime);
    try {
      const checks = allChecks.filter((c) => c.id === 'errors.document-inputs-property');
      const [r] = await runChecks(checks, session, prepared.runtime.options);
      expect([r!.verdict, r!.reason]).toEqual([
        'not-applicable',
        'the profile names no OpenAPI document (target.openapi)',
      ]);
    } finally {
      await session.close();
      await prepared.close();
    }
  }, 60_000);
});
