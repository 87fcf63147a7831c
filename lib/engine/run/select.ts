/** Which checks a run selects: --suite, --only <requirement id>, --grep <regex over check id, ids and title>. */
import type { CheckDefinition } from '../check.ts';

export interface Selection {
  suites: string[];
  only: string[];
  grep?: string;
}

export function selects(sel: Selection | undefined, def: CheckDefinition): boolean {
  if (!sel) return true;
  if (sel.suites.length && !sel.suites.includes(def.suite)) return false;
  if (sel.only.length && !def.requirements.some((id) => sel.only.includes(id))) return false;
  if (sel.grep && !new RegExp(sel.grep, 'i').test(`${def.id} ${def.requirements.join(' ')} ${def.title}`)) return false;
  return true;
}
