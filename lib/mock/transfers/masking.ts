/**
 * How the mock reads masked identifiers (specification §2): lib/mask decides; three faults loosen it (MASK-01: other
 * mask characters, MASK-02: length not kept; MASK-01/02: only the last three characters compared).
 */
import { isMaskOf, looksMasked, MASK_KEEP_HEAD, MASK_KEEP_TAIL } from '../../mask/index.ts';
import type { FaultSet } from '../fault-set.ts';

/** the middle of a masked value, with the characters the mask-any-mask-char fault lets through read as x */
function normalise(value: string, faults: FaultSet): string {
  if (!faults.on('mask-any-mask-char')) return value;
  const chars = Array.from(value);
  if (chars.length <= MASK_KEEP_HEAD + MASK_KEEP_TAIL) return value;
  const mid = chars
    .slice(MASK_KEEP_HEAD, chars.length - MASK_KEEP_TAIL)
    .map((c) => (c === 'X' || c === '*' || c === '#' ? 'x' : c));
  return [...chars.slice(0, MASK_KEEP_HEAD), ...mid, ...chars.slice(chars.length - MASK_KEEP_TAIL)].join('');
}

export function isMasked(value: string, faults: FaultSet): boolean {
  return looksMasked(normalise(value, faults));
}

export function masksTo(value: string, clearId: string, faults: FaultSet): boolean {
  const v = normalise(value, faults);
  if (isMaskOf(v, clearId)) return true;
  if (faults.on('mask-last-three-only')) {
    // the fault: a well-formed mask of the id's length, compared on its last three characters only
    const c = Array.from(clearId);
    const a = Array.from(v);
    if (
      looksMasked(v) &&
      a.length === c.length &&
      a.slice(-MASK_KEEP_TAIL).join('') === c.slice(-MASK_KEEP_TAIL).join('')
    )
      return true;
  }
  if (!faults.on('mask-length-not-kept')) return false;
  const c = Array.from(clearId);
  const a = Array.from(v);
  return (
    a.length > MASK_KEEP_HEAD + MASK_KEEP_TAIL &&
    a.slice(0, MASK_KEEP_HEAD).join('') === c.slice(0, MASK_KEEP_HEAD).join('') &&
    a.slice(-MASK_KEEP_TAIL).join('') === c.slice(-MASK_KEEP_TAIL).join('') &&
    looksMasked(v)
  );
}
