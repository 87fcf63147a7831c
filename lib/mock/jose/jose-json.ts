/**
 * The mock's own reading of JSON texts in JOSE objects (independent of lib/jose): RFC 7515/7516 §4 let a parser
 * take the lexically last of duplicated members (JSON.parse does), or refuse them; the jose-duplicates-first-wins
 * fault reads the first one instead (a parser differential with jose, which reads the last).
 */
import { parseTree, type Node } from 'jsonc-parser';
import { HarnessError } from '../../errors.ts';

export type JsonReading = 'refuse' | 'last-wins' | 'first-wins';
export type Json = Record<string, unknown>;

export class JsonRefused extends HarnessError {
  readonly code = 'MOCK_JSON_REFUSED';
  constructor(
    message: string,
    readonly kind: 'not-json' | 'duplicate',
  ) {
    super(message);
  }
}

export function isJsonObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** the members of every object in a parsed value (JSON.parse makes each name an own property, __proto__ too) */
function members(v: unknown): number {
  if (Array.isArray(v)) return v.reduce((n: number, x) => n + members(x), 0);
  if (typeof v !== 'object' || v === null) return 0;
  let n = 0;
  for (const k of Object.keys(v)) n += 1 + members((v as Json)[k]);
  return n;
}

/** the name separators of a valid JSON text: a colon outside a string is one, and there is one per member */
function separators(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 58 /* : */) n++;
    else if (c === 34 /* " */) {
      // skip the string: to the next quote not escaped by a backslash (preceded by an even run of backslashes),
      // found with indexOf (a base64url member of kilobytes is skipped in one step)
      for (;;) {
        const q = text.indexOf('"', i + 1);
        if (q < 0) return n;
        let b = q - 1;
        while (text.charCodeAt(b) === 92 /* \ */) b--;
        i = q;
        if ((q - 1 - b) % 2 === 0) break;
      }
    }
  }
  return n;
}

/**
 * true when some object has a member name twice: JSON.parse keeps one property per name, so a valid text with a
 * duplicate has more name separators than the parsed value has members (no tree is built on the clean path)
 */
function hasDuplicate(text: string, value: unknown): boolean {
  return separators(text) !== members(value);
}

/** the value of a tree, keeping the first of duplicated members */
function firstWins(node: Node): unknown {
  if (node.type === 'object') {
    const out: Json = {};
    for (const p of node.children ?? []) {
      const [k, v] = p.children ?? [];
      const name = k?.value as string;
      if (v && !Object.hasOwn(out, name)) out[name] = firstWins(v);
    }
    return out;
  }
  if (node.type === 'array') return (node.children ?? []).map(firstWins);
  return node.value as unknown;
}

/** JSON text → value, as `reading` says; throws JsonRefused (never echoing the input) */
export function readJson(text: string, reading: JsonReading, what: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new JsonRefused(`${what} is not valid JSON`, 'not-json');
  }
  if (reading === 'last-wins') return value;
  if (reading === 'first-wins') {
    const tree = parseTree(text);
    if (!tree) throw new JsonRefused(`${what} is not valid JSON`, 'not-json');
    return firstWins(tree);
  }
  if (hasDuplicate(text, value)) throw new JsonRefused(`${what} has a duplicated member name`, 'duplicate');
  return value;
}
