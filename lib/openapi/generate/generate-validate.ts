/**
 * The schema validator of the input generator (generate.ts): ajv 8 with ajv-formats, one compiled validator per
 * schema object (compiled once, kept while the schema lives), every error reported (allErrors), so that the
 * generator can tell a document that violates exactly one constraint from one that violates several. OpenAPI 3.1
 * schemas are JSON Schema 2020-12 (Ajv2020); OpenAPI 3.0 schemas are read by ajv's draft-07 dialect, which knows the
 * 3.0 `nullable`; unknown keywords (`example`, `x-…`, `readOnly`) are annotations (strict off).
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { JsonSchema } from '../types.ts';

/** OpenAPI 3.0 (draft-4-like schemas) or 3.1 (JSON Schema 2020-12) */
export type Dialect = '3.0' | '3.1';

/** one violation: where (a JSON pointer into the document), which keyword, and for `required` the member missing */
export interface Violation {
  readonly pointer: string;
  readonly keyword: string;
  readonly member?: string;
}

export interface DocumentValidator {
  /** every violation of `doc` ([] when it is valid) */
  violations(doc: unknown): Violation[];
}

const ajvs: Partial<Record<Dialect, Ajv>> = {};

function ajvOf(dialect: Dialect): Ajv {
  const existing = ajvs[dialect];
  if (existing) return existing;
  const options = { strict: false, allErrors: true, validateFormats: true, logger: false } as const;
  const ajv = dialect === '3.1' ? new Ajv2020(options) : new Ajv(options);
  addFormats.default(ajv);
  ajvs[dialect] = ajv;
  return ajv;
}

/** the dialect of a document's `openapi` version (`3.1.0` → 3.1, anything else 3.0) */
export function dialectOf(openapi: string): Dialect {
  return openapi.startsWith('3.1') ? '3.1' : '3.0';
}

const compiled: Record<Dialect, WeakMap<object, ValidateFunction>> = { '3.0': new WeakMap(), '3.1': new WeakMap() };

function violationOf(e: ErrorObject): Violation {
  const p = e.params as { missingProperty?: string; additionalProperty?: string };
  const member = p.missingProperty ?? p.additionalProperty;
  return { pointer: e.instancePath, keyword: e.keyword, ...(member !== undefined ? { member } : {}) };
}

/** the validator of `schema` (compiled once per schema object and dialect) */
export function validatorOf(schema: JsonSchema, dialect: Dialect): DocumentValidator {
  if (typeof schema === 'boolean') return { violations: () => (schema ? [] : [{ pointer: '', keyword: 'false' }]) };
  let fn = compiled[dialect].get(schema);
  if (!fn) {
    fn = ajvOf(dialect).compile(schema);
    compiled[dialect].set(schema, fn);
  }
  const validate = fn;
  return { violations: (doc) => (validate(doc) ? [] : (validate.errors ?? []).map(violationOf)) };
}

/** OpenAPI 3.0's boolean exclusiveMinimum/exclusiveMaximum (draft 4) as draft-07's numbers, on a copy */
function draft4Bounds(s: unknown, depth: number): unknown {
  if (depth > 64 || s === null || typeof s !== 'object') return s;
  if (Array.isArray(s)) return s.map((x) => draft4Bounds(x, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(s)) out[k] = draft4Bounds(v, depth + 1);
  for (const [ex, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof out[ex] !== 'boolean') continue;
    if (out[ex] === true && typeof out[bound] === 'number') {
      out[ex] = out[bound];
      delete out[bound];
    } else delete out[ex];
  }
  return out;
}

const normalized = new WeakMap<object, JsonSchema>();

/**
 * the schema as the validator reads it: for OpenAPI 3.0 the draft-4 boolean exclusive bounds rewritten as numbers
 * (once per schema object); 3.1 schemas as they are
 */
export function schemaFor(schema: JsonSchema, dialect: Dialect): JsonSchema {
  if (dialect === '3.1' || typeof schema === 'boolean') return schema;
  let s = normalized.get(schema);
  if (!s) {
    s = draft4Bounds(schema, 0) as JsonSchema;
    normalized.set(schema, s);
  }
  return s;
}
