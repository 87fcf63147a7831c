/**
 * Recursive schemas (docs/openapi.md): a component that refers to itself, directly or through others (an error with
 * nested `details`, a tree). The parser dereferences the document into a graph in which such a schema contains
 * itself. A body's schema that holds a cycle is given to its validators as a tree again: each schema the cycle
 * returns to becomes a definition under `components.schemas` (its component's own name when it is one; no keyword
 * of JSON Schema, so ajv reads it only through the `$ref`s), and each return a `$ref` to it, which ajv resolves
 * against the schema's root. The response judge and the input generator's validator follow the recursion that way;
 * the input generator does not follow a `$ref` (it lists it). Schemas without a cycle are used as they are.
 */
import type { JsonSchema } from './types.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** the objects a walk from `root` returns to while inside them: the targets of the graph's back edges */
function cycleTargets(root: object): Set<object> {
  const targets = new Set<object>();
  const onPath = new Set<object>();
  const done = new Set<object>();
  const visit = (v: unknown): void => {
    if (typeof v !== 'object' || v === null) return;
    if (onPath.has(v)) {
      targets.add(v);
      return;
    }
    if (done.has(v)) return;
    onPath.add(v);
    for (const x of Object.values(v)) visit(x);
    onPath.delete(v);
    done.add(v);
  };
  visit(root);
  return targets;
}

/**
 * `schema` as a tree: every cycle target a definition in `components.schemas`, every way back to it a `$ref`;
 * `names` gives a target's component name (others are numbered)
 */
function asTree(schema: Obj, targets: Set<object>, names: Map<object, string>): Obj {
  const defs: Obj = {};
  const named = new Map<object, string>();
  const nameOf = (t: object): string => {
    let n = named.get(t);
    if (n === undefined) {
      const wanted = names.get(t);
      n = wanted !== undefined && !(wanted in defs) ? wanted : `recursive-${named.size + 1}`;
      named.set(t, n);
      defs[n] = {}; // reserved before its copy: a target inside its own copy becomes a $ref to it
      defs[n] = copy(t, t);
    }
    return n;
  };
  const copy = (v: unknown, top?: object): unknown => {
    if (typeof v !== 'object' || v === null) return v;
    if (v !== top && targets.has(v)) return { $ref: `#/components/schemas/${encodeURIComponent(nameOf(v))}` };
    if (Array.isArray(v)) return v.map((x) => copy(x));
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, copy(x)]));
  };
  const tree = copy(schema, schema) as Obj;
  return Object.keys(defs).length === 0 ? tree : { ...tree, components: { schemas: defs } };
}

/**
 * The function that gives a body's schema as its validators read it (identity for a schema without a cycle, one
 * tree per schema object), and the names of the recursive schemas it met so far (for the loader's note).
 */
export function rootingOf(doc: Obj): { root: (s: JsonSchema) => JsonSchema; recursive: () => string[] } {
  const components = isObj(doc.components) && isObj(doc.components.schemas) ? doc.components.schemas : {};
  const names = new Map<object, string>();
  for (const [name, s] of Object.entries(components)) if (isObj(s) && !names.has(s)) names.set(s, name);
  const met = new Set<string>();
  const trees = new WeakMap<object, JsonSchema>();
  const root = (s: JsonSchema): JsonSchema => {
    if (typeof s === 'boolean') return s;
    let tree = trees.get(s);
    if (!tree) {
      const targets = cycleTargets(s);
      for (const t of targets) met.add(names.get(t) ?? 'a schema of another file');
      trees.set(s, (tree = targets.size === 0 ? s : asTree(s, targets, names)));
    }
    return tree;
  };
  return { root, recursive: () => [...met].sort() };
}
