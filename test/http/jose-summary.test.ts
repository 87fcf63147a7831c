/**
 * summariseJose (lib/http/record/jose-summary.ts) parses a body once: it answers as the three parses it replaced did
 * (classify, JSON.parse, inspect, each of the text), on envelopes of every form, near-envelopes and other bodies.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { summariseJose, type JoseSummary } from '../../lib/http/record/jose-summary.ts';
import { classify, inspect, seal } from '../../lib/jose/index.ts';
import { DOC, makeWorld } from '../jose/helpers.ts';

/** the summary as it was made before: the text classified, parsed and inspected, each time from the text */
function reference(text: string): JoseSummary | undefined {
  const { kind, form } = classify(text);
  if (kind !== 'jwe' && kind !== 'jws') return undefined;
  if (form !== 'compact') {
    let o: unknown;
    try {
      o = JSON.parse(text);
    } catch {
      return undefined;
    }
    const rec = o as Record<string, unknown>;
    if (kind === 'jwe' && typeof rec.ciphertext !== 'string') return undefined;
    if (kind === 'jws' && !('payload' in rec)) return undefined;
  }
  const { headers } = inspect(text);
  if (form === 'compact' && headers.length === 0) return undefined;
  return { kind: kind === 'jwe' ? 'JWE' : 'JWS', form, headers };
}

const b64 = (v: unknown): string => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');
const header = fc.constantFrom<unknown>(
  { alg: 'RSA-OAEP-256', enc: 'A256CBC-HS512' },
  { alg: 'RS256', kid: 'k', jwk: { kty: 'RSA', n: 'x', e: 'AQAB', d: 'secret' } },
  'not json',
  '{"alg":"RS256","alg":"none"}',
  [1, 2],
);
const member = fc.oneof(header.map(b64), fc.constantFrom('', 'AAAA', 'x.y', '!!'), fc.integer(), fc.constant(null));
const names = fc.constantFrom('protected', 'iv', 'tag', 'ciphertext', 'encrypted_key', 'payload', 'signature', 'x');
const envelopeLike = fc.oneof(
  fc.dictionary(names, member, { maxKeys: 5 }),
  fc.record({ recipients: fc.array(fc.record({ encrypted_key: member, header: header }), { maxLength: 2 }) }),
  fc.record({ payload: member, signatures: fc.array(fc.record({ protected: member, signature: member })) }),
);
const body = fc.oneof(
  envelopeLike.map((o) => JSON.stringify(o)),
  envelopeLike.map((o) => ` \n${JSON.stringify(o, null, 2)}\n`),
  fc.tuple(header, fc.constantFrom(3, 5), fc.boolean()).map(([h, parts, quoted]) => {
    const c = [b64(h), ...Array.from({ length: parts - 1 }, () => 'QUJD')].join('.');
    return quoted ? JSON.stringify(c) : ` ${c} `;
  }),
  fc.constantFrom('v1.2.3', 'a.b.c.d.e', '[]', '"text"', '42', 'null', '{', '', '  '),
  envelopeLike.map((o) => JSON.stringify(JSON.stringify(o))),
);

describe('summariseJose', () => {
  it('summarises as the classify + parse + inspect of the text did', () => {
    fc.assert(
      fc.property(body, (text) => {
        let expected: JoseSummary | undefined;
        try {
          expected = reference(text);
        } catch {
          // the old code threw on a JSON string holding a JWS object ('payload' in a string): now not an envelope
          expected = undefined;
        }
        expect(summariseJose(text)).toEqual(expected);
        // with the value the client parsed the answer's text into (its reader's): the same summary
        let parsed: unknown;
        try {
          parsed = text ? JSON.parse(text) : undefined;
        } catch {
          parsed = undefined;
        }
        expect(summariseJose(text, parsed)).toEqual(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it('summarises a sealed body: its JWE headers, general form', async () => {
    const w = makeWorld();
    const sealed = JSON.stringify(await seal(DOC, { signingKey: w.client.priv, encryptionKey: w.bank.pub }));
    expect(summariseJose(sealed)).toEqual({
      kind: 'JWE',
      form: 'general',
      headers: [{ alg: 'RSA-OAEP-256', enc: 'A256CBC-HS512' }],
    });
    expect(summariseJose(sealed)).toEqual(reference(sealed));
  });
});
