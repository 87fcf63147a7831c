/**
 * The negative catalogue, continued: the envelope's structure and forms (compact, flattened, several recipients or
 * signatures, duplicate members, what is inside, size, junk). Where a naive receiver would accept, that is asserted.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { open } from '../../lib/jose/index.ts';
import { sealByHand } from '../../lib/jose/craft.ts';
import { DOC, envelope, jweOf, jwsOf, makeWorld, type World } from './helpers.ts';
import { b64, naiveAccepts, refused } from './refusal-helpers.ts';

let w: World;
beforeAll(() => {
  w = makeWorld();
});

describe('structure and forms', () => {
  it('compact JWE: COMPACT_FORM; compact JWS inside: COMPACT_FORM at the JWS step', async () => {
    refused(await open(envelope(w, {}, { form: 'compact' }), w.opts), 'jwe-structure', 'COMPACT_FORM');
    const r = await open(envelope(w, { form: 'compact' }), w.opts);
    refused(r, 'jws-structure', 'COMPACT_FORM');
    expect(!r.ok && r.jwsForm).toBe('compact');
  });

  it('flattened JWE / JWS: refused, accepted with allowFlattened (form reported)', async () => {
    const flatJwe = envelope(w, {}, { form: 'flattened' });
    const flatJws = envelope(w, { form: 'flattened' });
    const both = envelope(w, { form: 'flattened' }, { form: 'flattened' });
    refused(await open(flatJwe, w.opts), 'jwe-structure', 'FLATTENED_FORM');
    refused(await open(flatJws, w.opts), 'jws-structure', 'FLATTENED_FORM');
    const lax = { ...w.opts, allowFlattened: true };
    expect(await open(flatJwe, lax)).toMatchObject({
      ok: true,
      jweForm: 'flattened',
      jwsForm: 'general',
      payload: DOC,
    });
    expect(await open(flatJws, lax)).toMatchObject({
      ok: true,
      jweForm: 'general',
      jwsForm: 'flattened',
      payload: DOC,
    });
    expect(await open(both, lax)).toMatchObject({ ok: true, jweForm: 'flattened', jwsForm: 'flattened', payload: DOC });
  });

  it('two recipients (both decryptable, or one the attacker): MULTIPLE_RECIPIENTS (naive accepts)', async () => {
    const twoSame = envelope(w, {}, { extraRecipients: 1 });
    const withAttacker = envelope(w, {}, { extraRecipientPublicKeyPems: [w.attacker.pub] });
    expect(await naiveAccepts(w, withAttacker)).toBe(true);
    refused(await open(twoSame, w.opts), 'jwe-structure', 'MULTIPLE_RECIPIENTS');
    refused(await open(withAttacker, w.opts), 'jwe-structure', 'MULTIPLE_RECIPIENTS');
    const none = { ...(envelope(w) as Record<string, unknown>), recipients: [] };
    refused(await open(none, w.opts), 'jwe-structure', 'MULTIPLE_RECIPIENTS');
  });

  it("two signatures, the attacker's first: MULTIPLE_SIGNATURES (naive accepts)", async () => {
    const env = envelope(w, {
      extraSignatures: [
        {
          protectedHeader: { alg: 'RS256' },
          signer: { kind: 'rsa', alg: 'RS256', privateKeyPem: w.attacker.priv },
          first: true,
        },
      ],
    });
    expect(await naiveAccepts(w, env)).toBe(true);
    refused(await open(env, w.opts), 'jws-structure', 'MULTIPLE_SIGNATURES');
  });

  it('duplicate members in the envelope, the JWS text and the payload: DUPLICATE_MEMBER at each step', async () => {
    const text = JSON.stringify(envelope(w));
    const dupEnvelope = `{"ciphertext":"AAAA",${text.slice(1)}`;
    expect(await naiveAccepts(w, dupEnvelope)).toBe(true);
    refused(await open(dupEnvelope, w.opts), 'parse', 'DUPLICATE_MEMBER');

    const jwsText = JSON.stringify(jwsOf(w));
    const dupJws = jweOf(w, `{"payload":"${b64('{"amount":"1"}')}",${jwsText.slice(1)}`);
    refused(await open(dupJws, w.opts), 'jws-structure', 'DUPLICATE_MEMBER');

    const dupPayload = envelope(w, { payload: '{"amount":"1","amount":"1000000"}' });
    refused(await open(dupPayload, w.opts), 'payload', 'DUPLICATE_MEMBER');
  });

  it('payload not JSON: PAYLOAD_NOT_JSON', async () => {
    refused(await open(envelope(w, { payload: 'hello' }), w.opts), 'payload', 'PAYLOAD_NOT_JSON');
  });

  it('encrypted but unsigned: NOT_SIGNED', async () => {
    const r = await open(jweOf(w, DOC), w.opts);
    refused(r, 'jws-structure', 'NOT_SIGNED');
    expect(!r.ok && r.jwsForm).toBe('plain-json');
    refused(await open(jweOf(w, 'plain text'), w.opts), 'jws-structure', 'NOT_SIGNED');
  });

  it('signed but unencrypted: NOT_ENCRYPTED (JSON and compact)', async () => {
    const r = await open(jwsOf(w), w.opts);
    refused(r, 'jwe-structure', 'NOT_ENCRYPTED');
    expect(!r.ok && r.jwsForm).toBe('general');
    refused(await open(jwsOf(w, { form: 'compact' }), w.opts), 'jwe-structure', 'NOT_ENCRYPTED');
  });

  it('plain JSON: NOT_SEALED; not JSON: NOT_JSON', async () => {
    refused(await open(DOC, w.opts), 'jwe-structure', 'NOT_SEALED');
    refused(await open(JSON.stringify(DOC), w.opts), 'jwe-structure', 'NOT_SEALED');
    refused(await open('{"oops"', w.opts), 'parse', 'NOT_JSON');
  });

  it('oversize (8 MB payload): TOO_LARGE before parsing; opens with a higher maxBytes', async () => {
    const big = sealByHand(
      { blob: 'x'.repeat(8 * 1024 * 1024) },
      { signingKeyPem: w.client.priv, encryptionKeyPem: w.bank.pub },
    );
    const text = JSON.stringify(big);
    expect(await naiveAccepts(w, big)).toBe(true);
    refused(await open(text, w.opts), 'size', 'TOO_LARGE');
    refused(await open(big, w.opts), 'size', 'TOO_LARGE');
    refused(await open(Buffer.alloc(8 * 1024 * 1024, 0x20), w.opts), 'size', 'TOO_LARGE');
    const r = await open(text, { ...w.opts, maxBytes: 32 * 1024 * 1024 });
    expect(r.ok).toBe(true);
  });

  it('never throws on junk', async () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const junk: unknown[] = [
      undefined,
      null,
      42,
      '',
      '   ',
      'a.b',
      cyclic,
      new Uint8Array([0xff, 0xfe]),
      [],
      { recipients: 'x' },
      { recipients: [null], iv: 'a', ciphertext: 'b', tag: 'c' },
      { recipients: [{}], iv: 1, ciphertext: 'b', tag: 'c' },
      { recipients: [{ encrypted_key: '!!' }], protected: '!!', iv: 'a', ciphertext: 'b', tag: 'c' },
      { recipients: [{ encrypted_key: 'AA' }], protected: b64('[1]'), iv: 'AA', ciphertext: 'AA', tag: 'AA' },
      {
        recipients: [{ encrypted_key: 'AA' }],
        protected: b64('{"alg":"RSA-OAEP-256","enc":"A256CBC-HS512"}'),
        iv: 'AA',
        ciphertext: 'AA',
        tag: 'AA',
      },
      { payload: 'x', signatures: 'y' },
      10n,
    ];
    for (const j of junk) {
      const r = await open(j, w.opts);
      expect(r.ok).toBe(false);
      expect(r.ok ? '' : r.code).toMatch(/^[A-Z_]+$/);
      expect(r.ok ? '' : r.code).not.toBe('INTERNAL');
    }
    // a bad key is our side's error, still reported, not thrown
    const env = envelope(w);
    refused(await open(env, { decryptionKey: 'not a pem', verificationKey: w.client.pub }), 'decrypt', 'KEY_INVALID');
    refused(await open(env, { decryptionKey: w.bank.priv, verificationKey: 'not a pem' }), 'verify', 'KEY_INVALID');
  });
});
