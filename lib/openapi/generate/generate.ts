/**
 * Request documents generated from the bank's OpenAPI document (docs/property-invalid-documents.md, "Inputs from the
 * document"): from a request body schema (dereferenced JSON Schema) and a valid base document, the coverage classes
 * — for every constraint the schema states at every member (nested objects, array items), one document that
 * violates exactly that constraint, the rest kept valid, each labelled (`amount.currency: enum`) and checked invalid
 * by the schema validator (generate-validate.ts) — and valid documents as controls (the base, and variants within
 * the schema), each checked valid. A constraint no document can be made to violate alone is listed (`unproduced`)
 * with its reason. Random documents combining the classes: generate-random.ts. Pure: no I/O, deterministic.
 */
import { applySteps, memberName, pointerOf, valueAt, type JsonObject, type Path, type Step } from './generate-doc.ts';
import { candidatesFor, otherTypes, sampleValues, type Schema } from './generate-values.ts';
import { dialectOf, schemaFor, validatorOf, type Violation } from './generate-validate.ts';
import type { JsonSchema } from '../types.ts';
import { controlsOf } from './generate-controls.ts';
import type { DocumentInputs, GeneratedInput, Unproduced, Walk } from './generate-types.ts';

export type { DocClass, DocumentInputs, GeneratedInput, Unproduced } from './generate-types.ts';

export type { Dialect } from './generate-validate.ts';
export { dialectOf };

/** the value-level keywords the generator violates (`type` apart), in this order at each member */
const VALUE_KEYWORDS = [
  'enum',
  'const',
  'pattern',
  'format',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
  'uniqueItems',
] as const;

/** keywords the generator does not follow: listed, never silently dropped */
const NOT_FOLLOWED = [
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'if',
  'prefixItems',
  'patternProperties',
  'dependentRequired',
  'dependentSchemas',
  'propertyNames',
  'minProperties',
  'maxProperties',
  'contains',
];

/** nesting followed at most (a dereferenced schema may be cyclic) */
const MAX_DEPTH = 12;

/** the first candidate (fewest violations) whose violations `accept` takes, as a class; else listed as unproduced */
function tryClass(
  w: Walk,
  at: { path: Path; prefix: readonly Step[]; member: string; constraint: string },
  edits: readonly Step[][],
  accept: (vs: Violation[]) => boolean,
  why = 'no generated value violates it alone',
): void {
  const label = `${at.member}: ${at.constraint}`;
  let best: { steps: Step[]; n: number } | undefined;
  for (const edit of edits) {
    const steps = [...at.prefix, ...edit];
    const vs = w.v.violations(applySteps(w.base, steps));
    if (vs.length > 0 && accept(vs) && (!best || vs.length < best.n)) best = { steps, n: vs.length };
  }
  if (!best) {
    w.unproduced.push({ label, why });
    return;
  }
  w.classes.push({ label, member: at.member, constraint: at.constraint, steps: best.steps, path: at.path });
}

/** the value-level classes of one member: each other type, then each keyword the schema states */
function valueClasses(w: Walk, s: Schema, path: Path, prefix: readonly Step[]): void {
  const member = memberName(path);
  const here = pointerOf(path);
  const value = valueAt(applySteps(w.base, prefix), path);
  const set = (x: unknown): Step[] => [{ path, value: x }];
  for (const { type, value: x } of otherTypes(s, value))
    tryClass(w, { path, prefix, member, constraint: `type (${type})` }, [set(x)], (vs) =>
      vs.every((e) => e.pointer === here && e.keyword !== 'required' && e.keyword !== 'additionalProperties'),
    );
  for (const keyword of VALUE_KEYWORDS) {
    if (s[keyword] === undefined) continue;
    const candidates = candidatesFor(keyword, s, value);
    if (candidates.length === 0) {
      w.unproduced.push({ label: `${member}: ${keyword}`, why: `${JSON.stringify(s[keyword])} cannot be violated` });
      continue;
    }
    tryClass(
      w,
      { path, prefix, member, constraint: keyword },
      candidates.map(set),
      (vs) => vs.every((e) => e.pointer === here && e.keyword === keyword),
      keyword === 'format'
        ? `ajv-formats refuses none of the generated values for ${JSON.stringify(s.format)} (a format it does not know, or one every value of the type fits)`
        : undefined,
    );
  }
  for (const k of NOT_FOLLOWED)
    if (s[k] !== undefined) w.unproduced.push({ label: `${member}: ${k}`, why: 'the generator does not follow it' });
  // a $ref left in a dereferenced schema closes a cycle (lib/openapi/recursive.ts): the validator follows it
  if (typeof s.$ref === 'string')
    w.unproduced.push({
      label: `${member}: $ref`,
      why: `a recursive schema (${s.$ref}): the generator does not follow it`,
    });
}

/** a $ref in a body's schema returns into a recursive schema (lib/openapi/recursive.ts): the validator follows it */
function refListing(member: string, ref: string): Unproduced {
  return { label: `${member}: $ref`, why: `a recursive schema (${ref}): the generator does not follow it` };
}

/** the edits that make an absent member present with a valid value, undefined when none is found */
function presence(w: Walk, s: JsonSchema, path: Path, prefix: readonly Step[]): Step[] | undefined {
  const samples = typeof s === 'object' ? sampleValues(s) : [];
  for (const x of samples) {
    const steps = [...prefix, { path, value: x }];
    if (w.v.violations(applySteps(w.base, steps)).length === 0) return steps;
  }
  return undefined;
}

/** an object's classes: each required member missing, an undocumented member, then each member's own */
function objectClasses(w: Walk, s: Schema, path: Path, prefix: readonly Step[], depth: number): void {
  const here = pointerOf(path);
  const required = Array.isArray(s.required) ? (s.required as unknown[]).filter((r) => typeof r === 'string') : [];
  for (const r of required)
    tryClass(
      w,
      { path: [...path, r], prefix, member: memberName([...path, r]), constraint: 'required' },
      [[{ path: [...path, r], remove: true }]],
      (vs) => vs.every((e) => e.pointer === here && e.keyword === 'required' && e.member === r),
    );
  if (s.additionalProperties === false)
    tryClass(
      w,
      { path, prefix, member: memberName(path), constraint: 'additionalProperties' },
      [[{ path: [...path, 'undocumented_member'], value: 'x' }]],
      (vs) => vs.every((e) => e.pointer === here && e.keyword === 'additionalProperties'),
    );
  else if (typeof s.additionalProperties === 'object')
    w.unproduced.push({ label: `${memberName(path)}: additionalProperties`, why: 'a schema for them: not generated' });
  const props = (typeof s.properties === 'object' && s.properties !== null ? s.properties : {}) as Record<
    string,
    JsonSchema
  >;
  const current = valueAt(applySteps(w.base, prefix), path) as JsonObject;
  for (const [name, sub] of Object.entries(props)) {
    const child = [...path, name];
    const isRequired = required.includes(name);
    if (current[name] !== undefined) {
      walk(w, sub, child, prefix, depth + 1, isRequired);
      continue;
    }
    const made = presence(w, sub, child, prefix);
    if (made) walk(w, sub, child, made, depth + 1, isRequired);
    else if (typeof sub === 'object' && typeof sub.$ref === 'string')
      w.unproduced.push(refListing(memberName(child), sub.$ref));
    else if (typeof sub === 'object')
      w.unproduced.push({ label: `${memberName(child)}: (every constraint)`, why: 'no valid value found to add it' });
  }
}

/** an array's classes: its own, then its items' (the first item, or one added) */
function arrayClasses(w: Walk, s: Schema, path: Path, prefix: readonly Step[], depth: number): void {
  const items = s.items;
  if (items === undefined || Array.isArray(items)) return;
  const child = [...path, 0];
  const current = valueAt(applySteps(w.base, prefix), path) as unknown[];
  if (current.length > 0) return walk(w, items as JsonSchema, child, prefix, depth + 1, true);
  const made = presence(w, items as JsonSchema, child, prefix);
  if (made) walk(w, items as JsonSchema, child, made, depth + 1, true);
  else w.unproduced.push({ label: `${memberName(child)}: (every constraint)`, why: 'no valid item found to add' });
}

function walk(w: Walk, s: JsonSchema, path: Path, prefix: readonly Step[], depth: number, required: boolean): void {
  if (typeof s !== 'object') return;
  if (depth > MAX_DEPTH) {
    w.unproduced.push({ label: `${memberName(path)}: (every constraint)`, why: `nested deeper than ${MAX_DEPTH}` });
    return;
  }
  w.members.push({ schema: s, path, prefix, required });
  valueClasses(w, s, path, prefix);
  const value = valueAt(applySteps(w.base, prefix), path);
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) objectClasses(w, s, path, prefix, depth);
  if (Array.isArray(value)) arrayClasses(w, s, path, prefix, depth);
}

/**
 * The coverage classes and controls of `schema` from the valid `base` (`openapi`: the document's version, which
 * decides the schema dialect). A base the schema finds invalid gives no class: every constraint is unproduced, and
 * the reason names the base's violations.
 */
export function documentInputs(raw: JsonSchema, base: JsonObject, openapi: string): DocumentInputs {
  const dialect = dialectOf(openapi);
  const schema = schemaFor(raw, dialect);
  const v = validatorOf(schema, dialect);
  const w: Walk = { v, base, classes: [], unproduced: [], members: [] };
  const wrong = v.violations(base);
  if (wrong.length > 0) {
    const why = wrong.map((e) => `${e.pointer || '/'} ${e.keyword}${e.member ? ` ${e.member}` : ''}`).join(', ');
    return {
      classes: [],
      invalid: [],
      valid: [],
      unproduced: [{ label: '(every constraint)', why: `the base document is invalid by the schema: ${why}` }],
    };
  }
  walk(w, schema, [], [], 0, true);
  const invalid = w.classes.map((c): GeneratedInput => ({
    kind: 'invalid',
    body: applySteps(base, c.steps),
    label: c.label,
    classes: [c.label],
  }));
  return { classes: w.classes, invalid, valid: controlsOf(w), unproduced: w.unproduced };
}
