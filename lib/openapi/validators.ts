/**
 * The document's schemas as validators: Ajv 8 (draft-07 with OpenAPI 3.0's `nullable`, Ajv2020 for 3.1) with
 * ajv-formats, each schema compiled once (by identity: the dereferenced document shares one object per component).
 * One per dialect for the process (validatorsFor): the document's check against itself and every profile's response
 * judge share its compiled schemas. OpenAPI's numeric formats are held to the data types OpenAPI defines for them
 * (NUMERIC_FORMATS); its other formats are accepted as written.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { JsonSchema } from './types.ts';

/** OpenAPI's own formats that describe no value's range (a hint to a UI, a payload's encoding): accepted as written */
const OPENAPI_FORMATS = ['byte', 'binary', 'password'];

/** the bounds of a signed 64-bit integer as JSON numbers parsed to doubles can say them (below) */
const INT64_BOUND = 2 ** 63;

/**
 * OpenAPI's numeric formats as the data types it defines (3.0.3 and 3.1.0 "Data Types": int32 "signed 32 bits",
 * int64 "signed 64 bits", float, double), checked on numbers only (a string written `format: int64`, as some banks
 * write large ids, is not a number: not checked):
 *  - int32: an integer from -2^31 to 2^31-1, exact (every such integer is exact in a double);
 *  - int64: an integer from -2^63 to 2^63, as its parsed double says: the literal 2^63-1 parses to 2^63 (doubles there
 *    are 2048 apart), so 2^63 passes and only a number that no int64 rounds to (past 2^63 + 1024) is flagged, never
 *    a bank's largest id; a safe-integer limit (2^53) would flag valid ids;
 *  - float: a number a 32-bit float holds (Math.fround finite: at most about 3.4e38); double: finite (a literal past
 *    about 1.8e308 parses to Infinity).
 * Where the answer parsed as JSON (RFC 8259 §6) can carry the value, the check says exactly what the format says.
 */
const NUMERIC_FORMATS: Record<string, { type: 'number'; validate: (n: number) => boolean }> = {
  int32: { type: 'number', validate: (n) => Number.isInteger(n) && n >= -(2 ** 31) && n <= 2 ** 31 - 1 },
  int64: { type: 'number', validate: (n) => Number.isInteger(n) && n >= -INT64_BOUND && n <= INT64_BOUND },
  float: { type: 'number', validate: (n) => Number.isFinite(Math.fround(n)) },
  double: { type: 'number', validate: (n) => Number.isFinite(n) },
};

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
    for (const [f, def] of Object.entries(NUMERIC_FORMATS)) this.ajv.addFormat(f, def);
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
