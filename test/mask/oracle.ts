/**
 * An oracle of the masking rule, written from the specification's text alone (§2 "Masked identifiers": "The first 4
 * and last 3 characters stay as they are. Every character in between is replaced with `x`. The length is
 * preserved."), apart from the harness's `mask` (lib/mask) and its judge (suites/masking/rule.ts): what tests of the
 * masking generators judge their inputs with.
 */

/** the id's mask by the rule's words: its first 4 and last 3 characters, an `x` for every character between */
export function maskByRule(id: string): string {
  const chars = [...id];
  return [...chars.slice(0, 4), ...chars.slice(4, -3).map(() => 'x'), ...chars.slice(-3)].join('');
}

/** whether `value` is the rule's mask of `id` (nothing else follows the rule: the mask is one string) */
export function followsRule(id: string, value: string): boolean {
  return value === maskByRule(id);
}
