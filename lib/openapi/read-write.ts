/**
 * readOnly and writeOnly as OpenAPI and JSON Schema define them (docs/openapi.md, "readOnly and writeOnly"): a
 * request body's schema as a client reads it — its readOnly members are the server's ("SHOULD NOT be sent", JSON
 * Schema validation §9.4; OpenAPI 3.0: `required` of a readOnly member takes effect on the response only): dropped,
 * so the input generator neither sends nor breaks them — and a response body's schema as a client reads it — a
 * writeOnly member is not returned, so `required` does not demand it there. Copy on write: a schema without either
 * keyword is the same object (the validators compile each schema object once).
 */
import type { JsonSchema } from './types.ts';

export type Direction = 'request' | 'response';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

const memos: Record<Direction, WeakMap<object, unknown>> = { request: new WeakMap(), response: new WeakMap() };

/** the member a direction leaves out: readOnly in a request, writeOnly in a response */
const leftOut = (dir: Direction, s: unknown): boolean =>
  isObj(s) && (dir === 'request' ? s.readOnly === true : s.writeOnly === true);

function viewOf(v: unknown, dir: Direction, memo: WeakMap<object, unknown>, depth: number): unknown {
  if (typeof v !== 'object' || v === null || depth > 64) return v;
  const seen = memo.get(v);
  if (seen !== undefined) return seen;
  memo.set(v, v); // a cycle back to it (a document not yet rooted) keeps the original
  let out: unknown = v;
  if (Array.isArray(v)) {
    const items = v.map((x) => viewOf(x, dir, memo, depth + 1));
    if (items.some((x, i) => x !== v[i])) out = items;
  } else {
    const o = v as Obj;
    const entries = Object.entries(o).map(([k, x]) => [k, viewOf(x, dir, memo, depth + 1)] as const);
    let changed = entries.some(([k, x]) => x !== o[k]);
    const next: Obj = Object.fromEntries(entries);
    if (isObj(o.properties)) {
      const gone = Object.entries(o.properties)
        .filter(([, s]) => leftOut(dir, s))
        .map(([k]) => k);
      if (gone.length > 0) {
        changed = true;
        if (dir === 'request')
          next.properties = Object.fromEntries(
            Object.entries(next.properties as Obj).filter(([k]) => !gone.includes(k)),
          );
        if (Array.isArray(o.required))
          next.required = (o.required as unknown[]).filter((r) => !gone.includes(r as string));
      }
    }
    if (changed) out = next;
  }
  memo.set(v, out);
  return out;
}

/** `schema` as a body of that direction reads it (the same object when it has no readOnly / writeOnly member) */
export function directed(schema: JsonSchema, dir: Direction): JsonSchema {
  return viewOf(schema, dir, memos[dir], 0) as JsonSchema;
}
