/**
 * HARD-07's cases (lib/negative/spellings.ts, judged by suites/jose/spellings.ts): each writes one member in a
 * second spelling of the same bytes (no byte changes), and the mock's openers judge them as the rules say: the clean rules refuse every one (HARD-07
 * holds), the lenient rules and the jose-accept-second-spelling fault read every one as its bytes (as a bank whose
 * JOSE library computes the AAD from the decoded protected header does: no MUST broken), and the opener of the
 * JOSE faults (lenient-open.ts) refuses them as the clean rules do (a JOSE fault breaks its own rule only).
 */
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { generalDecrypt, type GeneralJWE } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { lenientOpen } from '../../lib/mock/jose/lenient-open.ts';
import { LENIENT_RULES, openSealed, STRICT_RULES, type OpenRules } from '../../lib/mock/jose/open-sealed.ts';
import { canonicalB64u, respelled as canonicalOf } from '../../lib/mock/jose/spelling.ts';
import type { Keys } from '../../lib/negative/envelopes.ts';
import { holderOf, isJwsMember, sealedBase, valueOf, type SealedBase } from '../../lib/negative/mutations.ts';
import { respell, respelled, SPELLING_CASES, spellingCases } from '../../lib/negative/spellings.ts';
import { rsaPair, type Pair } from './helpers.ts';

type Json = Record<string, unknown>;
const DOC = { beneficiary_id: 'BEN-0001', amount: { value: '150.00', currency: 'AED' }, purpose_code: 'FAM' };

let bank: Pair;
let client: Pair;
let base: SealedBase;
beforeAll(() => {
  bank = rsaPair();
  client = rsaPair();
  const attacker = rsaPair();
  const keys: Keys = {
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
  base = sealedBase(keys, DOC, 'single');
});

const open = (env: unknown, rules: OpenRules): ReturnType<typeof openSealed> =>
  openSealed(
    JSON.stringify(env),
    { decryption: createPrivateKey(bank.priv), verification: createPublicKey(client.pub) },
    rules,
  );

/** every case's envelope, and the member's text in it (the JWS members inside the plaintext, opened by hand) */
async function sent(): Promise<{ id: string; title: string; envelope: Json }[]> {
  return Promise.all(
    spellingCases(base).map(async (c) => ({ id: c.id, title: c.title, envelope: (await c.body()) as Json })),
  );
}

describe('second spellings of the same bytes', () => {
  it('the forms: padding bits, padding, the standard alphabet, a line break, only where they exist', () => {
    expect(respell('QQ', 'pad-bits')).toBe('QR');
    expect(respell('QUI', 'pad-bits')).toBe('QUJ');
    expect(respell('QUJD', 'pad-bits')).toBeUndefined();
    expect([respell('QQ', 'pad'), respell('QUI', 'pad'), respell('QUJD', 'pad')]).toEqual(['QQ==', 'QUI=', undefined]);
    expect([respell('a-b_', 'std-alphabet'), respell('ab', 'std-alphabet')]).toEqual(['a+b/', undefined]);
    expect(respell('QUJD', 'line-break')).toBe('QU\nJD');
    for (const v of ['QR', 'QUJ', 'QQ==', 'QUI=', 'a+b/', 'QU\nJD']) expect(canonicalB64u(v)).toBe(false);
    expect([canonicalOf('QR'), canonicalOf('QQ=='), canonicalOf('a+b/'), canonicalOf('QU\nJD')]).toEqual([
      'QQ',
      'QQ',
      'a-b_',
      'QUJD',
    ]);
    expect(canonicalOf('Q')).toBeUndefined();
  });

  it('canonical means decoded and encoded again the text is the same, for every last character at every length', () => {
    // the oracle: Node's decoder and encoder round trip (canonicalB64u decides from the last character alone)
    const roundTrip = (v: string): boolean =>
      /^[A-Za-z0-9_-]*$/.test(v) && v.length % 4 !== 1 && Buffer.from(v, 'base64url').toString('base64url') === v;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const texts = [''];
    for (const head of ['', 'Q', 'QU', 'QUJ', 'QUJD', 'QUJDR', 'QUJDRA', 'eyJhbGciOiJSUzI1NiJ9'])
      for (const last of [...alphabet, '=', '+', '/', ' ', '\n', '.']) texts.push(head + last);
    for (const v of texts) expect(canonicalB64u(v), JSON.stringify(v)).toBe(roundTrip(v));
    expect(texts.filter((v) => canonicalB64u(v))).toHaveLength(105);
  });

  it('every case is sent (a form exists for each member of the base) and changes the text of its member, not its bytes', async () => {
    const cases = spellingCases(base);
    expect(cases.filter((c) => c.skipped).map((c) => c.id)).toEqual([]);
    for (const { id, member, hows } of SPELLING_CASES) {
      const how = hows.find((h) => respell(valueOf(base, member), h) !== undefined)!;
      const { envelope } = respelled(base, member, how)!;
      const part = isJwsMember(member)
        ? (JSON.parse(
            Buffer.from(
              (await generalDecrypt(envelope as unknown as GeneralJWE, createPrivateKey(bank.priv))).plaintext,
            ).toString('utf8'),
          ) as Json)
        : envelope;
      const { holder, name } = holderOf(part, member, base);
      const text = holder[name] as string;
      expect(text, id).not.toBe(valueOf(base, member));
      expect(canonicalOf(text), id).toBe(valueOf(base, member));
      expect(cases.find((c) => c.id === id)!.title).toContain('the same bytes');
    }
  });

  it('the clean rules refuse every case, naming the spelling; the unaltered envelope opens', async () => {
    expect((await open(base.jwe, STRICT_RULES)).ok).toBe(true);
    for (const c of await sent()) {
      const r = await open(c.envelope, STRICT_RULES);
      expect(r, `${c.id} ${c.title}`).toMatchObject({
        ok: false,
        reason: expect.stringMatching(/canonical base64url/),
      });
    }
  });

  it('the lenient rules and the jose-accept-second-spelling fault read every case as its bytes: the document', async () => {
    for (const rules of [LENIENT_RULES, { ...STRICT_RULES, spelling: 'read' as const }])
      for (const c of await sent())
        expect(await open(c.envelope, rules), `${c.id} ${c.title}`).toEqual({ ok: true, payload: DOC });
  });

  it('the opener of the JOSE faults refuses every case as the clean rules do', async () => {
    const keys = {
      decryptionKeys: [{ key: createPrivateKey(bank.priv), pem: bank.priv }],
      verificationKey: createPublicKey(client.pub),
    };
    expect(await lenientOpen(JSON.stringify(base.jwe), keys, {})).toEqual({ ok: true, payload: DOC });
    for (const c of await sent())
      expect((await lenientOpen(JSON.stringify(c.envelope), keys, { ignoreTag: true })).ok, `${c.id} ${c.title}`).toBe(
        false,
      );
  });
});
