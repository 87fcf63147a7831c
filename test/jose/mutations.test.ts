/**
 * The mutation generator of the tampered-envelope property (lib/negative/mutations.ts): every mutation changes
 * the bytes it says it changes, and only those; the inputs replay from a seed; the coverage list has one input of
 * every class the arbitrary draws; and every mutation is refused by the mock's own opener even under the lenient
 * rules (what the RFCs allow, a second spelling of the same bytes read as those bytes included): demanding its
 * refusal fails no conformant bank.
 */
import { createPrivateKey, createPublicKey } from 'node:crypto';
import fc from 'fast-check';
import { generalDecrypt, type GeneralJWE } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { LENIENT_RULES, openSealed, STRICT_RULES } from '../../lib/mock/jose/open-sealed.ts';
import type { Keys } from '../../lib/negative/envelopes.ts';
import {
  applyMutation,
  classOf,
  mutationClasses,
  sealedBase,
  SHAPES,
  type Mutated,
  type SealedBase,
  type Tampering,
} from '../../lib/negative/mutations.ts';
import { tamperings } from '../../suites/jose/mutations-arb.ts';
import { rsaPair, type Pair } from './helpers.ts';

type Json = Record<string, unknown>;
const DOC = { beneficiary_id: 'BEN-0001', amount: { value: '150.00', currency: 'AED' }, purpose_code: 'FAM' };

let bank: Pair;
let client: Pair;
let keys: Keys;
let bases: SealedBase[];

beforeAll(() => {
  bank = rsaPair();
  client = rsaPair();
  const attacker = rsaPair();
  keys = {
    clientPrivateKey: client.priv,
    clientCertificate: client.pub,
    bankPublicKey: bank.pub,
    attacker: {
      privateKeyPem: attacker.priv,
      publicKeyPem: attacker.pub,
      certificatePem: '',
      certificateDerB64: '',
      jwk: {},
    },
  };
  bases = SHAPES.map((shape) => sealedBase(keys, DOC, shape));
});

const baseOf = (t: Tampering): SealedBase => bases.find((b) => b.shape === t.shape)!;
const applied = (t: Tampering): Mutated => applyMutation(baseOf(t), t.mutation)!;

/** the member's text in an envelope part, as holderOf in mutations.ts finds it */
function member(part: Json, t: Tampering): string {
  const b = baseOf(t);
  const m = t.mutation.member;
  if (m === 'encrypted_key') return (part.recipients as Json[])[b.bankRecipient]!.encrypted_key as string;
  if (m === 'jws-protected') return (part.signatures as Json[])[b.clientSignature]!.protected as string;
  if (m === 'signature') return (part.signatures as Json[])[b.clientSignature]!.signature as string;
  return part[m] as string;
}

const jwsLevel = (t: Tampering): boolean => ['jws-protected', 'signature', 'payload'].includes(t.mutation.member);
const before = (t: Tampering): string => member(jwsLevel(t) ? baseOf(t).jws : baseOf(t).jwe, t);
const after = (t: Tampering, r: Mutated): string => member(jwsLevel(t) ? r.inner : r.envelope, t);
const bytes = (s: string): Buffer => Buffer.from(s, 'base64url');

const open = (env: unknown, rules: typeof LENIENT_RULES): ReturnType<typeof openSealed> =>
  openSealed(
    JSON.stringify(env),
    { decryption: createPrivateKey(bank.priv), verification: createPublicKey(client.pub) },
    rules,
  );

/** what a flip or drop description says was done, and the bytes it says result from the original */
function described(d: string): { kind: string; of: number; expected: (was: Buffer) => Buffer } {
  const flip = /bit 0x([0-9a-f]{2}) of byte (\d+) \(of (\d+)\) flipped/.exec(d);
  if (flip) {
    const i = Number(flip[2]);
    return {
      kind: 'flip',
      of: Number(flip[3]),
      expected: (was) => {
        const out = Buffer.from(was);
        out[i] = out[i]! ^ parseInt(flip[1]!, 16);
        return out;
      },
    };
  }
  const drop = /byte (\d+) \(of (\d+)\) dropped/.exec(d);
  const i = Number(drop?.[1]);
  return {
    kind: drop ? 'drop' : 'neither',
    of: Number(drop?.[2]),
    expected: (was) => Buffer.concat([was.subarray(0, i), was.subarray(i + 1)]),
  };
}

const SEED = 20;

describe('tampered-envelope mutations', () => {
  it('every mutation fits its base and changes the member it names', () => {
    fc.assert(
      fc.property(tamperings(bases), (t) => {
        const r = applyMutation(baseOf(t), t.mutation);
        expect(r).toBeDefined();
        expect(after(t, r!)).not.toBe(before(t));
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  it('a flip changes exactly the bit and byte it describes; a drop removes exactly the byte it describes', () => {
    fc.assert(
      fc.property(
        tamperings(bases).filter((t) => t.mutation.kind === 'flip' || t.mutation.kind === 'drop'),
        (t) => {
          const r = applied(t);
          const said = described(r.description);
          expect([said.kind, said.of]).toEqual([t.mutation.kind, bytes(before(t)).length]);
          expect(bytes(after(t, r)).equals(said.expected(bytes(before(t))))).toBe(true);
        },
      ),
      { seed: SEED, numRuns: 200 },
    );
  });

  it('splices and swaps take the donor or the other member', () => {
    fc.assert(
      fc.property(
        tamperings(bases).filter((t) => !['flip', 'drop'].includes(t.mutation.kind)),
        (t) => {
          const r = applied(t);
          const m = t.mutation;
          const b = baseOf(t);
          const donor = member(jwsLevel(t) ? b.donorJws : b.donorJwe, t);
          const sigs = (r.inner.signatures as Json[]).map((s) => [s.protected, s.signature]);
          const orig = (b.jws.signatures as Json[]).map((s) => [s.protected, s.signature]);
          const check: Record<string, () => void> = {
            splice: () => expect(after(t, r)).toBe(donor),
            swap: () =>
              expect(sigs).toEqual(
                m.member === 'signature'
                  ? [
                      [orig[0]![0], orig[1]![1]],
                      [orig[1]![0], orig[0]![1]],
                    ]
                  : [
                      [orig[1]![0], orig[0]![1]],
                      [orig[0]![0], orig[1]![1]],
                    ],
              ),
          };
          check[m.kind]!();
          expect(r.description).toContain(m.kind === 'swap' ? 'swapped' : 'taken from');
        },
      ),
      { seed: SEED, numRuns: 150 },
    );
  });

  it('a JWS mutation is sealed afresh: the envelope decrypts to the mutated JWS', async () => {
    const jwsOnes = fc.sample(
      tamperings(bases).filter((t) => jwsLevel(t)),
      { seed: SEED, numRuns: 20 },
    );
    for (const t of jwsOnes) {
      const r = applied(t);
      const { plaintext } = await generalDecrypt(r.envelope as unknown as GeneralJWE, createPrivateKey(bank.priv));
      expect(JSON.parse(Buffer.from(plaintext).toString('utf8'))).toEqual(r.inner);
    }
  });

  it('the description names the shape, the member and whether refusal is demanded', () => {
    const t: Tampering = { shape: 'two-recipients', mutation: { kind: 'flip', member: 'tag', at: 33, bit: 4 } };
    expect(applied(t).description).toBe(
      "two recipients (the attacker's first, the bank's second): the JWE tag: bit 0x10 of byte 1 (of 32) flipped; refusal demanded (JOSE-08)",
    );
    const n: Tampering = { shape: 'single', mutation: { kind: 'drop', member: 'iv', at: 3 } };
    expect(applied(n)).toMatchObject({
      demand: 'JOSE-08',
      description: 'one recipient, one signature: the JWE iv: byte 3 (of 16) dropped; refusal demanded (JOSE-08)',
    });
    const s: Tampering = { shape: 'two-signatures', mutation: { kind: 'swap', member: 'signature' } };
    expect(applied(s)).toMatchObject({ demand: 'JOSE-06' });
    expect(applied(s).description).toContain('(then encrypted afresh)');
  });

  it('replays from a seed: the same inputs, also over bases sealed afresh', () => {
    const again = SHAPES.map((shape) => sealedBase(keys, DOC, shape));
    const one = fc.sample(tamperings(bases), { seed: 7, numRuns: 100 });
    expect(fc.sample(tamperings(again), { seed: 7, numRuns: 100 })).toEqual(one);
    expect(fc.sample(tamperings(bases), { seed: 8, numRuns: 100 })).not.toEqual(one);
  });

  it('the coverage list has one input of every class the arbitrary draws, each fitting its base', () => {
    const listed = mutationClasses(bases);
    const classes = listed.map(classOf);
    expect(classes).toHaveLength(new Set(classes).size);
    for (const t of listed) expect(applyMutation(baseOf(t), t.mutation), classOf(t)).toBeDefined();
    const drawn = new Set(fc.sample(tamperings(bases), { seed: SEED, numRuns: 3000 }).map(classOf));
    expect([...drawn].filter((c) => !classes.includes(c))).toEqual([]);
    expect(classes.filter((c) => !drawn.has(c))).toEqual([]);
    // a flip of the JWE protected header lands in its kid: the header stays JSON, only the AAD changes
    const kid = listed.find((t) => t.mutation.kind === 'flip' && t.mutation.member === 'protected')!;
    const header = Buffer.from(applied(kid).envelope.protected as string, 'base64url').toString('utf8');
    expect(JSON.parse(header)).toMatchObject({ alg: 'RSA-OAEP-256', enc: 'A256CBC-HS512' });
    expect(JSON.parse(header).kid).not.toBe('bank-api-key');
  });
});

describe('demanded refusals, judged by the mock bank’s own opener', () => {
  it('every unmutated base opens under the lenient rules; only the one-recipient one-signature base under the strict', async () => {
    const lenient = await Promise.all(bases.map((b) => open(b.jwe, LENIENT_RULES)));
    const strict = await Promise.all(bases.map((b) => open(b.jwe, STRICT_RULES)));
    expect(lenient.map((r) => r.ok)).toEqual([true, true, true]);
    expect(strict.map((r) => r.ok)).toEqual([true, false, false]);
  });

  it('every mutation is refused even by the lenient rules (a second spelling read as its bytes): each changes meaning', async () => {
    const sample = [...mutationClasses(bases), ...fc.sample(tamperings(bases), { seed: SEED, numRuns: 60 })];
    const outcomes = await Promise.all(
      sample.map(async (t) => ({
        d: applied(t).description,
        opened: (await open(applied(t).envelope, LENIENT_RULES)).ok,
      })),
    );
    expect(outcomes.filter((o) => o.opened)).toEqual([]);
  });
});
