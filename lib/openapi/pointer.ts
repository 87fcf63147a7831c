/**
 * Where a validation error of the OpenAPI parser is: its message shows a frame of the document as
 * `JSON.stringify(doc, null, 2)` with the line at fault marked `>`; the JSON pointer of each line of that text is
 * found here by laying the document out the same way, and the pointer's line in the YAML file by `yaml`'s nodes.
 */
import type { Document, LineCounter } from 'yaml';
import { isNode } from 'yaml';
import { pointerOf } from './errors.ts';

/** the JSON pointer of each line (1-based) of JSON.stringify(value, null, 2) */
export function linePointers(value: unknown): string[] {
  const lines: string[] = ['', ''];
  // a dereferenced document may return into itself (a recursive schema): a value met again inside itself is a leaf
  const open = new WeakSet<object>();
  const walk = (v: unknown, path: (string | number)[]): void => {
    if (typeof v === 'object' && v !== null) {
      if (open.has(v)) return;
      open.add(v);
    }
    // the line that opens `v` is already counted; its members each start a line, its closing bracket one more
    const entries: [string | number, unknown][] = Array.isArray(v)
      ? v.map((x, i) => [i, x])
      : typeof v === 'object' && v !== null
        ? Object.entries(v).filter(([, x]) => x !== undefined)
        : [];
    if (entries.length === 0) return;
    for (const [k, x] of entries) {
      const p = [...path, k];
      lines.push(pointerOf(p));
      walk(x, p);
    }
    lines.push(pointerOf(path));
    if (typeof v === 'object' && v !== null) open.delete(v);
  };
  lines[1] = '';
  walk(value, []);
  return lines;
}

/** the pointer of the first line marked `>` in a parser's message, when it has one */
export function pointerInMessage(message: string, value: unknown): string | undefined {
  const m = /^>\s*(\d+)\s*\|/m.exec(message);
  if (!m) return undefined;
  return linePointers(value)[Number(m[1])];
}

/** `line L, column C` of a JSON pointer's node in the parsed YAML document (the nearest parent that exists) */
export function lineOfPointer(doc: Document, counter: LineCounter, pointer: string): string | undefined {
  const path = pointer
    .split('/')
    .slice(1)
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
  for (let n = path.length; n >= 0; n--) {
    const node: unknown = doc.getIn(path.slice(0, n), true);
    if (isNode(node) && node.range) {
      const { line, col } = counter.linePos(node.range[0]);
      return `line ${line}, column ${col}`;
    }
  }
  return undefined;
}
