/**
 * Property 2 of issue 20, invalid documents (ERR-01..05): fast-check generates transfer documents from the calling
 * customer's valid one (documents.ts) — exactly one defect, several, the JSON text cut short, or none — and each is
 * sent to validate; every answer is judged (documents-judge.ts): 422 in the ERR-01 shape naming a defective member
 * (400 for malformed JSON), never 2xx, never 5xx, never an internal detail; the valid ones accepted. The search,
 * its budget, replay and shrinking are the engine's (lib/engine/property.ts).
 */
import { type CheckSpec } from '../../lib/engine/check.ts';
import type { CheckContext } from '../../lib/engine/context.ts';
import { checkProperty, PROPERTY_CHECK, type Trial } from '../../lib/engine/property.ts';
import { expectControl } from '../shared.ts';
import { malformedBody, sealText } from './bodies.ts';
import { transferDocument, type DocumentBase, type GeneratedDocument } from './documents.ts';
import { judgeAnswer } from './documents-judge.ts';

const customerOf = (ctx: CheckContext) => ctx.customer({ workflow: false });

/** the base every document is made from: the customer's valid request, and the profile's invalid currency */
function baseOf(ctx: CheckContext): DocumentBase {
  return { body: ctx.transferBody(customerOf(ctx)), invalidCurrency: ctx.profile.contract.invalidCurrency };
}

/** one document sent to validate and its answer judged */
async function trial(ctx: CheckContext, doc: GeneratedDocument): Promise<Trial> {
  const token = await ctx.tokens.codeToken(customerOf(ctx));
  const label = `validate (${doc.kind}: ${doc.label})`;
  const sent = doc.kind === 'malformed' ? doc.text : JSON.stringify(doc.body);
  const res = await ctx.api(
    doc.kind === 'malformed'
      ? { op: 'validate', token, rawBody: malformedBody(ctx, doc.text), label }
      : { op: 'validate', token, body: doc.body, label },
  );
  const j = judgeAnswer(doc, res, sent, {
    unmaskedIdentifier: ctx.profile.contract.statuses.unmaskedIdentifier,
    basepath: ctx.profile.target.paths.transfersBasepath,
  });
  const property = (res.body as { property?: unknown } | undefined)?.property;
  const named = res.status === 422 && typeof property === 'string' ? ` naming ${property}` : '';
  if (j.verdict === 'holds') return { verdict: 'held', observed: `HTTP ${res.status}${named}`, status: res.status };
  return {
    verdict: j.verdict === 'broken' ? 'broken' : 'unclear',
    observed: ctx.redact(j.reason),
    status: res.status,
  };
}

export const invalidDocumentsProperty: CheckSpec = {
  name: 'invalid-documents-property',
  requirements: ['ERR-01', 'ERR-02', 'ERR-03', 'ERR-04', 'ERR-05'],
  title:
    'generated transfer documents (one defect, several, JSON cut short) are 422 naming a defective member (400 for the cut JSON), never 2xx, 5xx or an internal detail; generated valid ones are accepted',
  ...PROPERTY_CHECK,
  async run(ctx) {
    const base = baseOf(ctx);
    await checkProperty(ctx, {
      what: 'generated transfer documents',
      held: 'answered right',
      arbitrary: transferDocument(base),
      show: (d) => `${d.kind} document, ${d.label}: ${d.kind === 'malformed' ? d.text : JSON.stringify(d.body)}`,
      async control(c) {
        const token = await c.tokens.codeToken(customerOf(c));
        const ok = await c.api({
          op: 'validate',
          token,
          body: base.body,
          label: 'validate (control: the base document)',
        });
        expectControl(ok, [200], 'the valid base document');
        if (c.env !== 'uat') return;
        // the malformed documents are sealed by hand: the hand-made envelope of valid JSON must be accepted too
        const hand = await c.api({
          op: 'validate',
          token,
          rawBody: sealText(c, JSON.stringify(base.body)),
          label: 'validate (control: hand-sealed valid JSON)',
        });
        expectControl(hand, [200], 'the hand-sealed valid document');
      },
      trial,
      failure: (_d, t) => t.observed,
      expected: '422 in the error structure naming a defective member (400 for malformed JSON), valid documents 200',
    });
  },
};
