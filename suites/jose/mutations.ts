/**
 * Single mutations of a valid sealed request (issue 20, property 3: tampered envelopes), as data: what is
 * changed, where, and whether the rules demand that the result be refused.
 *
 * A base is the profile's envelope (general JWE RSA-OAEP-256/A256CBC-HS512 around a general JWS RS256) in one of
 * three shapes: one recipient and one signature; two recipients (the attacker's first, the bank's second); two
 * signatures (the attacker's first, the client's second). The two-member shapes are legal JOSE (RFC 7516 §7.2,
 * RFC 7515 §7.2) that a conformant bank may refuse (HARD-03): a check uses them only where the target accepts
 * the unmutated shape. A mutation changes exactly one thing:
 *  - flip / drop: one bit of one byte flipped, or one byte dropped, in the decoded value of a member;
 *  - splice: a member taken from another valid envelope (a fresh sealing of the same JWS; for the JWS members a
 *    signature over another document);
 *  - swap: a member swapped between the two signatures;
 *  - noncanonical: base64url written non-canonically (non-zero padding bits, '=' padding, '+' '/').
 * A JWS member is mutated inside the plaintext, which is then encrypted afresh (the JWE around it stays valid).
 *
 * `demanded` says which rule makes the result invalid. Every mutation of the bytes of a member, splice and swap
 * is demanded: the tag covers the JWE protected header (as sent), iv and ciphertext, and the content key comes
 * from the bank's encrypted_key (JOSE-08); the signature covers the JWS protected header and payload (as sent)
 * and is the client's (JOSE-06). A mutation of a member of the attacker's recipient or signature would leave a
 * valid envelope, so the two-member shapes mutate the bank's recipient and the client's signature only.
 * Non-canonical base64url is demanded only where the text itself is integrity-protected (the JWE protected
 * header is the AAD as sent, RFC 7516 §5.1 step 14; the JWS protected header and payload are the signing input
 * as sent, RFC 7515 §5.1); in a value member (encrypted_key, iv, ciphertext, tag, signature) a lenient decoder
 * reads the same bytes (RFC 4648 §3.5 lets a decoder accept non-zero padding bits), so refusal is not demanded.
 */
import { b64u } from '../../lib/jose/craft.ts';
import { envelope, jwsOf, rsa, type Keys } from './envelopes.ts';

type Json = Record<string, unknown>;

export const SHAPES = ['single', 'two-recipients', 'two-signatures'] as const;
export type Shape = (typeof SHAPES)[number];

export const JWE_MEMBERS = ['protected', 'encrypted_key', 'iv', 'ciphertext', 'tag'] as const;
export const JWS_MEMBERS = ['jws-protected', 'signature', 'payload'] as const;
export type Member = (typeof JWE_MEMBERS)[number] | (typeof JWS_MEMBERS)[number];
export type NonCanonical = 'pad-bits' | 'pad' | 'std-alphabet';

export type Mutation =
  | { kind: 'flip'; member: Member; at: number; bit: number }
  | { kind: 'drop'; member: Member; at: number }
  | { kind: 'splice'; member: Exclude<Member, 'protected' | 'jws-protected'> }
  | { kind: 'swap'; member: 'jws-protected' | 'signature' }
  | { kind: 'noncanonical'; member: Member; how: NonCanonical };

/** one generated input: a shape and one mutation of it */
export interface Tampering {
  shape: Shape;
  mutation: Mutation;
}

/** the rule whose MUST the mutated envelope breaks; undefined: the result may be valid (refusal not demanded) */
export type Demand = 'JOSE-06' | 'JOSE-08' | undefined;

/** a valid sealed request of one shape, with what a mutation needs */
export interface SealedBase {
  shape: Shape;
  /** the inner JWS (general JSON) */
  jws: Json;
  /** the envelope: a general JWE around JSON.stringify(jws) */
  jwe: Json;
  /** the splice donors: another sealing of the same JWS, and a JWS of the same shape over another document */
  donorJwe: Json;
  donorJws: Json;
  /** the index of the bank's recipient and of the client's signature */
  bankRecipient: number;
  clientSignature: number;
  /** the JWE of this shape around another plaintext (a fresh content key and iv) */
  reseal(plaintext: string): Json;
}

const ATTACKER_KID = 'attacker';

/** the shape's JWE around a plaintext: a kid in the protected header, so that some of its bytes matter only to the AAD */
function jweOfShape(k: Keys, shape: Shape, plaintext: string): Json {
  const twoRecipients = shape === 'two-recipients';
  return envelope(k, null, {
    plaintext,
    jwe: {
      protectedHeader: { kid: 'bank-api-key' },
      // craftJwe puts the main recipient first: the attacker's, then the bank's
      ...(twoRecipients && {
        recipientPublicKeyPem: k.attacker.publicKeyPem,
        extraRecipientPublicKeyPems: [k.bankPublicKey],
      }),
    },
  }) as Json;
}

/** the shape's JWS over a document: the attacker's signature first (another protected header) in two-signatures */
function jwsOfShape(k: Keys, shape: Shape, doc: unknown): Json {
  return jwsOf(k, doc, {
    ...(shape === 'two-signatures' && {
      extraSignatures: [
        {
          protectedHeader: { alg: 'RS256', kid: ATTACKER_KID },
          signer: rsa(k.attacker.privateKeyPem),
          first: true,
        },
      ],
    }),
  }) as Json;
}

/** the base of a shape for a document (RSA: a signature per signer and document, an encryption per recipient and sealing) */
export function sealedBase(k: Keys, doc: Record<string, unknown>, shape: Shape): SealedBase {
  const jws = jwsOfShape(k, shape, doc);
  const text = JSON.stringify(jws);
  return {
    shape,
    jws,
    jwe: jweOfShape(k, shape, text),
    donorJwe: jweOfShape(k, shape, text),
    donorJws: jwsOfShape(k, shape, { ...doc, remarks: `not ${JSON.stringify(doc.remarks ?? null)}` }),
    bankRecipient: shape === 'two-recipients' ? 1 : 0,
    clientSignature: shape === 'two-signatures' ? 1 : 0,
    reseal: (plaintext) => jweOfShape(k, shape, plaintext),
  };
}

const isJwsMember = (m: Member): boolean => (JWS_MEMBERS as readonly string[]).includes(m);

/** where a member lives in an envelope part (the JWE or the JWS), and its name there */
function holderOf(part: Json, member: Member, base: SealedBase): { holder: Json; name: string } {
  const at = (list: unknown, i: number): Json => (list as Json[])[i]!;
  switch (member) {
    case 'encrypted_key':
      return { holder: at(part.recipients, base.bankRecipient), name: 'encrypted_key' };
    case 'jws-protected':
      return { holder: at(part.signatures, base.clientSignature), name: 'protected' };
    case 'signature':
      return { holder: at(part.signatures, base.clientSignature), name: 'signature' };
    default:
      return { holder: part, name: member };
  }
}

function valueOf(base: SealedBase, member: Member): string {
  const { holder, name } = holderOf(isJwsMember(member) ? base.jws : base.jwe, member, base);
  return holder[name] as string;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** the text written non-canonically, or undefined where that form does not exist for it */
export function nonCanonical(text: string, how: NonCanonical): string | undefined {
  const rest = text.length % 4;
  if (how === 'pad-bits') {
    // 2 characters left over carry 4 unused bits, 3 carry 2: set the lowest
    if (rest < 2) return undefined;
    const last = ALPHABET.indexOf(text.at(-1)!);
    return `${text.slice(0, -1)}${ALPHABET[last | 1]}`;
  }
  if (how === 'pad') return rest < 2 ? undefined : `${text}${'='.repeat(4 - rest)}`;
  return /[-_]/.test(text) ? text.replace(/-/g, '+').replace(/_/g, '/') : undefined;
}

/** the members whose text may be written non-canonically in a base, with the forms that exist for each */
export function nonCanonicalForms(base: SealedBase): { member: Member; how: NonCanonical }[] {
  const hows: NonCanonical[] = ['pad-bits', 'pad', 'std-alphabet'];
  return [...JWE_MEMBERS, ...JWS_MEMBERS].flatMap((member) =>
    // '+' '/' only where the text is the same at every sealing (headers, payload): the inputs stay replayable
    hows
      .filter((how) => how !== 'std-alphabet' || textIntegrity(member))
      .filter((how) => nonCanonical(valueOf(base, member), how) !== undefined)
      .map((how) => ({ member, how })),
  );
}

/** members whose base64url TEXT is integrity-protected (the AAD, the JWS signing input) */
export function textIntegrity(member: Member): boolean {
  return member === 'protected' || member === 'jws-protected' || member === 'payload';
}

export function demanded(m: Mutation): Demand {
  if (m.kind === 'noncanonical' && !textIntegrity(m.member)) return undefined;
  return isJwsMember(m.member) ? 'JOSE-06' : 'JOSE-08';
}

const SHAPE_TEXT: Record<Shape, string> = {
  single: 'one recipient, one signature',
  'two-recipients': "two recipients (the attacker's first, the bank's second)",
  'two-signatures': "two signatures (the attacker's first, the client's second)",
};

function memberText(base: SealedBase, member: Member): string {
  const recipient = base.shape === 'two-recipients' ? "the bank's recipient's" : 'the';
  const signature = base.shape === 'two-signatures' ? "the client's signature's" : 'the';
  switch (member) {
    case 'protected':
      return 'the JWE protected header';
    case 'encrypted_key':
      return `${recipient} JWE encrypted_key`;
    case 'jws-protected':
      return `${signature} JWS protected header`;
    case 'signature':
      return `${base.shape === 'two-signatures' ? "the client's" : 'the'} JWS signature`;
    case 'payload':
      return 'the JWS payload';
    default:
      return `the JWE ${member}`;
  }
}

const HOW_TEXT: Record<NonCanonical, string> = {
  'pad-bits': 'its last character with non-zero padding bits',
  pad: "'=' padding",
  'std-alphabet': "'+' and '/' for '-' and '_'",
};

export interface Mutated {
  envelope: Json;
  /** the JWS inside the envelope (the mutated one for a JWS member): the sealed request decoded, for a report */
  inner: Json;
  description: string;
  demand: Demand;
}

/** a deep copy of a JSON value */
const copy = (v: Json): Json => JSON.parse(JSON.stringify(v)) as Json;

/** the base with the mutation applied, described; undefined if the mutation does not fit the base */
export function applyMutation(base: SealedBase, m: Mutation): Mutated | undefined {
  const jwsLevel = isJwsMember(m.member);
  const part = copy(jwsLevel ? base.jws : base.jwe);
  const { holder, name } = holderOf(part, m.member, base);
  const text = holder[name];
  if (typeof text !== 'string') return undefined;
  const what = memberText(base, m.member);
  let change: string;
  switch (m.kind) {
    case 'flip':
    case 'drop': {
      const bytes = Buffer.from(text, 'base64url');
      if (bytes.length === 0) return undefined;
      const i = m.at % bytes.length;
      if (m.kind === 'flip') {
        const bit = 1 << (m.bit % 8);
        bytes[i] = bytes[i]! ^ bit;
        holder[name] = b64u(bytes);
        change = `${what}: bit 0x${bit.toString(16).padStart(2, '0')} of byte ${i} (of ${bytes.length}) flipped`;
      } else {
        holder[name] = b64u(Buffer.concat([bytes.subarray(0, i), bytes.subarray(i + 1)]));
        change = `${what}: byte ${i} (of ${bytes.length}) dropped`;
      }
      break;
    }
    case 'splice': {
      const donor = holderOf(copy(jwsLevel ? base.donorJws : base.donorJwe), m.member, base);
      holder[name] = donor.holder[donor.name];
      change = jwsLevel
        ? `${what} taken from a valid JWS over another document`
        : `${what} taken from another valid sealing of the same JWS`;
      break;
    }
    case 'swap': {
      const sigs = part.signatures as Json[];
      const n = m.member === 'jws-protected' ? 'protected' : 'signature';
      [sigs[0]![n], sigs[1]![n]] = [sigs[1]![n], sigs[0]![n]];
      change = `the ${m.member === 'jws-protected' ? 'JWS protected headers' : 'JWS signatures'} swapped between the two signatures`;
      break;
    }
    case 'noncanonical': {
      const written = nonCanonical(text, m.how);
      if (written === undefined) return undefined;
      holder[name] = written;
      change = `${what} written with ${HOW_TEXT[m.how]} (non-canonical base64url)`;
      break;
    }
  }
  const demand = demanded(m);
  const envelope = jwsLevel ? base.reseal(JSON.stringify(part)) : part;
  const why = demand
    ? `refusal demanded (${demand})`
    : 'refusal not demanded: a lenient decoder reads the same bytes (RFC 4648 §3.5)';
  return {
    envelope,
    inner: jwsLevel ? part : base.jws,
    description: `${SHAPE_TEXT[base.shape]}: ${change}${jwsLevel ? ' (then encrypted afresh)' : ''}; ${why}`,
    demand,
  };
}
