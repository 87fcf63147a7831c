/**
 * open() with the response policy: a response is held to what JOSE-11 demands (general JWE RSA-OAEP-256 +
 * A256CBC-HS512 to the client key around a JWS RS256 that verifies with the bank key), no more. What the RFCs
 * allow and the request policy refuses as hardening (duplicates, zip, several recipients or signatures, a crit
 * jose understands, any size) opens; what JOSE-11 forbids is still refused, with the same step and code.
 */
import { deflateRawSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { open } from '../../lib/jose/index.ts';
import type { OpenOptions, OpenResult } from '../../lib/jose/types.ts';
import { DOC, envelope, jweOf, jwsOf, makeWorld, type World } from './helpers.ts';

let w: World;
let response: OpenOptions;
beforeAll(() => {
  w = makeWorld();
  response = { ...w.opts, policy: 'response' };
});

const withJunkFirst = (env: Record<string, unknown>, member: string): string => {
  const text = JSON.stringify(env);
  const at = text.indexOf(`"${member}":`);
  return `${text.slice(0, at)}"${member}":"AAAA",${text.slice(at)}`;
};

async function both(env: unknown): Promise<{ request: OpenResult; response: OpenResult }> {
  return { request: await open(env, w.opts), response: await open(env, response) };
}

describe('response policy: what the RFCs allow opens (the request policy refuses it)', () => {
  const cases: [string, () => unknown, string][] = [
    [
      'a duplicated envelope member, the real one last',
      () => withJunkFirst(envelope(w) as Record<string, unknown>, 'ciphertext'),
      'DUPLICATE_MEMBER',
    ],
    [
      'a duplicated JWS alg, RS256 last',
      () => envelope(w, { rawProtected: '{"alg":"none","alg":"RS256"}' }),
      'DUPLICATE_MEMBER',
    ],
    [
      'zip DEF',
      () => jweOf(w, deflateRawSync(JSON.stringify(jwsOf(w))), { protectedHeader: { zip: 'DEF' } }),
      'JWE_ZIP_NOT_ALLOWED',
    ],
    [
      'two recipients, the client second',
      () => jweOf(w, jwsOf(w), { extraRecipientPublicKeyPems: [w.attacker.pub] }),
      'MULTIPLE_RECIPIENTS',
    ],
    [
      'two signatures, the bank second',
      () =>
        envelope(w, {
          extraSignatures: [
            {
              protectedHeader: { alg: 'RS256' },
              signer: { kind: 'rsa', alg: 'RS256', privateKeyPem: w.attacker.priv },
              first: true,
            },
          ],
        }),
      'MULTIPLE_SIGNATURES',
    ],
    [
      'crit ["b64"] with b64 false (RFC 7797, which jose understands)',
      () => envelope(w, { protectedHeader: { alg: 'RS256', b64: false, crit: ['b64'] } }),
      'JWS_B64_NOT_ALLOWED',
    ],
  ];
  it.each(cases)('%s', async (_name, build, requestCode) => {
    const r = await both(build());
    expect(r.request).toMatchObject({ ok: false, code: requestCode });
    expect(r.response).toMatchObject({ ok: true, payload: DOC });
  });

  it('over 1 MiB', async () => {
    const big = { ...DOC, remarks: 'x'.repeat(1_200_000) };
    const env = jweOf(w, jwsOf(w, { payload: JSON.stringify(big) }));
    const r = await both(env);
    expect(r.request).toMatchObject({ ok: false, step: 'size', code: 'TOO_LARGE' });
    expect(r.response).toMatchObject({ ok: true });
  });
});

describe('response policy: what JOSE-11 forbids is still refused', () => {
  const cases: [string, () => unknown, string][] = [
    [
      'JWS RS512',
      () =>
        envelope(w, {
          protectedHeader: { alg: 'RS512' },
          signer: { kind: 'rsa', alg: 'RS512', privateKeyPem: w.client.priv },
        }),
      'JWS_ALG_NOT_ALLOWED',
    ],
    ['JWE A128CBC-HS256', () => envelope(w, {}, { enc: 'A128CBC-HS256' }), 'JWE_ENC_NOT_ALLOWED'],
    [
      'a duplicated enc, A128GCM last',
      () =>
        envelope(
          w,
          {},
          { enc: 'A128GCM', rawProtected: '{"alg":"RSA-OAEP-256","enc":"A256CBC-HS512","enc":"A128GCM"}' },
        ),
      'JWE_ENC_NOT_ALLOWED',
    ],
    [
      'signed by another key only',
      () => envelope(w, { signer: { kind: 'rsa', alg: 'RS256', privateKeyPem: w.attacker.priv } }),
      'SIGNATURE_INVALID',
    ],
    [
      'encrypted to another key only',
      () => jweOf(w, jwsOf(w), { recipientPublicKeyPem: w.attacker.pub }),
      'DECRYPT_FAILED',
    ],
    [
      'an unknown crit',
      () => envelope(w, { protectedHeader: { alg: 'RS256', crit: ['exp'], exp: 1 } }),
      'CRIT_UNSUPPORTED',
    ],
    [
      'an unknown crit in the JWE',
      () => envelope(w, {}, { protectedHeader: { crit: ['exp'], exp: 1 } }),
      'CRIT_UNSUPPORTED',
    ],
    ['plain JSON', () => DOC, 'NOT_SEALED'],
    ['compact JWE', () => envelope(w, {}, { form: 'compact' }), 'COMPACT_FORM'],
  ];
  it.each(cases)('%s', async (_name, build, code) => {
    expect(await open(build(), response)).toMatchObject({ ok: false, code });
  });
});
