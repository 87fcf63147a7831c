/**
 * The model of a dereferenced document (lib/openapi/types.ts): its operations, their bodies (the `x-sealed`
 * convention of docs/openapi.md) and the operation each names with `x-openbank-operation` (identify.ts finds the ones
 * the harness calls).
 */
import { pointerOf } from './errors.ts';
import { KEYS } from './identify.ts';
import { directed, type Direction } from './read-write.ts';
import type {
  ApiOperationKey,
  DocHeader,
  DocMedia,
  DocOperation,
  DocResponse,
  DocScheme,
  DocSecurity,
  JsonSchema,
} from './types.ts';

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const;
type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** a schema that describes a JOSE envelope (JWE JSON serialisation) rather than a payload */
function looksLikeEnvelope(schema: unknown): boolean {
  const props = isObj(schema) && isObj(schema.properties) ? Object.keys(schema.properties) : [];
  return props.includes('ciphertext') || (props.includes('protected') && props.includes('recipients'));
}

/** a body's schema as its validator reads it (recursive.ts: a schema holding a cycle's $ref carries the components) */
type Root = (s: JsonSchema) => JsonSchema;
const asWritten: Root = (s) => s;

function mediaOf(
  content: unknown,
  at: (string | number)[],
  what: string,
  notes: string[],
  rooted: Root,
  dir: Direction,
): DocMedia[] {
  if (!isObj(content)) return [];
  const root: Root = (s) => directed(rooted(s), dir);
  return Object.entries(content).map(([contentType, m]) => {
    const media = isObj(m) ? m : {};
    const pointer = pointerOf([...at, 'content', contentType]);
    const schema = media.schema === undefined ? undefined : root(media.schema as JsonSchema);
    const x = media['x-sealed'];
    const sealed =
      x === true
        ? { ...(schema !== undefined ? { payloadSchema: schema } : {}) }
        : isObj(x)
          ? { ...(x.payload !== undefined ? { payloadSchema: root(x.payload as JsonSchema) } : {}) }
          : undefined;
    if (!sealed && looksLikeEnvelope(schema))
      notes.push(`the payload of ${what} (${pointer}) could not be checked: the document describes the envelope`);
    return { contentType, ...(schema !== undefined ? { schema } : {}), ...(sealed ? { sealed } : {}), pointer };
  });
}

/** a response's documented headers; `Content-Type` is not one (OpenAPI: such a definition is ignored) */
function headersOf(headers: unknown, at: (string | number)[], root: Root): DocHeader[] {
  if (!isObj(headers)) return [];
  return Object.entries(headers)
    .filter(([name]) => name.toLowerCase() !== 'content-type')
    .map(([name, h]) => {
      const header = isObj(h) ? h : {};
      const schema = header.schema === undefined ? undefined : directed(root(header.schema as JsonSchema), 'response');
      return {
        name,
        required: header.required === true,
        ...(schema !== undefined ? { schema } : {}),
        pointer: pointerOf([...at, 'headers', name]),
      };
    });
}

/** the security that applies to an operation (its own, else the root's): undefined when none, or `[]` */
function securityOf(doc: Obj, op: Obj, at: (string | number)[]): DocSecurity | undefined {
  const own = Array.isArray(op.security);
  const list = (own ? op.security : doc.security) as unknown;
  if (!Array.isArray(list) || list.length === 0) return undefined;
  const schemes = isObj(doc.components) && isObj(doc.components.securitySchemes) ? doc.components.securitySchemes : {};
  const alternatives = list.map((req) =>
    Object.keys(isObj(req) ? req : {}).map((name): DocScheme => {
      const s = isObj(schemes[name]) ? schemes[name] : {};
      return {
        name,
        type: typeof s.type === 'string' ? s.type : 'unknown',
        ...(typeof s.in === 'string' ? { in: s.in } : {}),
        ...(typeof s.name === 'string' ? { param: s.name } : {}),
      };
    }),
  );
  return { alternatives, pointer: pointerOf(own ? [...at, 'security'] : ['security']) };
}

function operationOf(
  doc: Obj,
  basePath: string,
  template: string,
  method: string,
  op: Obj,
  notes: string[],
  root: Root,
): DocOperation {
  const at = ['paths', template, method];
  const what = `${method.toUpperCase()} ${template}`;
  const responses: DocResponse[] = Object.entries(isObj(op.responses) ? op.responses : {}).map(([status, r]) => ({
    status: status.toUpperCase(),
    media: mediaOf(
      isObj(r) ? r.content : undefined,
      [...at, 'responses', status],
      `${what} ${status}`,
      notes,
      root,
      'response',
    ),
    headers: headersOf(isObj(r) ? r.headers : undefined, [...at, 'responses', status], root),
    pointer: pointerOf([...at, 'responses', status]),
  }));
  const body = isObj(op.requestBody) ? op.requestBody : undefined;
  const x = op['x-openbank-operation'];
  const security = securityOf(doc, op, at);
  return {
    ...(typeof x === 'string' && (KEYS as readonly string[]).includes(x) ? { key: x as ApiOperationKey } : {}),
    ...(typeof op.operationId === 'string' ? { operationId: op.operationId } : {}),
    method: method.toUpperCase(),
    path: basePath + template,
    ...(body
      ? {
          request: {
            required: body.required === true,
            media: mediaOf(body.content, [...at, 'requestBody'], what, notes, root, 'request'),
          },
        }
      : {}),
    responses,
    ...(security ? { security } : {}),
    pointer: pointerOf(at),
  };
}

export function operationsOf(doc: Obj, basePath: string, notes: string[], root: Root = asWritten): DocOperation[] {
  const out: DocOperation[] = [];
  for (const [template, item] of Object.entries(isObj(doc.paths) ? doc.paths : {}))
    for (const method of METHODS) {
      const op = isObj(item) ? item[method] : undefined;
      if (isObj(op)) out.push(operationOf(doc, basePath, template, method, op, notes, root));
    }
  return out;
}

/** the base path of the first server URL: `/v1` of `https://api.bank.example/v1/`, '' when none */
export function basePathOf(doc: Obj): string {
  const first = Array.isArray(doc.servers) ? (doc.servers[0] as unknown) : undefined;
  const vars = isObj(first) && isObj(first.variables) ? first.variables : {};
  // server variables take their default (OpenAPI: `default` is required), as a client without a choice would
  const url = (isObj(first) && typeof first.url === 'string' ? first.url : '').replace(
    /\{([^}]+)\}/g,
    (all, name: string) => {
      const v = vars[name];
      return isObj(v) && typeof v.default === 'string' ? v.default : all;
    },
  );
  const path = /^[a-z][a-z0-9+.-]*:\/\/[^/]*(\/.*)?$/i.exec(url)?.[1] ?? (url.startsWith('/') ? url : '');
  return path.replace(/\/+$/, '');
}
