/**
 * The coverage classes of docs/contract.md's rules on a transfer document that a validator or a core system may get
 * wrong at their edges (docs/properties.md "Classes per rule"), as data: the spellings of a zero amount the format
 * admits, the amounts just past the boundaries, and the free text a valid document may carry (non-ASCII in every
 * script family a core system chokes on, and text at its longest allowed length). Pure; the generator (documents.ts)
 * and the coverage list (coverage.ts) both draw from here.
 */

/**
 * a zero amount in every spelling the format admits (`value` a decimal string with at most two decimals): one, two
 * or three integer digits (leading zeros), no, one or two decimals, with a minus sign; each must be refused (ERR-03)
 */
export const ZERO_SPELLINGS = ['0', '0.0', '0.00', '00', '00.0', '00.00', '000', '-0', '-0.0', '-0.00'] as const;

/** the spelling of a zero amount: its sign, its integer digits when more than one, its decimals */
export function zeroSpelling(v: string): string {
  const m = /^(-?)(\d+)(?:\.(\d*))?$/u.exec(v);
  if (!m) return 'other';
  const decimals = (m[3] ?? '').length;
  const sign = m[1] ? 'minus, ' : '';
  const lead = m[2]!.length > 1 ? `${m[2]!.length} integer digits, ` : '';
  return `${sign}${lead}${decimals} decimal${decimals === 1 ? '' : 's'}`;
}

/** the smallest amount the contract allows (above zero, two decimals): sent in a valid document */
export const SMALLEST_AMOUNT = '0.01';

/**
 * Non-ASCII text in one string: Arabic, accented Latin (precomposed), emoji (outside the Basic Multilingual Plane,
 * a ZWJ sequence and a variation selector) and combining marks (decomposed é and ễ); 68 characters
 */
export const NON_ASCII_TEXT = 'إيجار شهر ديسمبر · Zoë Ångström Müller · 🎁 👨‍👩‍👧 ✈️ · Cafe\u0301 Nguye\u0302\u0303n';

/** the same four kinds in 17 characters, for a member allowing fewer than NON_ASCII_TEXT's */
const NON_ASCII_SHORT = 'إيجار Zoë 🎁 Cafe\u0301';

/** text of Arabic and precomposed accented Latin (one UTF-16 unit a character, two UTF-8 bytes or more) */
const LONG_PART = 'دفعة إيجار الشقة وفاتورة الكهرباء — Société Générale, façade, Zoë Müller, Ørsted, ñandú; ';

/** the code points of a string (what JSON Schema's maxLength and the contract's "characters" count) */
export function codePoints(s: string): number {
  return [...s].length;
}

/** `text` cut to `n` code points, ending on a character that is not a space */
function cut(text: string, n: number): string {
  const out = [...text].slice(0, n);
  if (out.length > 0 && /\s/u.test(out[out.length - 1]!)) out[out.length - 1] = 'é';
  return out.join('');
}

/**
 * the text of a free-text class for a member allowing `maxLength` characters: the non-ASCII text (its short form, or
 * cut to the length, when it is longer), or non-ASCII text of exactly `maxLength` characters, each one UTF-16 unit (so that every count
 * but the UTF-8 bytes agrees: a column sized in bytes is what this class finds)
 */
export function freeTextOf(text: 'non-ASCII' | 'longest', maxLength: number): string {
  if (text === 'non-ASCII')
    return [NON_ASCII_TEXT, NON_ASCII_SHORT].find((t) => codePoints(t) <= maxLength) ?? cut(NON_ASCII_SHORT, maxLength);
  return cut(LONG_PART.repeat(Math.ceil(maxLength / LONG_PART.length) + 1).trimStart(), maxLength);
}
