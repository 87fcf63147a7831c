/**
 * How the mock reads the spelling of an envelope's base64url members (RFC 7515 §2: base64url with the trailing '='
 * omitted and no line breaks, whitespace or other characters). A second spelling of the same bytes — non-zero
 * padding bits (RFC 4648 §3.5 lets a decoder accept them), '=' padding, '+' '/' for '-' '_', a line break — changes
 * no byte a member stands for:
 *  - `refuse` (the clean mock, HARD-07): a member not written canonically is refused;
 *  - `read` (the lenient mock, and the jose-accept-second-spelling fault): every member is read as the bytes it
 *    decodes to and written again canonically before anything is computed over it, so that the AAD and the JWS
 *    signing input are those of the decoded protected header and payload, as several JOSE libraries compute them.
 */
import { HarnessError } from '../../errors.ts';

type Json = Record<string, unknown>;

export type SpellingRule = 'refuse' | 'read';

const B64URL = /^[A-Za-z0-9_-]*$/;

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * true when `v` is the one base64url spelling of the bytes it stands for: the alphabet, no length that leaves a lone
 * character, and the bits of the last character beyond the last byte zero (RFC 4648 §3.5: 4 of them after 2
 * characters of a group, 2 after 3). Decided from the last character alone, not by decoding and encoding the member
 * again (a member is kilobytes, and the mock reads every member of every sealed request).
 */
export function canonicalB64u(v: string): boolean {
  if (!B64URL.test(v)) return false;
  const rest = v.length % 4;
  if (rest === 0) return true;
  if (rest === 1) return false;
  return (ALPHABET.indexOf(v[v.length - 1]!) & (rest === 2 ? 0b1111 : 0b11)) === 0;
}

/** the canonical spelling of what a lenient decoder reads in `v`; undefined when it reads nothing */
export function respelled(v: string): string | undefined {
  const plain = v
    .replace(/[\t\n\r ]/g, '')
    .replace(/={1,2}$/, '')
    .replace(/\+/g, '-')
    .replace(/\//g, '_');
  if (!B64URL.test(plain) || plain.length % 4 === 1) return undefined;
  return Buffer.from(plain, 'base64url').toString('base64url');
}

/** the base64url members of a JWE (general or flattened) and of its recipients; of a JWS and of its signatures */
const MEMBERS = {
  jwe: {
    top: ['protected', 'encrypted_key', 'iv', 'ciphertext', 'tag', 'aad'],
    list: 'recipients',
    each: ['encrypted_key'],
  },
  jws: { top: ['payload', 'protected', 'signature'], list: 'signatures', each: ['protected', 'signature'] },
} as const;

export class SecondSpelling extends HarnessError {
  readonly code = 'MOCK_SECOND_SPELLING';
}

/**
 * `o` as the rule reads it: `refuse` throws SecondSpelling naming the first member not written canonically (and
 * returns `o` itself otherwise); `read` returns a copy with every decodable member written canonically (a member
 * that decodes to nothing is left as it is, for the opener to refuse). Members that are not strings are left alone.
 */
export function spelled(o: Json, layer: 'jwe' | 'jws', rule: SpellingRule): Json {
  const m = MEMBERS[layer];
  const fix = (holder: Json, names: readonly string[], where: string): Json => {
    let out = holder;
    for (const name of names) {
      const v = holder[name];
      if (typeof v !== 'string' || canonicalB64u(v)) continue;
      if (rule === 'refuse')
        throw new SecondSpelling(
          `the ${layer.toUpperCase()} ${where}${name} is not written in canonical base64url (RFC 7515 §2): a second spelling is refused`,
        );
      const r = respelled(v);
      if (r !== undefined) out = { ...out, [name]: r };
    }
    return out;
  };
  const top = fix(o, m.top, '');
  const list = o[m.list];
  if (!Array.isArray(list)) return top;
  const entries = list.map((x: unknown, i) =>
    typeof x === 'object' && x !== null && !Array.isArray(x) ? fix(x as Json, m.each, `${m.list}[${i}] `) : x,
  );
  return rule === 'refuse' ? o : { ...top, [m.list]: entries };
}
