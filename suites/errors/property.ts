/**
 * The invalid-documents property (ERR-01..05, docs/property-invalid-documents.md): fast-check generates transfer
 * documents from the calling customer's valid one (documents.ts) — exactly one defect, several, the JSON text cut
 * short, or none — and each is sent to validate; every answer is judged (documents-judge.ts): 422 in the ERR-01 shape
 * naming a defective member (400 for malformed JSON), never 2xx, never 5xx, never an internal detail; the valid ones
 * accepted. The search, its budget, replay and shrinking are the engine's (lib/engine/property/property.ts).
 */
import { type CheckSpec } from '../../lib/engine/check.ts';
import type { ApiResponse, CheckContext, ClientRole } from '../../lib/engine/session/context.ts';
import type { Customer } from '../../lib/profile/schema.ts';
import { checkProperty, PROPERTY_CHECK, type PropertySpec, type Trial } from '../../lib/engine/property/property.ts';
import { expectControl } from '../shared.ts';
import { malformedBody, sealText } from './bodies.ts';
import type { DocumentBase, GeneratedDocument } from './defects.ts';
import { judgeAnswer, type Judgment } from './documents-judge.ts';

/**
 * Who sends the documents: the partner client when its token is bound to a customer's account id (its validate
 * quota is one the other properties do not spend: masks use the code and internal clients, envelopes the partner's
 * create), else the code client for the first customer without a workflow.
 */
export interface Caller {
  as: ClientRole;
  customer: Customer;
  token(c: CheckContext): Promise<string>;
}
export function callerOf(ctx: CheckContext): Caller {
  const meta = ctx.profile.clients.partner?.oauthMetadata;
  const bound =
    meta && 'account_id' in meta ? ctx.profile.customers.find((c) => c.accountId === meta.account_id) : undefined;
  if (bound) return { as: 'partner', customer: bound, token: (c) => c.tokens.partnerToken() };
  const customer = ctx.customer({ workflow: false });
  return { as: 'code', customer, token: (c) => c.tokens.codeToken(customer) };
}

/** the base every document is made from: the customer's valid request, and the profile's invalid currency */
function baseOf(ctx: CheckContext, who: Caller): DocumentBase {
  const { contract } = ctx.profile;
  return {
    body: ctx.transferBody(who.customer),
    invalidCurrency: contract.invalidCurrency,
    smallestAmount: contract.smallestAmount,
    freeText: contract.freeText,
  };
}

/** one document sent to validate and its answer judged */
async function trial(ctx: CheckContext, who: Caller, doc: GeneratedDocument): Promise<Trial> {
  const { as } = who;
  const token = await who.token(ctx);
  const label = `validate (${doc.kind}: ${doc.label})`;
  const sent = doc.kind === 'malformed' ? doc.text : JSON.stringify(doc.body);
  const res = await ctx.api(
    doc.kind === 'malformed'
      ? { op: 'validate', as, token, rawBody: malformedBody(ctx, doc.text, as), label }
      : { op: 'validate', as, token, body: doc.body, label },
  );
  const j = judgeAnswer(doc, res, sent, {
    unmaskedIdentifier: ctx.profile.contract.statuses.unmaskedIdentifier,
    basepath: ctx.profile.target.paths.transfersBasepath,
    quotaStatus: ctx.profile.contract.quota.status,
  });
  return trialOf(ctx, res, j);
}

/** a document's answer as the property's trial: held (the status, and the member a 422 names), broken, or unclear */
export function trialOf(ctx: CheckContext, res: ApiResponse, j: Judgment): Trial {
  const property = (res.body as { property?: unknown } | undefined)?.property;
  const named = res.status === 422 && typeof property === 'string' ? ` naming ${property}` : '';
  if (j.verdict === 'holds') return { verdict: 'held', observed: `HTTP ${res.status}${named}`, status: res.status };
  if (j.verdict === 'broken')
    return { verdict: 'broken', observed: ctx.redact(j.reason), status: res.status, requirements: j.requirements };
  return { verdict: 'unclear', observed: ctx.redact(j.reason), status: res.status };
}

/** the property's inputs, controls and judgment for this target (its coverage list, its generator) */
export async function documentsSpec(ctx: CheckContext): Promise<PropertySpec<GeneratedDocument>> {
  const who = callerOf(ctx);
  const base = baseOf(ctx, who);
  // the generator (fast-check) and its coverage list are loaded by this check, not by every run
  const [gen, cover] = await Promise.all([import('./documents.ts'), import('./coverage.ts')]);
  return {
    what: 'generated transfer documents',
    held: 'answered right',
    arbitrary: gen.transferDocument(base),
    coverage: () => cover.documentCoverage(base),
    show: (d) => `${d.kind} document, ${d.label}: ${d.kind === 'malformed' ? d.text : JSON.stringify(d.body)}`,
    spends: { as: who.as, op: 'validate' },
    async control(c) {
      const { as } = who;
      const token = await who.token(c);
      // the malformed documents are sealed by hand (UAT): the hand-made envelope of valid JSON must be accepted too;
      // both controls sent side by side (one round trip on a distant target's timeline), judged in this order
      const [ok, hand] = await Promise.all([
        c.api({
          op: 'validate',
          as,
          token,
          body: base.body,
          label: 'validate (control: the base document)',
        }),
        c.env === 'uat'
          ? c.api({
              op: 'validate',
              as,
              token,
              rawBody: sealText(c, JSON.stringify(base.body), as),
              label: 'validate (control: hand-sealed valid JSON)',
            })
          : undefined,
      ]);
      expectControl(ok, [200], 'the valid base document');
      if (hand) expectControl(hand, [200], 'the hand-sealed valid document');
    },
    trial: (c, d) => trial(c, who, d),
    failure: (_d, t) => t.observed,
    expected:
      '422 in the error structure naming a defective member (400 for malformed JSON), valid documents 200 (never a 5xx; never a refusal naming their free text)',
  };
}

export const invalidDocumentsProperty: CheckSpec = {
  name: 'invalid-documents-property',
  requirements: ['ERR-01', 'ERR-02', 'ERR-03', 'ERR-04', 'ERR-05', 'XFER-01'],
  // ERR-02's message half ("a message that says it is missing") is the fixed checks': a pass does not verify ERR-02;
  // XFER-01 is failed by a valid document crashed on or refused for its free text, its answer's members are the
  // fixed check's
  partial: ['ERR-02', 'XFER-01'],
  title:
    'generated transfer documents (one defect, several, JSON cut short) are 422 naming a defective member (400 for the cut JSON), never 2xx, 5xx or an internal detail; generated valid ones (non-ASCII and longest free text, the smallest amount) are accepted',
  ...PROPERTY_CHECK,
  async run(ctx) {
    await checkProperty(ctx, await documentsSpec(ctx));
  },
};
