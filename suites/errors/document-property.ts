/**
 * The inputs of the bank's OpenAPI document (OAS-04, OAS-05; docs/property-invalid-documents.md, "Inputs from the
 * document"): from the request body schema of validate (of create when the document lacks validate; for a sealed
 * body the schema of its payload) and the calling customer's valid document, the generator (lib/openapi/generate/generate.ts)
 * makes one document per constraint the schema states (the coverage classes) and valid documents as controls, then
 * random combinations; each is sent to validate as the invalid-documents property sends its own (the same caller,
 * sealed in UAT) and judged by document-judge.ts. The specification's rules stay the ERR checks': where the document
 * and docs/contract.md disagree, one note each (document-drift.ts). Not applicable without a document.
 */
import { NotApplicable, type CheckSpec } from '../../lib/engine/check.ts';
import type { CheckContext } from '../../lib/engine/session/context.ts';
import { checkProperty, PROPERTY_CHECK, type PropertySpec, type Trial } from '../../lib/engine/property/property.ts';
import { CLOCK_RANDOM_RUNS } from '../../lib/engine/property/property-plan.ts';
import type { GeneratedInput } from '../../lib/openapi/generate/generate.ts';
import type { ApiOperationKey, JsonSchema, OpenApiModel } from '../../lib/openapi/types.ts';
import { expectControl } from '../shared.ts';
import { judgeDocumentAnswer } from './document-judge.ts';
import { contractMissing, documentDrift } from './document-drift.ts';
import { callerOf, trialOf, type Caller } from './property.ts';

/** the request schema the generator reads: the sealed payload's, else the JSON body's; where it is, for notes */
export function requestSchemaOf(
  model: OpenApiModel,
): { schema: JsonSchema; where: string; op: ApiOperationKey } | { missing: string } {
  for (const op of ['validate', 'create'] as const) {
    const media = model.byKey[op]?.request?.media ?? [];
    const sealed = media.find((m) => m.sealed?.payloadSchema !== undefined);
    if (sealed?.sealed?.payloadSchema !== undefined)
      return {
        schema: sealed.sealed.payloadSchema,
        where: `${model.source}#${sealed.pointer} (x-sealed: the payload's schema)`,
        op,
      };
    const plain = media.find((m) => !m.sealed && m.schema !== undefined && /json/iu.test(m.contentType));
    if (plain?.schema !== undefined) return { schema: plain.schema, where: `${model.source}#${plain.pointer}`, op };
  }
  const envelope = ['validate', 'create'].some((k) =>
    model.byKey[k as ApiOperationKey]?.request?.media.some((m) => m.sealed),
  );
  return {
    missing: envelope
      ? `${model.source} describes the sealed envelope of validate and create, not the payload inside it: no request schema to generate from`
      : `${model.source} gives no JSON request body schema for validate or create`,
  };
}

/** the dotted members the schema describes (`amount.value`), for a 422 that names one */
function describedMembers(schema: JsonSchema, prefix = '', depth = 0, out = new Set<string>()): Set<string> {
  if (typeof schema !== 'object' || depth > 12) return out;
  const props = schema.properties;
  if (props && typeof props === 'object')
    for (const [k, v] of Object.entries(props as Record<string, JsonSchema>)) {
      out.add(`${prefix}${k}`);
      describedMembers(v, `${prefix}${k}.`, depth + 1, out);
    }
  const items = schema.items;
  if (items && typeof items === 'object' && !Array.isArray(items))
    describedMembers(items as JsonSchema, prefix, depth + 1, out);
  return out;
}

async function trial(ctx: CheckContext, who: Caller, doc: GeneratedInput, described: Set<string>): Promise<Trial> {
  const token = await who.token(ctx);
  const label = `validate (from the document, ${doc.kind}: ${doc.label})`;
  const res = await ctx.api({ op: 'validate', as: who.as, token, body: doc.body, label });
  const j = judgeDocumentAnswer(doc, res, {
    quotaStatus: ctx.profile.contract.quota.status,
    describes: (m) => described.has(m),
  });
  return trialOf(ctx, res, j);
}

/** the property's inputs from the document, its control and judgment (NotApplicable without a request schema) */
export async function documentInputsSpec(ctx: CheckContext): Promise<PropertySpec<GeneratedInput>> {
  const model = ctx.openapi;
  if (!model) throw new NotApplicable('the profile names no OpenAPI document (target.openapi)');
  const found = requestSchemaOf(model);
  if ('missing' in found) throw new NotApplicable(found.missing);
  const who = callerOf(ctx);
  const base = ctx.transferBody(who.customer);
  const debit = 'emirates_id' in base && !('account_id' in base) ? 'emirates_id' : 'account_id';
  if (found.op !== 'validate') ctx.note(`${model.source} has no request schema for validate: create's is used`);
  for (const d of documentDrift(found.schema, debit, found.where)) ctx.note(d);
  // the generator (ajv, fast-check) is loaded by this check, not by every run
  const [gen, rnd] = await Promise.all([
    import('../../lib/openapi/generate/generate.ts'),
    import('../../lib/openapi/generate/generate-random.ts'),
  ]);
  const inputs = gen.documentInputs(found.schema, base, model.openapi);
  const missed = inputs.unproduced.map((u) => `${u.label} (${u.why})`);
  ctx.note(
    `${found.where}: ${inputs.classes.length} coverage classes (one per constraint the schema states), ${inputs.valid.length} valid controls${missed.length ? `; ${missed.length} constraint(s) no document could violate alone: ${missed.join('; ')}` : ''}`,
  );
  // a valid document by the schema that the contract says must be refused is no control (one note says which)
  const controls = inputs.valid.filter((d) => contractMissing(d.body, debit).length === 0);
  const dropped = inputs.valid.filter((d) => !controls.includes(d)).map((d) => d.label);
  if (dropped.length > 0)
    ctx.note(
      `${found.where}: not sent as controls, docs/contract.md requires a member they lack: ${dropped.join('; ')}`,
    );
  const arbitrary = rnd.documentArbitrary(found.schema, base, model.openapi, inputs);
  if (!arbitrary) throw new NotApplicable(`${found.where}: ${inputs.unproduced[0]?.why ?? 'nothing to generate'}`);
  const described = describedMembers(found.schema);
  return {
    what: "documents generated from the OpenAPI document's request schema",
    held: 'answered as the document says',
    arbitrary,
    coverage: () => [...controls, ...inputs.invalid],
    // every constraint is in the coverage; the random documents only combine them: a quota window's worth at most
    maxRandom: CLOCK_RANDOM_RUNS,
    show: (d) => `${d.kind} by the document, ${d.label}: ${JSON.stringify(d.body)}`,
    spends: { as: who.as, op: 'validate' },
    async control(c) {
      const token = await who.token(c);
      const ok = await c.api({
        op: 'validate',
        as: who.as,
        token,
        body: base,
        label: 'validate (control: the base document)',
      });
      expectControl(ok, [200], 'the valid base document');
    },
    trial: (c, d) =>
      d.kind === 'valid' && contractMissing(d.body, debit).length > 0
        ? Promise.resolve({
            verdict: 'unclear',
            observed: `${d.label}: valid by the document, but docs/contract.md requires ${contractMissing(d.body, debit).join(', ')}: not sent`,
          })
        : trial(c, who, d, described),
    failure: (_d, t) => t.observed,
    expected: 'a document the schema finds invalid refused (4xx), one it finds valid not refused as malformed',
  };
}

export const documentInputsProperty: CheckSpec = {
  name: 'document-inputs-property',
  requirements: ['OAS-04', 'OAS-05'],
  title:
    "documents generated from the bank's OpenAPI request schema: each constraint broken once is refused (4xx, never 2xx or 5xx); the valid ones are not refused as malformed",
  ...PROPERTY_CHECK,
  async run(ctx) {
    await checkProperty(ctx, await documentInputsSpec(ctx));
  },
};
