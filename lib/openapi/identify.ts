/**
 * The operations the harness calls (validate, create, get), identified in the document and never guessed
 * (docs/openapi.md, "Which operations are the transfers API"): from the profile's paths when it sets them, else from
 * `x-openbank-operation`, else from their shape only when exactly one operation fits each. Anything else is no
 * identification: the loader stops before any traffic, naming the candidates and the two ways to say which.
 */
import type { ApiOperationKey, DocOperation, JsonSchema, OpenApiModel } from './types.ts';

export const KEYS: readonly ApiOperationKey[] = ['validate', 'create', 'get'];

/** how an operation was identified (the report says it) */
export type IdentifiedBy = 'profile paths' | 'x-openbank-operation' | 'shape';

/** the paths the profile sets itself (as written): below its base path, else below the document's */
export interface ProfilePaths {
  basePath?: string;
  /** POST: validate */
  validate?: string;
  /** PUT: create, GET: get */
  transfer?: string;
}

export interface Identification {
  byKey: Partial<Record<ApiOperationKey, DocOperation>>;
  by: Partial<Record<ApiOperationKey, IdentifiedBy>>;
  /** operations that fit a key equally well: no identification */
  ambiguous: Partial<Record<ApiOperationKey, { by: IdentifiedBy; candidates: DocOperation[] }>>;
  /** a key the profile's paths name but the document does not describe there */
  undescribed: Partial<Record<ApiOperationKey, string>>;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** a path template with its parameters' names dropped: `/v1/transfers/{}` */
export const skeleton = (path: string): string => path.replace(/\{[^}]+\}/g, '{}').replace(/\/+$/, '');
const params = (path: string): number => (path.match(/\{[^}]+\}/g) ?? []).length;
const lastSegment = (path: string): string => path.replace(/\/+$/, '').split('/').pop() ?? '';

/** the members a schema describes, through allOf / oneOf / anyOf (the document is dereferenced) */
function membersOf(schema: unknown, out = new Set<string>(), depth = 0): Set<string> {
  if (!isObj(schema) || depth > 8) return out;
  if (isObj(schema.properties)) for (const k of Object.keys(schema.properties)) out.add(k);
  for (const kw of ['allOf', 'oneOf', 'anyOf'])
    if (Array.isArray(schema[kw])) for (const s of schema[kw] as unknown[]) membersOf(s, out, depth + 1);
  return out;
}

/** the members of a transfer request the specification requires (§3): a body that describes both is a transfer's */
const TRANSFER_MEMBERS = ['beneficiary_id', 'amount'];

/** the request body describes a transfer: the payload's schema (sealed) or the body's describes its members */
function takesTransfer(op: DocOperation): boolean {
  return (op.request?.media ?? []).some((m) => {
    const schema: JsonSchema | undefined = m.sealed?.payloadSchema ?? m.schema;
    const members = membersOf(schema);
    return TRANSFER_MEMBERS.every((k) => members.has(k));
  });
}

const answers2xx = (op: DocOperation): boolean => op.responses.some((r) => /^2(\d\d|XX)$/.test(r.status));

/** the shapes (method, last segments and parameters, request and response) of each operation the harness calls */
function fitsValidate(op: DocOperation): boolean {
  return op.method === 'POST' && lastSegment(op.path) === 'validate' && takesTransfer(op) && answers2xx(op);
}
function fitsCreate(op: DocOperation): boolean {
  return (
    op.method === 'PUT' &&
    params(op.path) === 1 &&
    /^\{[^}]+\}$/.test(lastSegment(op.path)) &&
    takesTransfer(op) &&
    answers2xx(op)
  );
}

export function identify(ops: readonly DocOperation[], docBase: string, written: ProfilePaths = {}): Identification {
  const base = written.basePath ?? docBase;
  const paths = {
    ...(written.validate !== undefined ? { validate: base + written.validate } : {}),
    ...(written.transfer !== undefined ? { transfer: base + written.transfer } : {}),
  };
  const out: Identification = { byKey: {}, by: {}, ambiguous: {}, undescribed: {} };
  const decide = (key: ApiOperationKey, by: IdentifiedBy, candidates: DocOperation[]): void => {
    if (candidates.length === 1) {
      out.byKey[key] = candidates[0]!;
      out.by[key] = by;
    } else if (candidates.length > 1) out.ambiguous[key] = { by, candidates };
  };
  const wanted: Record<ApiOperationKey, { method: string; path?: string }> = {
    validate: { method: 'POST', ...(paths.validate ? { path: paths.validate } : {}) },
    create: { method: 'PUT', ...(paths.transfer ? { path: paths.transfer } : {}) },
    get: { method: 'GET', ...(paths.transfer ? { path: paths.transfer } : {}) },
  };
  // 1. the profile's paths: the operation of that method on that template
  for (const key of KEYS) {
    const { method, path } = wanted[key];
    if (!path) continue;
    const at = ops.filter((o) => o.method === method && skeleton(o.path) === skeleton(path));
    if (at.length === 0) out.undescribed[key] = `${method} ${path}`;
    decide(key, 'profile paths', at);
  }
  // 2. the extension, on exactly one operation
  for (const key of KEYS)
    if (!wanted[key].path)
      decide(
        key,
        'x-openbank-operation',
        ops.filter((o) => o.key === key),
      );
  // 3. the shape, when exactly one operation fits
  const open = (key: ApiOperationKey): boolean => !wanted[key].path && !out.byKey[key] && !out.ambiguous[key];
  if (open('validate')) decide('validate', 'shape', ops.filter(fitsValidate));
  if (open('create')) decide('create', 'shape', ops.filter(fitsCreate));
  if (open('get')) {
    // the GET on the create operation's template; while create is not identified, on any template that fits create
    const creates = out.byKey.create ? [out.byKey.create] : ops.filter(fitsCreate);
    const templates = new Set(creates.map((c) => skeleton(c.path)));
    decide(
      'get',
      'shape',
      ops.filter((o) => o.method === 'GET' && templates.has(skeleton(o.path)) && answers2xx(o)),
    );
  }
  return out;
}

const HOW: Record<ApiOperationKey, string> = {
  validate: 'POST .../validate taking a transfer',
  create: 'PUT with one path parameter taking a transfer',
  get: 'GET on the create template',
};

/** one line each: why a key was not identified, and the two ways to say which */
export function identificationProblems(id: Identification, needed: readonly ApiOperationKey[]): string[] {
  const field = (k: ApiOperationKey): string => (k === 'validate' ? 'target.paths.validate' : 'target.paths.transfer');
  const out: string[] = [];
  for (const k of needed) {
    if (id.byKey[k]) continue;
    const amb = id.ambiguous[k];
    if (amb)
      out.push(
        `${k} is ambiguous, ${amb.candidates.length} operations fit (${amb.by}): ${amb.candidates.map((c) => `${c.method} ${c.path}${c.operationId ? ` (${c.operationId})` : ''}`).join(', ')}; say which with x-openbank-operation: ${k} on one operation, or ${field(k)} in the profile`,
      );
    else if (id.undescribed[k])
      out.push(`${k}: the profile's ${field(k)} is ${id.undescribed[k]}, an operation the document does not describe`);
    else
      out.push(
        `${k} (${HOW[k]}; none fits): say which with x-openbank-operation: ${k} on one operation, or ${field(k)} in the profile`,
      );
  }
  return out;
}

/** what the report says of each operation the harness calls: which it is and how it was identified */
export function identificationNotes(model: OpenApiModel): string[] {
  return KEYS.flatMap((k) => {
    const op = model.byKey[k];
    const by = model.identifiedBy[k];
    return op && by
      ? [
          `${k} is ${op.method} ${op.path}, identified by ${by === 'shape' ? 'its shape, the only operation that fits' : `the ${by}`}`,
        ]
      : [];
  });
}
