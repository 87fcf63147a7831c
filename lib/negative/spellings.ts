/**
 * HARD-07: a second spelling of the same bytes. RFC 7515 §2 writes every member in base64url with the trailing '='
 * omitted and no line breaks, whitespace or other characters; a decoder may still read other spellings as the same
 * bytes (RFC 4648 §3.5 lets it ignore non-zero padding bits, and many skip '=' and whitespace). Such an envelope
 * changes no byte that was sealed or signed: a bank whose JOSE library computes the AAD and the JWS signing input
 * from the decoded protected headers and payload accepts it, and no MUST is broken (JOSE-06/08 demand the refusal
 * of a change of bytes, mutations.ts). Accepting it is malleability (one envelope, several texts):
 * hardening, judged under HARD-07 (SHOULD) by suites/jose/spellings.ts and nowhere else.
 *
 * The forms: the last character with non-zero padding bits (only where 2 or 3 characters are left over), '='
 * padding (idem), '+' and '/' for '-' and '_' (only where the text has one), a line break inside (MIME-style).
 * One case per member (the first of its forms that exists for the base's text), three for the JWE protected header
 * (the AAD as sent, RFC 7516 §5.1 step 14), sent to validate next to the unaltered envelope (the positive control).
 */
import type { NegativeCase } from './cases.ts';
import { rewritten, type Member, type SealedBase } from './mutations.ts';

export const SPELLINGS = ['pad-bits', 'pad', 'std-alphabet', 'line-break'] as const;
export type Spelling = (typeof SPELLINGS)[number];

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** the text written in another spelling of the same bytes, or undefined where that form does not exist for it */
export function respell(text: string, how: Spelling): string | undefined {
  const rest = text.length % 4;
  switch (how) {
    case 'pad-bits': {
      // 2 characters left over carry 4 unused bits, 3 carry 2: set the lowest
      if (rest < 2) return undefined;
      const last = ALPHABET.indexOf(text.at(-1)!);
      return `${text.slice(0, -1)}${ALPHABET[last | 1]}`;
    }
    case 'pad':
      return rest < 2 ? undefined : `${text}${'='.repeat(4 - rest)}`;
    case 'std-alphabet':
      return /[-_]/.test(text) ? text.replace(/-/g, '+').replace(/_/g, '/') : undefined;
    case 'line-break': {
      if (text.length < 2) return undefined;
      const at = Math.min(64, text.length >> 1);
      return `${text.slice(0, at)}\n${text.slice(at)}`;
    }
  }
}

const HOW_TEXT: Record<Spelling, string> = {
  'pad-bits': 'its last character with non-zero padding bits',
  pad: "'=' padding",
  'std-alphabet': "'+' and '/' for '-' and '_'",
  'line-break': 'a line break inside',
};

/** the base with one member written in another spelling of the same bytes, described; undefined where it does not exist */
export function respelled(
  base: SealedBase,
  member: Member,
  how: Spelling,
): { envelope: Record<string, unknown>; description: string } | undefined {
  const r = rewritten(base, member, (text, what) => {
    const written = respell(text, how);
    return written === undefined
      ? undefined
      : { text: written, change: `${what} written with ${HOW_TEXT[how]} (the same bytes, non-canonical base64url)` };
  });
  return r && { envelope: r.envelope, description: r.change };
}

/** each case: a member and the forms tried for it, the first that exists for the base's text is sent */
export const SPELLING_CASES: readonly { id: string; member: Member; hows: readonly Spelling[] }[] = [
  { id: 'N1', member: 'protected', hows: ['pad-bits'] },
  { id: 'N2', member: 'protected', hows: ['pad'] },
  { id: 'N3', member: 'protected', hows: ['line-break'] },
  { id: 'N4', member: 'jws-protected', hows: ['pad-bits', 'pad', 'line-break'] },
  { id: 'N5', member: 'payload', hows: ['pad-bits', 'pad', 'line-break'] },
  { id: 'N6', member: 'encrypted_key', hows: ['pad-bits', 'pad', 'line-break'] },
  { id: 'N7', member: 'iv', hows: ['pad', 'pad-bits', 'line-break'] },
  { id: 'N8', member: 'ciphertext', hows: ['std-alphabet', 'line-break'] },
  { id: 'N9', member: 'tag', hows: ['pad-bits', 'pad', 'line-break'] },
  { id: 'N10', member: 'signature', hows: ['line-break'] },
];

/** the cases over a base (one recipient, one signature) */
export function spellingCases(base: SealedBase): NegativeCase[] {
  return SPELLING_CASES.map(({ id, member, hows }) => {
    const r = hows.map((how) => respelled(base, member, how)).find((x) => x !== undefined);
    return r
      ? { id, title: r.description, body: () => r.envelope }
      : {
          id,
          title: `${member} in another spelling`,
          body: () => undefined,
          skipped: () => `no such spelling exists for the ${member} of this envelope`,
        };
  });
}
