/**
 * MASK-05 on one text: every identifier-shaped value a client sends is either the exact mask of a known identifier
 * (specification §2: the first 4 and the last 3 characters kept, `x` between, the length kept) or reveals nothing of
 * one. Found, for a known identifier `id`:
 *  - `id` itself (clear);
 *  - a value of `id`'s length made of `id`'s characters and mask characters, that keeps a character the mask hides
 *    (a partial reveal: six leading characters instead of four, say);
 *  - a value with `id`'s first 4 and last 3 characters whose middle is masked, of another length (a mask of the
 *    wrong length).
 * A value that hides more than the mask does reveals nothing and is not found here (the bank refuses it; that is
 * the bank's rule, not a leak).
 */
import { mask, MASK_KEEP_HEAD, MASK_KEEP_TAIL, MASK_MIN_LENGTH } from '../../mask/index.ts';

/** characters a client may use to hide one: `x` is the specification's; `X` and `*` are read as hiding too */
const HIDING = new Set(['x', 'X', '*']);
/** identifier-shaped values: runs of characters an identifier or its mask is made of */
const VALUES = /[0-9A-Za-z*]+/g;

export interface MaskFinding {
  /** the clear identifier this value is about (the caller redacts it) */
  id: string;
  kind: 'clear' | 'reveals' | 'wrong-length';
  /** what was sent (never the clear id: that one is reported by kind alone) */
  sent?: string;
  /** how many characters the mask hides that the value shows */
  revealed?: number;
}

const hidden = (i: number, n: number): boolean => i >= MASK_KEEP_HEAD && i < n - MASK_KEEP_TAIL;

/** the characters of `id` the mask hides that `v` shows, or -1 when `v` is not a partial reveal of `id` */
export function revealedBy(v: string, id: string): number {
  if (v.length !== id.length) return -1;
  let shown = 0;
  for (let i = 0; i < v.length; i++) {
    if (HIDING.has(v[i]!) && !HIDING.has(id[i]!)) continue;
    if (v[i] !== id[i]) return -1;
    if (hidden(i, v.length)) shown++;
  }
  return shown;
}

function wrongLength(v: string, id: string): boolean {
  if (v.length === id.length || v.length < MASK_MIN_LENGTH) return false;
  const middle = v.slice(MASK_KEEP_HEAD, v.length - MASK_KEEP_TAIL);
  return (
    v.startsWith(id.slice(0, MASK_KEEP_HEAD)) &&
    v.endsWith(id.slice(id.length - MASK_KEEP_TAIL)) &&
    [...middle].some((c) => HIDING.has(c)) &&
    [...middle].every((c) => HIDING.has(c) || /[0-9]/.test(c))
  );
}

/** what `text` reveals of the identifiers `ids` (each identifier once per kind) */
export function maskFindings(text: string, ids: readonly string[]): MaskFinding[] {
  const out: MaskFinding[] = [];
  const values = [...new Set(text.match(VALUES) ?? [])];
  for (const id of ids) {
    if (id.length < MASK_MIN_LENGTH) continue;
    if (text.includes(id)) {
      out.push({ id, kind: 'clear' });
      continue;
    }
    const expected = mask(id);
    for (const v of values) {
      if (v === expected) continue;
      const shown = revealedBy(v, id);
      if (shown > 0) out.push({ id, kind: 'reveals', sent: v, revealed: shown });
      else if (wrongLength(v, id)) out.push({ id, kind: 'wrong-length', sent: v });
    }
  }
  return out;
}

/** one line of evidence: what was sent beside the expected mask (the clear id never written) */
export function describeFinding(f: MaskFinding): string {
  const expected = mask(f.id);
  if (f.kind === 'clear') return `the clear identifier (its mask is ${expected})`;
  if (f.kind === 'reveals')
    return `"${f.sent}" shows ${f.revealed} character(s) the mask hides (the mask is ${expected})`;
  return `"${f.sent}" is a mask of the wrong length (${f.sent!.length} characters; the mask is ${expected}, ${expected.length})`;
}
