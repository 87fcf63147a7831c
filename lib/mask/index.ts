/**
 * Masked identifiers (specification §2): the first 4 and the last 3 characters stay, every character in between
 * becomes `x`, the length is kept.
 *
 * Decision for short ids (the specification is silent): an id of fewer than 8 characters would keep every character
 * (4 + 3 >= length), i.e. it cannot be masked without revealing it whole. `mask` refuses it with a
 * RangeError rather than silently returning the clear id. Characters are counted as Unicode code points,
 * so an astral character is never split in half.
 */
export const MASK_KEEP_HEAD = 4;
export const MASK_KEEP_TAIL = 3;
export const MASK_MIN_LENGTH = MASK_KEEP_HEAD + MASK_KEEP_TAIL + 1;

export function mask(id: string): string {
  const chars = Array.from(id);
  if (chars.length < MASK_MIN_LENGTH) {
    throw new RangeError(`cannot mask an id of ${chars.length} characters: at least ${MASK_MIN_LENGTH} are needed`);
  }
  const middle = chars.length - MASK_KEEP_HEAD - MASK_KEEP_TAIL;
  return (
    chars.slice(0, MASK_KEEP_HEAD).join('') + 'x'.repeat(middle) + chars.slice(chars.length - MASK_KEEP_TAIL).join('')
  );
}

/** True when `value` is the masked form of some id of its length (head and tail arbitrary, middle all `x`). */
export function looksMasked(value: string): boolean {
  const chars = Array.from(value);
  if (chars.length < MASK_MIN_LENGTH) return false;
  return chars.slice(MASK_KEEP_HEAD, chars.length - MASK_KEEP_TAIL).every((c) => c === 'x');
}

/** True when `value` is exactly the masked form of `clearId`. */
export function isMaskOf(value: string, clearId: string): boolean {
  try {
    return mask(clearId) === value;
  } catch {
    return false;
  }
}
