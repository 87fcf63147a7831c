/**
 * The mock's own request opener (lib/mock/jose/open-sealed.ts, independent of lib/jose's open): the clean rules
 * refuse what the hardening ids probe, the lenient rules take what the RFCs allow, and both keep the rules the
 * MUST ids state (pinned algorithms and keys), also when a duplicated member's LAST value breaks them.
 */
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  LENIENT_RULES,
  openSealed,
  STRICT_RULES,
  type OpenKeys,
  type OpenRules,
} from '../../lib/mock/jose/open-sealed.ts';
import { DOC, envelope, jweOf, jwsOf, makeWorld, type World } from '../jose/helpers.ts';

let w: World;
let keys: OpenKeys;
beforeAll(() => {
  w = makeWorld();
  keys = { decryption: createPrivateKey(w.bank.priv), verification: createPublicKey(w.client.pub) };
});

const text = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));
const opens = async (v: unknown, rules: OpenRules): Promise<boolean> => (await openSealed(text(v), keys, rules)).ok;
const attackerFirst = () => ({
  extraSignatures: [
    {
      protectedHeader: { alg: 'RS256' },
      signer: { kind: 'rsa' as const, alg: 'RS256' as const, privateKeyPem: w.attacker.priv },
      first: true,
    },
  ],
});

describe('what the RFCs allow: refused by the clean rules, opened by the lenient ones', () => {
  const cases: [string, () => unknown][] = [
    ['duplicated alg, RS256 last', () => envelope(w, { rawProtected: '{"alg":"none","alg":"RS256"}' })],
    [
      'duplicated ciphertext, the real one last',
      () => text(envelope(w)).replace('"ciphertext":', '"ciphertext":"AAAA","ciphertext":'),
    ],
    ['zip DEF', () => jweOf(w, deflateRawSync(text(jwsOf(w))), { protectedHeader: { zip: 'DEF' } })],
    ['two recipients', () => jweOf(w, jwsOf(w), { extraRecipientPublicKeyPems: [w.attacker.pub] })],
    ['two signatures, the attacker first', () => envelope(w, attackerFirst())],
  ];
  it.each(cases)('%s', async (_n, build) => {
    const env = build();
    expect(await opens(env, STRICT_RULES)).toBe(false);
    expect(await openSealed(text(env), keys, LENIENT_RULES)).toEqual({ ok: true, payload: DOC });
  });
});

describe('what the MUST ids forbid: refused by both rule sets', () => {
  const rs512 = { kind: 'rsa' as const, alg: 'RS512' as const };
  const cases: [string, () => unknown][] = [
    [
      'RS512',
      () => envelope(w, { protectedHeader: { alg: 'RS512' }, signer: { ...rs512, privateKeyPem: w.client.priv } }),
    ],
    [
      'duplicated alg, RS512 last',
      () =>
        envelope(w, {
          rawProtected: '{"alg":"RS256","alg":"RS512"}',
          signer: { ...rs512, privateKeyPem: w.client.priv },
        }),
    ],
    [
      'duplicated enc, A128GCM last',
      () =>
        envelope(
          w,
          {},
          { enc: 'A128GCM', rawProtected: '{"alg":"RSA-OAEP-256","enc":"A256CBC-HS512","enc":"A128GCM"}' },
        ),
    ],
    ['duplicated ciphertext, junk last', () => `${text(envelope(w)).slice(0, -1)},"ciphertext":"AAAA"}`],
    [
      'signed by the attacker',
      () => envelope(w, { signer: { kind: 'rsa', alg: 'RS256', privateKeyPem: w.attacker.priv } }),
    ],
    ['encrypted to the attacker', () => jweOf(w, jwsOf(w), { recipientPublicKeyPem: w.attacker.pub })],
    ['compact JWE', () => envelope(w, {}, { form: 'compact' })],
    ['flattened JWE', () => envelope(w, {}, { form: 'flattened' })],
    ['plain JSON', () => DOC],
    ['an unknown crit', () => envelope(w, { protectedHeader: { alg: 'RS256', crit: ['exp'], exp: 1 } })],
  ];
  it.each(cases)('%s', async (_n, build) => {
    const env = build();
    expect(await opens(env, STRICT_RULES)).toBe(false);
    expect(await opens(env, LENIENT_RULES)).toBe(false);
  });
});

describe('the jose-duplicates-first-wins fault (checks on the first value, jose unpinned on the last)', () => {
  it('lets a duplicated alg with RS512 last through', async () => {
    const env = envelope(w, {
      rawProtected: '{"alg":"RS256","alg":"RS512"}',
      signer: { kind: 'rsa', alg: 'RS512', privateKeyPem: w.client.priv },
    });
    expect(await opens(env, { ...STRICT_RULES, duplicates: 'first-wins' })).toBe(true);
  });
});

describe('codes the mock turns into its answers', () => {
  it('a body that is not JSON: NOT_JSON; a signed payload that is not JSON: PAYLOAD_NOT_JSON', async () => {
    expect(await openSealed('{"a":', keys, STRICT_RULES)).toMatchObject({ ok: false, code: 'NOT_JSON' });
    const env = jweOf(w, jwsOf(w, { payload: '{"a":' }));
    expect(await openSealed(text(env), keys, STRICT_RULES)).toMatchObject({ ok: false, code: 'PAYLOAD_NOT_JSON' });
  });
});
