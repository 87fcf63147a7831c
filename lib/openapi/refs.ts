/**
 * The `$ref`s a document may hold: inside the document (`#/...`) or a file inside the document's folder. A remote
 * URL (any scheme) or a file outside the folder is refused before the parser sees the document, so that it is never
 * fetched or read; the error names the reference and the JSON pointer where it stands.
 */
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { OpenApiError, pointerOf } from './errors.ts';

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
/** bounds a document split in many files (and a reference loop between files) */
const MAX_FILES = 50;

interface RefSite {
  ref: string;
  pointer: string;
}

/** the `$ref`s to other files or URLs (`#/...` ones are the parser's), each with its pointer (one path, no copies) */
function refsIn(value: unknown): RefSite[] {
  const out: RefSite[] = [];
  const path: (string | number)[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v))
      v.forEach((x, i) => {
        path.push(i);
        walk(x);
        path.pop();
      });
    else if (typeof v === 'object' && v !== null)
      for (const [k, x] of Object.entries(v)) {
        if (k === '$ref' && typeof x === 'string') {
          if (!x.startsWith('#')) out.push({ ref: x, pointer: pointerOf([...path, k]) });
          continue;
        }
        path.push(k);
        walk(x);
        path.pop();
      }
  };
  walk(value);
  return out;
}

/**
 * checks every `$ref` of the document and of the files it references (inside `folder`); resolves with true when it
 * references other files (the parser must then read them)
 */
export function checkRefs(file: string, label: string, doc: unknown, folder: string): boolean {
  const seen = new Set<string>([resolve(file)]);
  const queue: { path: string; label: string; value: unknown }[] = [{ path: resolve(file), label, value: doc }];
  while (queue.length > 0) {
    const at = queue.shift()!;
    for (const { ref, pointer } of refsIn(at.value)) {
      if (ref.startsWith('#')) continue;
      if (SCHEME.test(ref))
        throw new OpenApiError(at.label, pointer, `$ref "${ref}" is remote: the harness never fetches a document`);
      const target = resolve(dirname(at.path), ref.split('#')[0]!);
      const rel = relative(folder, target);
      if (rel.startsWith(`..${sep}`) || rel === '..' || resolve(folder, rel) !== target)
        throw new OpenApiError(at.label, pointer, `$ref "${ref}" points outside the document's folder`);
      if (seen.has(target)) continue;
      if (seen.size >= MAX_FILES) throw new OpenApiError(at.label, pointer, `more than ${MAX_FILES} files referenced`);
      seen.add(target);
      let value: unknown;
      try {
        value = parseYaml(readFileSync(target, 'utf8'));
      } catch (e) {
        throw new OpenApiError(
          at.label,
          pointer,
          `$ref "${ref}" cannot be read (${(e as Error).message.split('\n')[0]})`,
        );
      }
      queue.push({ path: target, label: rel, value });
    }
  }
  return seen.size > 1;
}
