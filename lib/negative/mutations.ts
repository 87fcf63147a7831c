/**
 * Single mutations of a valid sealed request (tampered envelopes, a property of JOSE-06/08/14), as data: what is
 * changed, where, and which rule demands that the result be refused.
 *
 * A base is the profile's envelope (general JWE RSA-OAEP-256/A256CBC-HS512 around a general JWS RS256) in one of
 * three shapes: one recipient and one signature; two recipients (the attacker's first, the bank's second); two
 * signatures (the attacker's first, the client's second). The two-member shapes are legal JOSE (RFC 7516 §7.2,
 * RFC 7515 §7.2) that a conformant bank may refuse (HARD-03): a check uses them only where the target accepts
 * the unmutated shape. A mutation changes exactly one thing:
 *  - flip / drop: one bit of one byte flipped, or one byte dropped, in the decoded value of a member;
 *  - splice: a member taken from another valid envelope (a fresh sealing of the same JWS; for the JWS members a
 *    signature over another document);
 *  - swap: a member swapped between the two signatures.
 * A JWS member is mutated inside the plaintext, which is then encrypted afresh (the JWE around it stays valid).
 *
 * Every one changes the bytes a member stands for, so refusal is demanded for every one (`demanded` names the
 * rule): the tag covers the JWE protected header, iv and ciphertext, and the content key comes from the bank's
 * encrypted_key (JOSE-08); the signature covers the JWS protected header and payload and is the client's
 * (JOSE-06). A mutation of a member of the attacker's recipient or signature would leave a valid envelope, so the
 * two-member shapes mutate the bank's recipient and the client's signature only. A second spelling of the same
 * bytes (non-canonical base64url) changes no byte: it is no mutation here, but HARD-07's hardening (spellings.ts,
 * a check of its own), never JOSE-06/08.
 */
import { b64u } from '../jose/craft.ts';
import { envelope, jwsOf, rsa, type Keys } from './envelopes.ts';

type Json = Record<string, unknown>;

export const SHAPES = ['single', 'two-recipients', 'two-signatures'] as const;
export type Shape = (typeof SHAPES)[number];

export const JWE_MEMBERS = ['protected', 'encrypted_key', 'iv', 'ciphertext', 'tag'] as const;
export const JWS_MEMBERS = ['jws-protected', 'signature', 'payload'] as const;
export type Member = (typeof JWE_MEMBERS)[number] | (typeof JWS_MEMBERS)[number];
/** the members a splice takes from a donor (a protected header from another envelope is a flip's business), a swap swaps */
export const SPLICE_MEMBERS = ['encrypted_key', 'iv', 'ciphertext', 'tag', 'signature', 'payload'] as const;
export const SWAP_MEMBERS = ['jws-protected', 'signature'] as const;

export type Mutation =
  | { kind: 'flip'; member: Member; at: number; bit: number }
  | { kind: 'drop'; member: Member; at: number }
  | { kind: 'splice'; member: (typeof SPLICE_MEMBERS)[number] }
  | { kind: 'swap'; member: (typeof SWAP_MEMBERS)[number] };

/** one generated input: a shape and one mutation of it */
export interface Tampering {
  shape: Shape;
  mutation: Mutation;
}

/** the rule whose MUST the mutated envelope breaks */
export type Demand = 'JOSE-06' | 'JOSE-08';

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

export const isJwsMember = (m: Member): boolean => (JWS_MEMBERS as readonly string[]).includes(m);

/** where a member lives in an envelope part (the JWE or the JWS), and its name there */
export function holderOf(part: Json, member: Member, base: SealedBase): { holder: Json; name: string } {
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

export function valueOf(base: SealedBase, member: Member): string {
  const { holder, name } = holderOf(isJwsMember(member) ? base.jws : base.jwe, member, base);
  return holder[name] as string;
}

export function demanded(m: Mutation): Demand {
  return isJwsMember(m.member) ? 'JOSE-06' : 'JOSE-08';
}

const SHAPE_TEXT: Record<Shape, string> = {
  single: 'one recipient, one signature',
  'two-recipients': "two recipients (the attacker's first, the bank's second)",
  'two-signatures': "two signatures (the attacker's first, the client's second)",
};

export function memberText(base: SealedBase, member: Member): string {
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

export interface Mutated {
  envelope: Json;
  /** the JWS inside the envelope (the mutated one for a JWS member): the sealed request decoded, for a report */
  inner: Json;
  description: string;
  demand: Demand;
}

/** a deep copy of a JSON value */
const copy = (v: Json): Json => JSON.parse(JSON.stringify(v)) as Json;

/** the base with one member's text rewritten by `write` (undefined: it does not fit), and the change in words */
export function rewritten(
  base: SealedBase,
  member: Member,
  write: (text: string, what: string, part: Json) => { text: string; change: string } | undefined,
): { envelope: Json; inner: Json; change: string } | undefined {
  const jwsLevel = isJwsMember(member);
  const part = copy(jwsLevel ? base.jws : base.jwe);
  const { holder, name } = holderOf(part, member, base);
  const text = holder[name];
  if (typeof text !== 'string') return undefined;
  const w = write(text, memberText(base, member), part);
  if (!w) return undefined;
  holder[name] = w.text;
  return {
    envelope: jwsLevel ? base.reseal(JSON.stringify(part)) : part,
    inner: jwsLevel ? part : base.jws,
    change: `${SHAPE_TEXT[base.shape]}: ${w.change}${jwsLevel ? ' (then encrypted afresh)' : ''}`,
  };
}

/** one mutation of a member's text (see the header), and the change in words */
function mutate(
  base: SealedBase,
  m: Mutation,
  text: string,
  what: string,
  part: Json,
): { text: string; change: string } | undefined {
  switch (m.kind) {
    case 'flip':
    case 'drop': {
      const bytes = Buffer.from(text, 'base64url');
      if (bytes.length === 0) return undefined;
      const i = m.at % bytes.length;
      if (m.kind === 'drop')
        return {
          text: b64u(Buffer.concat([bytes.subarray(0, i), bytes.subarray(i + 1)])),
          change: `${what}: byte ${i} (of ${bytes.length}) dropped`,
        };
      const bit = 1 << (m.bit % 8);
      bytes[i] = bytes[i]! ^ bit;
      return {
        text: b64u(bytes),
        change: `${what}: bit 0x${bit.toString(16).padStart(2, '0')} of byte ${i} (of ${bytes.length}) flipped`,
      };
    }
    case 'splice': {
      const jwsLevel = isJwsMember(m.member);
      const donor = holderOf(copy(jwsLevel ? base.donorJws : base.donorJwe), m.member, base);
      return {
        text: donor.holder[donor.name] as string,
        change: jwsLevel
          ? `${what} taken from a valid JWS over another document`
          : `${what} taken from another valid sealing of the same JWS`,
      };
    }
    case 'swap': {
      // this signature's member into the other's, the other's into this one's
      const n = m.member === 'jws-protected' ? 'protected' : 'signature';
      const other = (part.signatures as Json[]).find((_, i) => i !== base.clientSignature)!;
      const theirs = other[n] as string;
      other[n] = text;
      return {
        text: theirs,
        change: `the ${m.member === 'jws-protected' ? 'JWS protected headers' : 'JWS signatures'} swapped between the two signatures`,
      };
    }
  }
}

/** the base with the mutation applied, described; undefined if the mutation does not fit the base */
export function applyMutation(base: SealedBase, m: Mutation): Mutated | undefined {
  const r = rewritten(base, m.member, (text, what, part) => mutate(base, m, text, what, part));
  if (!r) return undefined;
  const demand = demanded(m);
  return { envelope: r.envelope, inner: r.inner, description: `${r.change}; refusal demanded (${demand})`, demand };
}

/** a mutation's class: its shape, kind and member (what the coverage phase sends once each) */
export const classOf = (t: Tampering): string => `${t.shape} ${t.mutation.kind} ${t.mutation.member}`;

/**
 * one input per mutation class the arbitrary (mutations-arb.ts) draws from these bases: every member flipped and
 * dropped, every splice and swap member; a flip of the JWE protected header in its kid (only the AAD changes), any
 * other flip and drop in the member's middle byte
 */
export function mutationClasses(bases: readonly SealedBase[]): Tampering[] {
  return bases.flatMap((base) => {
    const middle = (member: Member): number => Buffer.from(valueOf(base, member), 'base64url').length >> 1;
    const inKid = (): number => Buffer.from(valueOf(base, 'protected'), 'base64url').indexOf('"kid"') + 8;
    const mutations: Mutation[] = [
      ...[...JWE_MEMBERS, ...JWS_MEMBERS].flatMap((member): Mutation[] => [
        { kind: 'flip', member, at: member === 'protected' ? inKid() : middle(member), bit: 0 },
        { kind: 'drop', member, at: middle(member) },
      ]),
      ...SPLICE_MEMBERS.map((member): Mutation => ({ kind: 'splice', member })),
      ...(base.shape === 'two-signatures' ? SWAP_MEMBERS.map((member): Mutation => ({ kind: 'swap', member })) : []),
    ];
    return mutations.map((mutation) => ({ shape: base.shape, mutation }));
  });
}
