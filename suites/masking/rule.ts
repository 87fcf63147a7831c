/**
 * The masking rule (specification §2): why a value is not the rule's mask of an id. Used by the masking suite to judge
 * what a target echoes. (The harness's own `mask` is tested in test/mask against the specification's literal vectors.)
 */
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
