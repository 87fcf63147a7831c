/**
 * The document checked against itself, before any traffic (OAS-08, docs/openapi.md): what partners code against
 * must agree with itself. Each `example` / `examples` of a media type, a parameter, a header or a schema is validated
 * against its schema; a schema's own contradictions are named: a required member that `properties` lacks under
 * `additionalProperties: false` (no document can be valid), an `enum` value its own schema refuses (its pattern, type
 * or length). Each finding names the JSON pointer where the document says it (the first place a shared schema is met).
 */
import type { JsonSchema } from './types.ts';
import type { Validators } from './validators.ts';
import { pointerOf } from './errors.ts';

/** one contradiction of the document with itself */
export interface DocumentFinding {
  /** JSON pointer in the document (through a `$ref`: where the walk first met the schema) */
  readonly pointer: string;
  readonly message: string;
}

type Obj = Record<string, unknown>;
type At = readonly (string | number)[];
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];
/** the keywords whose value is a schema, and those whose value is a map or list of schemas */
const ONE = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames'];
const MAP = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const LIST = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];

export function selfCheck(doc: Obj, v: Validators, root: (s: JsonSchema) => JsonSchema): DocumentFinding[] {
  const out: DocumentFinding[] = [];
  const seen = new WeakSet<object>();
  const say = (at: At, message: string): void => {
    out.push({ pointer: pointerOf(at), message });
  };

  /** `value` against `schema`: each error a finding at `at` */
  const example = (schema: unknown, value: unknown, at: At, what: string): void => {
    if (!isObj(schema) && typeof schema !== 'boolean') return;
    let errors;
    try {
      errors = v.check(root(schema as JsonSchema), value);
    } catch (e) {
      say(at, `${what} could not be checked: its schema does not compile (${(e as Error).message.split('\n')[0]})`);
      return;
    }
    if (errors.length > 0)
      say(
        at,
        `${what} is not valid against its schema: ${errors
          .slice(0, 3)
          .map((e) => e.message.replace('(the body)', '(the value)'))
          .join('; ')}`,
      );
  };

  const schema = (s: unknown, at: At): void => {
    if (!isObj(s) || seen.has(s)) return;
    seen.add(s);
    const props = isObj(s.properties) ? s.properties : {};
    if (s.additionalProperties === false && Array.isArray(s.required) && !isObj(s.patternProperties))
      for (const r of s.required)
        if (typeof r === 'string' && !(r in props))
          say(
            [...at, 'required'],
            `requires ${JSON.stringify(r)}, which properties does not list while additionalProperties is false: no document is valid`,
          );
    if (Array.isArray(s.enum)) {
      const { enum: _enum, example: _e, examples: _es, ...rest } = s;
      s.enum.forEach((value, i) => example(rest, value, [...at, 'enum', i], `the enum value ${JSON.stringify(value)}`));
    }
    if ('example' in s) example(s, s.example, [...at, 'example'], 'the example');
    if (Array.isArray(s.examples)) s.examples.forEach((x, i) => example(s, x, [...at, 'examples', i], `example ${i}`));
    for (const k of ONE) if (isObj(s[k])) schema(s[k], [...at, k]);
    for (const k of MAP) if (isObj(s[k])) for (const [n, x] of Object.entries(s[k] as Obj)) schema(x, [...at, k, n]);
    for (const k of LIST) if (Array.isArray(s[k])) (s[k] as unknown[]).forEach((x, i) => schema(x, [...at, k, i]));
  };

  /** a media type, a parameter or a header: its schema, and its example(s) against it */
  const holder = (m: unknown, at: At): void => {
    if (!isObj(m)) return;
    schema(m.schema, [...at, 'schema']);
    if ('example' in m) example(m.schema, m.example, [...at, 'example'], 'the example');
    if (isObj(m.examples))
      for (const [name, x] of Object.entries(m.examples))
        if (isObj(x) && 'value' in x) example(m.schema, x.value, [...at, 'examples', name, 'value'], `example ${name}`);
    if (isObj(m.content)) for (const [ct, x] of Object.entries(m.content)) holder(x, [...at, 'content', ct]);
  };

  const operation = (op: unknown, at: At): void => {
    if (!isObj(op)) return;
    if (Array.isArray(op.parameters)) op.parameters.forEach((p, i) => holder(p, [...at, 'parameters', i]));
    if (isObj(op.requestBody)) holder(op.requestBody, [...at, 'requestBody']);
    if (isObj(op.responses))
      for (const [status, r] of Object.entries(op.responses)) {
        if (!isObj(r)) continue;
        holder(r, [...at, 'responses', status]);
        if (isObj(r.headers))
          for (const [h, x] of Object.entries(r.headers)) holder(x, [...at, 'responses', status, 'headers', h]);
      }
  };

  const components = isObj(doc.components) ? doc.components : {};
  if (isObj(components.schemas))
    for (const [n, s] of Object.entries(components.schemas)) schema(s, ['components', 'schemas', n]);
  for (const top of ['paths', 'webhooks'])
    for (const [p, item] of Object.entries(isObj(doc[top]) ? (doc[top] as Obj) : {})) {
      if (!isObj(item)) continue;
      if (Array.isArray(item.parameters)) item.parameters.forEach((x, i) => holder(x, [top, p, 'parameters', i]));
      for (const m of METHODS) operation(item[m], [top, p, m]);
    }
  return out;
}
