/**
 * Reading one OpenAPI document (docs/openapi.md): YAML or JSON (`yaml`, a parse error named by its line), every `$ref`
 * checked before anything resolves it (refs.ts: nothing remote is fetched), then validated and dereferenced by
 * @readme/openapi-parser (OpenAPI 3.0 and 3.1), and turned into the model the harness reads (operations.ts). Every
 * failure is an OpenApiError naming the file and the JSON pointer or line. Loaded by load.ts only for a profile that
 * names a document.
 */
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import { dereference, validate, type ParserOptions } from '@readme/openapi-parser';
import { OpenApiError } from './errors.ts';
import { lineOfPointer, pointerInMessage } from './pointer.ts';
import { checkRefs } from './refs.ts';
import { rootingOf } from './recursive.ts';
import { selfCheck } from './self-check.ts';
import { validatorsFor } from './validators.ts';
import { knownValid, rememberValid, validKey } from './valid-cache.ts';
import { basePathOf, operationsOf } from './operations.ts';
import { identificationProblems, identify, type ProfilePaths } from './identify.ts';
import type { ApiOperationKey, OpenApiModel } from './types.ts';

/** a bank's document is a few hundred kB at most; bounds a mistaken path */
const MAX_BYTES = 5 * 1024 * 1024;
const NEEDED: readonly ApiOperationKey[] = ['validate', 'create', 'get'];

export interface LoadOptions {
  /** the harness calls the transfers API (target.api `present`): a missing operation is an error */
  requireOperations?: boolean;
  /** the paths the profile sets itself, base path included: they identify the operations (identify.ts) */
  paths?: ProfilePaths;
  /** the document's text as its publisher gives it, instead of the file's (the embedded mock's faults) */
  text?: string;
}

async function readText(abs: string, label: string): Promise<string> {
  try {
    const buf = await readFile(abs);
    if (buf.length > MAX_BYTES) throw new OpenApiError(label, '', `larger than ${MAX_BYTES} bytes`);
    return buf.toString('utf8');
  } catch (e) {
    if (e instanceof OpenApiError) throw e;
    throw new OpenApiError(label, '', `cannot be read (${(e as NodeJS.ErrnoException).code ?? 'read error'})`);
  }
}

export async function load(abs: string, label: string, opts: LoadOptions): Promise<OpenApiModel> {
  const text = opts.text ?? (await readText(abs, label));
  const counter = new LineCounter();
  const yaml = parseDocument(text, { lineCounter: counter, prettyErrors: false, uniqueKeys: true });
  const bad = yaml.errors[0];
  if (bad) {
    const { line, col } = counter.linePos(bad.pos[0]);
    throw new OpenApiError(label, `line ${line}, column ${col}`, `does not parse as YAML or JSON (${bad.code})`);
  }
  const raw: unknown = yaml.toJS({ maxAliasCount: 100 });
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new OpenApiError(label, 'line 1', 'is not an OpenAPI document (not an object)');
  const version = (raw as Record<string, unknown>).openapi;
  const swagger = (raw as Record<string, unknown>).swagger;
  if (version === undefined && swagger !== undefined)
    throw new OpenApiError(
      label,
      '/swagger',
      `is a Swagger ${JSON.stringify(swagger).replace(/"/g, '')} document (OpenAPI 2.0); the harness reads OpenAPI 3.0.x or 3.1.x: ` +
        'convert it first (the Swagger Editor: Edit > Convert to OpenAPI 3; or swagger2openapi, `npx swagger2openapi doc.yaml -o doc.openapi.yaml`), check the result, and name the converted file',
    );
  if (typeof version !== 'string' || !/^3\.[01]\.\d+$/.test(version))
    throw new OpenApiError(label, '/openapi', `OpenAPI 3.0.x or 3.1.x expected, found ${JSON.stringify(version)}`);
  const external = checkRefs(abs, label, raw, dirname(abs));
  const options: ParserOptions = {
    resolve: { external, file: external },
  };
  const source = (): string | Record<string, unknown> =>
    external ? abs : (structuredClone(raw) as Record<string, unknown>);
  let doc: Record<string, unknown>;
  try {
    doc = (await dereference(source() as never, options)) as unknown as Record<string, unknown>;
  } catch (e) {
    throw new OpenApiError(label, '', `a $ref does not resolve: ${(e as Error).message.split('\n')[0]}`);
  }
  // validate() dereferences the document again before it validates the result: given the dereferenced document
  // (a copy: it strips ids), it reads no file twice; a cyclic one goes from the source (its cycles stay $refs there).
  // A content found valid before is not validated again (valid-cache.ts); a cyclic one with external files is
  // validated every time (its files are not in the key)
  const cyclic = hasCycle(doc);
  const key = !cyclic ? validKey(JSON.stringify(doc), 'dereferenced') : external ? undefined : validKey(text, 'source');
  if (key !== undefined && (await knownValid(key))) return modelOf(doc, label, version, opts);
  const result = await validate((cyclic ? source() : structuredClone(doc)) as never, options);
  if (result.valid && key !== undefined) await rememberValid(key);
  if (!result.valid) {
    const message = result.errors[0]?.message ?? 'invalid';
    const pointer = pointerInMessage(message, doc);
    const line = pointer !== undefined ? lineOfPointer(yaml, counter, pointer) : undefined;
    const where = [pointer, line ? `(${line})` : ''].filter(Boolean).join(' ');
    throw new OpenApiError(label, where, `is not valid OpenAPI ${version}: ${message.split('\n')[0]}`);
  }
  return modelOf(doc, label, version, opts);
}

function modelOf(doc: Record<string, unknown>, label: string, version: string, opts: LoadOptions): OpenApiModel {
  const notes: string[] = [];
  const basePath = basePathOf(doc);
  const rooting = rootingOf(doc);
  const found = operationsOf(doc, basePath, notes, rooting.root);
  const recursive = rooting.recursive();
  if (recursive.length > 0)
    notes.push(
      `recursive schemas (${recursive.join(', ')}): answers are judged through the recursion; generated inputs stop at it`,
    );
  const id = identify(found, basePath, opts.paths);
  const keyOf = new Map(Object.entries(id.byKey).map(([k, o]) => [o, k as ApiOperationKey]));
  // an operation's key is the one it was identified as (an extension on an operation not identified is dropped)
  const operations = found.map((o) => {
    const k = keyOf.get(o);
    if (k) return o.key === k ? o : { ...o, key: k };
    if (!o.key) return o;
    const { key: _dropped, ...rest } = o;
    return rest;
  });
  const keyed = Object.fromEntries(
    Object.entries(id.byKey).map(([k, o]) => [k, operations[found.indexOf(o)]!]),
  ) as OpenApiModel['byKey'];
  const problems = identificationProblems(id, NEEDED);
  if (problems.length > 0 && opts.requireOperations !== false)
    throw new OpenApiError(
      label,
      '/paths',
      `does not identify the operation${problems.length > 1 ? 's' : ''} the harness calls: ${problems.join('; ')}`,
    );
  for (const m of NEEDED.filter((k) => !keyed[k])) notes.push(`the document has no ${m} operation`);
  const documentFindings = selfCheck(doc, validatorsFor(version), rooting.root);
  return {
    source: label,
    openapi: version,
    basePath,
    operations,
    byKey: keyed,
    identifiedBy: id.by,
    documentFindings,
    notes,
  };
}

/** whether the dereferenced document's object graph returns into itself (a recursive schema) */
function hasCycle(root: unknown): boolean {
  const done = new WeakSet<object>();
  const path = new WeakSet<object>();
  const visit = (v: unknown): boolean => {
    if (typeof v !== 'object' || v === null || done.has(v)) return false;
    if (path.has(v)) return true;
    path.add(v);
    for (const x of Array.isArray(v) ? v : Object.values(v)) if (visit(x)) return true;
    path.delete(v);
    done.add(v);
    return false;
  };
  return visit(root);
}
