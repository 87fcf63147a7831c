/**
 * The masking rule (specification §2): why a value is not the rule's mask of an id. Used by the masking suite to judge
 * what a target echoes, and by the workbench's send to read an answer. (The harness's own `mask` is tested in test/mask
 * against the specification's literal vectors.)
 */
import { isObject } from '../../lib/engine/check.ts';
import { MASK_KEEP_HEAD, MASK_KEEP_TAIL } from '../../lib/mask/index.ts';

/** why `masked` is not the rule's mask of `id`, or undefined when it is */
export function ruleViolation(id: string, masked: string): string | undefined {
  const a = Array.from(id);
  const b = Array.from(masked);
  if (b.length !== a.length) return `length ${b.length}, the id has ${a.length}`;
  if (b.slice(0, MASK_KEEP_HEAD).join('') !== a.slice(0, MASK_KEEP_HEAD).join(''))
    return `the first ${MASK_KEEP_HEAD} characters changed`;
  if (b.slice(-MASK_KEEP_TAIL).join('') !== a.slice(-MASK_KEEP_TAIL).join(''))
    return `the last ${MASK_KEEP_TAIL} characters changed`;
  const middle = b.slice(MASK_KEEP_HEAD, b.length - MASK_KEEP_TAIL);
  if (middle.some((c) => c !== 'x')) return `a middle character is not "x"`;
  return undefined;
}

export const countX = (s: string): number => Array.from(s).filter((c) => c === 'x').length;

/** every string member named account_id / emirates_id, at any depth, with its path */
export function identifierMembers(
  v: unknown,
  path: string,
  out: { path: string; value: string }[] = [],
): { path: string; value: string }[] {
  if (Array.isArray(v)) v.forEach((x, i) => identifierMembers(x, `${path}[${i}]`, out));
  else if (isObject(v)) {
    for (const [k, x] of Object.entries(v)) {
      if ((k === 'account_id' || k === 'emirates_id') && typeof x === 'string')
        out.push({ path: `${path}.${k}`, value: x });
      else identifierMembers(x, `${path}.${k}`, out);
    }
  }
  return out;
}
