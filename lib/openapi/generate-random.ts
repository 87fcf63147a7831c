/**
 * The random documents of the input generator (generate.ts), after its coverage classes: a seeded fast-check
 * arbitrary that combines one to three classes on members that do not overlap (the others shrunk away, it ends on the
 * one that fails alone), or draws one of the valid controls (about one document in four). A combination is checked
 * by the schema validator: one the schema finds valid (the edits cancel out) is sent as a control. Pure.
 */
import fc from 'fast-check';
import { applySteps, overlaps, type JsonObject, type Step } from './generate-doc.ts';
import type { DocClass, DocumentInputs, GeneratedInput } from './generate-types.ts';
import { dialectOf, schemaFor, validatorOf } from './generate-validate.ts';
import type { JsonSchema } from './types.ts';

/** classes combined in one random document, at most */
const MAX_COMBINED = 3;

/** the classes of `picked` whose members do not overlap an earlier one's, in order */
function compatible(picked: readonly DocClass[]): DocClass[] {
  const out: DocClass[] = [];
  for (const c of picked) if (!out.some((o) => overlaps(o.path, c.path))) out.push(c);
  return out;
}

/**
 * The arbitrary of random documents for `schema` (the one `inputs` was made from, `openapi` its document's version)
 * from the valid `base`; undefined when there is neither a class nor a control to draw from.
 */
export function documentArbitrary(
  raw: JsonSchema,
  base: JsonObject,
  openapi: string,
  inputs: DocumentInputs,
): fc.Arbitrary<GeneratedInput> | undefined {
  const dialect = dialectOf(openapi);
  const v = validatorOf(schemaFor(raw, dialect), dialect);
  const { classes, valid } = inputs;
  const combined =
    classes.length === 0
      ? undefined
      : fc
          .uniqueArray(fc.nat({ max: classes.length - 1 }), {
            minLength: 1,
            maxLength: Math.min(MAX_COMBINED, classes.length),
          })
          .map((ix): GeneratedInput => {
            const picked = compatible(ix.map((i) => classes[i]!));
            // each class's own edits after the prefix they share (a member added to be broken)
            const steps: Step[] = picked.flatMap((c) => c.steps);
            const body = applySteps(base, steps);
            const labels = picked.map((c) => c.label);
            const label = labels.join('; ');
            return v.violations(body).length > 0
              ? { kind: 'invalid', body, label, classes: labels }
              : { kind: 'valid', body, label: `${label} (valid together)`, classes: [] };
          });
  const controls = valid.length > 0 ? fc.constantFrom(...valid) : undefined;
  if (combined && controls) return fc.oneof({ arbitrary: combined, weight: 3 }, { arbitrary: controls, weight: 1 });
  return combined ?? controls;
}
