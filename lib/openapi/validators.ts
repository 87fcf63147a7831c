/**
 * The document's schemas as validators: Ajv 8 (draft-07 with OpenAPI 3.0's `nullable`, Ajv2020 for 3.1) with
 * ajv-formats, each schema compiled once (by identity: the dereferenced document shares one object per component).
 * One per dialect for the process (validatorsFor): the document's check against itself and every profile's response
 * judge share its compiled schemas.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { JsonSchema } from './types.ts';

/** OpenAPI's own formats, which JSON Schema does not define: accepted as written */
const OPENAPI_FORMATS = ['int32', 'int64', 'float', 'double', 'byte', 'binary', 'password'];

export interface SchemaError {
  /** where in the schema: the keyword's path, e.g. `#/properties/amount/required` */
  schemaPath: string;
  /** one line: the member and what is wrong with it */
  message: string;
}

export class Validators {
  private readonly ajv: Ajv | Ajv2020;
  private readonly compiled = new WeakMap<object, ValidateFunction>();
  private readonly booleans = new Map<boolean, ValidateFunction>();

  constructor(openapi: string) {
    const opts = { strict: false, allErrors: true, validateSchema: false, logger: false as const };
    this.ajv = openapi.startsWith('3.1') ? new Ajv2020(opts) : new Ajv(opts);
    (addFormats as unknown as (a: Ajv | Ajv2020) => void)(this.ajv);
    for (const f of OPENAPI_FORMATS) this.ajv.addFormat(f, true);
  }

  private validator(schema: JsonSchema): ValidateFunction {
    if (typeof schema === 'boolean') {
      let v = this.booleans.get(schema);
      if (!v) this.booleans.set(schema, (v = this.ajv.compile(schema)));
      return v;
    }
    let v = this.compiled.get(schema);
    if (!v) this.compiled.set(schema, (v = this.ajv.compile(schema as object)));
    return v;
  }

  /** the errors of `value` against `schema` (none: valid) */
  check(schema: JsonSchema, value: unknown): SchemaError[] {
    const v = this.validator(schema);
    if (v(value)) return [];
    return (v.errors ?? []).map((e: ErrorObject) => ({
      schemaPath: e.schemaPath,
      message: `${e.instancePath || '(the body)'} ${e.message ?? 'is not valid'}`,
    }));
  }
}

const shared = new Map<boolean, Validators>();

/** the process's validators of a document's `openapi` version (one per dialect: 3.1, or 3.0) */
export function validatorsFor(openapi: string): Validators {
  const is31 = openapi.startsWith('3.1');
  let v = shared.get(is31);
  if (!v) shared.set(is31, (v = new Validators(is31 ? '3.1' : '3.0')));
  return v;
}
