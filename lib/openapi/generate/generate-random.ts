/**
 * The random documents of the input generator (generate.ts), after its coverage classes: a seeded fast-check
 * arbitrary that combines two or three classes on members that do not overlap (a class alone, and every control, is
 * already in the coverage). A combination is checked by the schema validator: one the schema finds valid (the edits
 * cancel out) is sent as a control. Pure.
 */
import fc from 'fast-check';
import { applySteps, overlaps, type JsonObject } from './generate-doc.ts';
import type { DocClass, DocumentInputs, GeneratedInput } from './generate-types.ts';
import { dialectOf, schemaFor, validatorOf } from './generate-validate.ts';
import type { JsonSchema } from '../types.ts';

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
  // two or three classes together (one alone is the coverage's own document), drawn without fast-check's bias
  // towards the first classes, so that the random documents are new ones; the controls when there is one class
  if (classes.length < 2) return valid.length > 0 ? fc.constantFrom(...valid) : undefined;
  return fc
    .noBias(fc.uniqueArray(fc.nat({ max: classes.length - 1 }), { minLength: 2, maxLength: MAX_COMBINED }))
    .map((ix): GeneratedInput => {
      const picked = compatible(ix.map((i) => classes[i]!));
      const body = applySteps(
        base,
        picked.flatMap((c) => c.steps),
      );
      const labels = picked.map((c) => c.label);
      const label = labels.join('; ');
      return v.violations(body).length > 0
        ? { kind: 'invalid', body, label, classes: labels }
        : { kind: 'valid', body, label: `${label} (valid together)`, classes: [] };
    });
}
