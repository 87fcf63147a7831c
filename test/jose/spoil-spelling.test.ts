/**
 * No partner spoil (lib/partner/spoil.ts) is a second spelling of a genuine answer: every base64url member of every
 * spoiled answer, and of the JWS inside it where it opens, is written canonically (RFC 7515 §2). A spoil therefore
 * differs from a genuine answer in its bytes, headers or keys (a change of meaning, judged under CLI-02 or its own
 * id), never in its spelling only, which would be HARD-07's business and no client-side MUST.
 */
import { createPrivateKey } from 'node:crypto';
import { generalDecrypt, type GeneralJWE } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { canonicalB64u } from '../../lib/mock/jose/spelling.ts';
import { spoiledAnswer, type SpoilContext } from '../../lib/partner/spoil.ts';
import { SPOILS } from '../../lib/partner/types.ts';
import { testPki } from '../../lib/pki/index.ts';
import type { TestPki } from '../../lib/pki/types.ts';

type Json = Record<string, unknown>;

let pki: TestPki;
let c: SpoilContext;
beforeAll(async () => {
  pki = await testPki();
  c = { pki, partnerCertPem: pki.clients.partner.certPem, listenerUrl: 'https://127.0.0.1:9' };
}, 60_000);

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** the base64url members of a JWE or JWS object (general or flattened), with where they are */
function members(o: Json): [string, unknown][] {
  const own = ['protected', 'encrypted_key', 'iv', 'ciphertext', 'tag', 'payload', 'signature'].map(
    (n): [string, unknown] => [n, o[n]],
  );
  const lists = ['recipients', 'signatures'].flatMap((l) =>
    Array.isArray(o[l])
      ? (o[l] as unknown[])
          .filter(isObject)
          .flatMap((x, i) =>
            ['encrypted_key', 'protected', 'signature'].map((n): [string, unknown] => [`${l}[${i}].${n}`, x[n]]),
          )
      : [],
  );
  return [...own, ...lists].filter(([, v]) => typeof v === 'string');
}

/** the plaintext of a sealed answer, opened with the partner's key or (encrypted to another) the attacker's */
async function inner(jwe: Json): Promise<unknown> {
  for (const key of [pki.clients.partner.privateKeyPem, pki.attacker.privateKeyPem]) {
    try {
      const { plaintext } = await generalDecrypt(jwe as unknown as GeneralJWE, createPrivateKey(key));
      const text = Buffer.from(plaintext).toString('utf8');
      try {
        return JSON.parse(text) as unknown;
      } catch {
        return text;
      }
    } catch {
      /* the next key */
    }
  }
  return undefined;
}

/** the members not written canonically, in the answer and in the layer inside it */
async function nonCanonical(answer: unknown): Promise<string[]> {
  if (typeof answer === 'string') return answer.split('.').filter((p) => !canonicalB64u(p));
  if (!isObject(answer)) return [];
  const out = members(answer)
    .filter(([, v]) => !canonicalB64u(v as string))
    .map(([n]) => n);
  if ('recipients' in answer) out.push(...(await nonCanonical(await inner(answer))).map((n) => `inside: ${n}`));
  return out;
}

describe('partner spoils', () => {
  it('none is a second spelling: every member of every spoiled answer is written canonically', async () => {
    const body = { transfer_id: 'T-1', status: 'VALIDATED' };
    const other = { transfer_id: 'T-2', status: 'VALIDATED' };
    const found: string[] = [];
    for (const how of SPOILS) {
      const bad = await nonCanonical(spoiledAnswer(how, body, other, c));
      if (bad.length > 0) found.push(`${how}: ${bad.join(', ')}`);
    }
    expect(found).toEqual([]);
    // the layer inside is read (the partner's key opens a sealed spoil, the attacker's the one sealed to it)
    for (const how of ['bad-signature', 'other-recipient'] as const)
      expect(await inner(spoiledAnswer(how, body, other, c) as Json)).toMatchObject({ signatures: expect.any(Array) });
  });

  it('the test sees a second spelling where there is one', async () => {
    const genuine = spoiledAnswer('replayed', { a: 1 }, { a: 2 }, c) as Json;
    expect(await nonCanonical({ ...genuine, tag: `${genuine.tag as string}=` })).toEqual(['tag']);
  });
});
