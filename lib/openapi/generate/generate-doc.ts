/**
 * Paths into a JSON document and the edits the input generator (generate.ts) makes to it: a member set to a value
 * or removed, on a copy. Pure.
 */

/** a member's path: object member names and array indexes */
export type Path = readonly (string | number)[];

/** one edit of a document: a member set to `value`, or removed */
export type Step = { readonly path: Path; readonly value: unknown } | { readonly path: Path; readonly remove: true };

export type JsonObject = Record<string, unknown>;

/** `amount.currency`, `lines[0].amount`; the document itself is `(the document)` */
export function memberName(path: Path): string {
  let out = '';
  for (const s of path) out += typeof s === 'number' ? `[${s}]` : out === '' ? s : `.${s}`;
  return out === '' ? '(the document)' : out;
}

/** the JSON pointer of a path (RFC 6901), as ajv's instancePath writes it */
export function pointerOf(path: Path): string {
  return path.map((s) => `/${String(s).replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');
}

/** the value at `path`, undefined when absent */
export function valueAt(doc: unknown, path: Path): unknown {
  let v: unknown = doc;
  for (const s of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string | number, unknown>)[s];
  }
  return v;
}

const clone = <T>(v: T): T => structuredClone(v);

/**
 * a copy of `doc` with the steps applied in order (a step under a member that is not a container is skipped); a
 * step on the empty path replaces the whole document (a document of another JSON type)
 */
export function applySteps(doc: unknown, steps: readonly Step[]): unknown {
  let out = clone(doc);
  for (const step of steps) {
    if (step.path.length === 0) {
      if (!('remove' in step)) out = clone(step.value);
      continue;
    }
    const parent = valueAt(out, step.path.slice(0, -1));
    if (parent === null || typeof parent !== 'object') continue;
    const key = step.path.at(-1)!;
    const p = parent as Record<string | number, unknown>;
    if ('remove' in step) {
      if (Array.isArray(p) && typeof key === 'number') p.splice(key, 1);
      else delete p[key];
    } else p[key] = clone(step.value);
  }
  return out;
}

/** true when one path is the other or lies under it */
export function overlaps(a: Path, b: Path): boolean {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return false;
  return true;
}
