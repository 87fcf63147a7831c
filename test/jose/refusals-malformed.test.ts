/**
 * The negative catalogue, the malformed members: a JWE or JWS whose members have the wrong type, and a JWS
 * protected header that is not JSON, each refused with its own code (OPEN_FAILURE_CODES, lib/jose/types.ts).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { open } from '../../lib/jose/index.ts';
import { DOC, envelope, jweOf, jwsOf, makeWorld, type World } from './helpers.ts';
import { b64, refused } from './refusal-helpers.ts';

let w: World;
beforeAll(() => {
  w = makeWorld();
});

const object = (v: unknown): Record<string, unknown> => v as Record<string, unknown>;

describe('malformed members', () => {
  it('JWE recipients that is not an array, or an iv missing: JWE_MALFORMED', async () => {
    const sealed = object(envelope(w));
    expect(await open(sealed, w.opts)).toMatchObject({ ok: true, payload: DOC });
    refused(await open({ ...sealed, recipients: {} }, w.opts), 'jwe-structure', 'JWE_MALFORMED');
    const { iv: _iv, ...noIv } = sealed;
    refused(await open(noIv, w.opts), 'jwe-structure', 'JWE_MALFORMED');
  });

  it('JWS signatures that is not an array, or a signature entry that is not an object: JWS_MALFORMED', async () => {
    const jws = object(jwsOf(w));
    refused(await open(jweOf(w, { ...jws, signatures: 'x' }), w.opts), 'jws-structure', 'JWS_MALFORMED');
    refused(await open(jweOf(w, { ...jws, signatures: [42] }), w.opts), 'jws-structure', 'JWS_MALFORMED');
  });

  it('a JWS protected header that is not JSON, or not an object: JWS_HEADER_INVALID', async () => {
    const jws = object(jwsOf(w));
    const [first] = jws.signatures as Record<string, unknown>[];
    for (const protectedHeader of [b64('not json'), b64('[1]')]) {
      const bad = { ...jws, signatures: [{ ...first, protected: protectedHeader }] };
      refused(await open(jweOf(w, bad), w.opts), 'jws-header', 'JWS_HEADER_INVALID');
    }
    // the control: the same JWS, its members as they were, opens (the refusals above are the members', not the keys')
    expect(await open(jweOf(w, jws), w.opts)).toMatchObject({ ok: true, payload: DOC });
  });
});
