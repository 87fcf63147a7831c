/**
 * The mock's own reading of JSON texts in JOSE objects (independent of lib/jose): RFC 7515/7516 §4 let a parser
 * take the lexically last of duplicated members (JSON.parse does), or refuse them; the jose-duplicates-first-wins
 * fault reads the first one instead (a parser differential with jose, which reads the last).
 */
import { parseTree, type Node } from 'jsonc-parser';

export type JsonReading = 'refuse' | 'last-wins' | 'first-wins';
export type Json = Record<string, unknown>;

export class JsonRefused extends Error {
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

/** true when some object in the tree has a member name twice */
function hasDuplicate(node: Node | undefined): boolean {
  if (!node) return false;
  if (node.type === 'object') {
    const names = (node.children ?? []).map((p) => p.children?.[0]?.value as string);
    if (new Set(names).size !== names.length) return true;
  }
  return (node.children ?? []).some(hasDuplicate);
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
  const tree = parseTree(text);
  if (!tree) throw new JsonRefused(`${what} is not valid JSON`, 'not-json');
  if (reading === 'first-wins') return firstWins(tree);
  if (hasDuplicate(tree)) throw new JsonRefused(`${what} has a duplicated member name`, 'duplicate');
  return value;
}
