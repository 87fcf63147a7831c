/**
 * HARD-07: a second spelling of the same bytes. RFC 7515 §2 writes every member in base64url with the trailing '='
 * omitted and no line breaks, whitespace or other characters; a decoder may still read other spellings as the same
 * bytes (RFC 4648 §3.5 lets it ignore non-zero padding bits, and many skip '=' and whitespace). Such an envelope
 * changes no byte that was sealed or signed: a bank whose JOSE library computes the AAD and the JWS signing input
 * from the decoded protected headers and payload accepts it, and no MUST is broken (JOSE-06/08 demand the refusal
 * of a change of bytes, lib/negative/mutations.ts). Accepting it is malleability (one envelope, several texts):
 * hardening, judged here under HARD-07 (SHOULD) and nowhere else.
 *
 * The forms: the last character with non-zero padding bits (only where 2 or 3 characters are left over), '='
 * padding (idem), '+' and '/' for '-' and '_' (only where the text has one), a line break inside (MIME-style).
 * One case per member (the first of its forms that exists for the base's text), three for the JWE protected header
 * (the AAD as sent, RFC 7516 §5.1 step 14), sent to validate next to the unaltered envelope (the positive control).
 * The spellings and the cases: lib/negative/spellings.ts; the verdict: negatives.ts judge().
 */
import type { CheckSpec } from '../../lib/engine/check.ts';
import { sealedBase } from '../../lib/negative/mutations.ts';
import { spellingCases } from '../../lib/negative/spellings.ts';
import { keysOf } from './keys.ts';
import { judge, partnerSender, positiveControl, sendCases } from './negatives.ts';

export const secondSpellingRefused: CheckSpec = {
  name: 'second-spelling-refused',
  requirements: ['HARD-07'],
  title:
    'hardening: an envelope with a member written in a second spelling of the same bytes (padding bits, = padding, + and /, a line break) is refused',
  async run(ctx) {
    const s = await partnerSender(ctx);
    const base = sealedBase(await keysOf(ctx), s.doc, 'single');
    await positiveControl(ctx, s, base.jwe, 'the same envelope, every member written canonically');
    judge(ctx, await sendCases(ctx, s, spellingCases(base)), 'second-spelling-refused');
  },
};
