/**
 * The jose-duplicates-first-wins fault in both of the mock's openers: the clean one (open-sealed.ts, jose unpinned
 * behind checks on the first values) and the one of the JOSE relaxation faults (lenient-open.ts, its own crypto),
 * which must model the same parser differential so that a relaxation switched on beside it does not hide it. Each
 * case's outcome is written here from the fault's definition (the first value checked, the last processed), not
 * read from either opener.
 */
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { lenientOpen, type LenientKeys, type Relaxations } from '../../lib/mock/jose/lenient-open.ts';
import { openSealed, STRICT_RULES, type OpenKeys } from '../../lib/mock/jose/open-sealed.ts';
import { DOC, envelope, jweOf, jwsOf, makeWorld, type World } from '../jose/helpers.ts';

let w: World;
let clean: OpenKeys;
let lenient: LenientKeys;
beforeAll(() => {
  w = makeWorld();
  clean = { decryption: createPrivateKey(w.bank.priv), verification: createPublicKey(w.client.pub) };
  lenient = {
    decryptionKeys: [{ key: createPrivateKey(w.bank.priv), pem: w.bank.priv }],
    verificationKey: createPublicKey(w.client.pub),
  };
});

const text = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));
const rs512 = (): { kind: 'rsa'; alg: 'RS512'; privateKeyPem: string } => ({
  kind: 'rsa',
  alg: 'RS512',
  privateKeyPem: w.client.priv,
});
/** the first document's purpose code, then another one (a payload with a duplicated member) */
const twoPurposes = '{"beneficiary_id":"BEN-0001","purpose_code":"FAM","purpose_code":"XXX"}';

/** [name, envelope, the payload opened (undefined: refused)] */
const CASES: [string, () => string, unknown][] = [
  ['the canonical envelope', () => text(envelope(w)), DOC],
  [
    'A12 JWS alg RS256 then RS512, signed RS512',
    () => text(envelope(w, { rawProtected: '{"alg":"RS256","alg":"RS512"}', signer: rs512() })),
    DOC,
  ],
  [
    'E15 JWE alg RSA-OAEP-256 then RSA-OAEP, the key wrapped with RSA-OAEP',
    () =>
      text(
        envelope(
          w,
          {},
          { alg: 'RSA-OAEP', rawProtected: '{"alg":"RSA-OAEP-256","enc":"A256CBC-HS512","alg":"RSA-OAEP"}' },
        ),
      ),
    DOC,
  ],
  [
    'E16 JWE enc A256CBC-HS512 then A128GCM, the content encrypted with A128GCM',
    () =>
      text(
        envelope(
          w,
          {},
          { enc: 'A128GCM', rawProtected: '{"alg":"RSA-OAEP-256","enc":"A256CBC-HS512","enc":"A128GCM"}' },
        ),
      ),
    DOC,
  ],
  ['T5 the sealed ciphertext, then junk', () => `${text(envelope(w)).slice(0, -1)},"ciphertext":"AAAA"}`, DOC],
  [
    'junk ciphertext, then the sealed one',
    () => text(envelope(w)).replace('"ciphertext":', '"ciphertext":"AAAA","ciphertext":'),
    undefined,
  ],
  [
    'JWS alg RS512 then RS256, signed RS256',
    () => text(envelope(w, { rawProtected: '{"alg":"RS512","alg":"RS256"}' })),
    undefined,
  ],
  [
    'JWS alg RS256 then none, no signature',
    () => text(envelope(w, { rawProtected: '{"alg":"RS256","alg":"none"}', signer: { kind: 'none' } })),
    undefined,
  ],
  [
    "JWS alg RS256 then HS256, keyed with the client's public key PEM",
    () =>
      text(
        envelope(w, {
          rawProtected: '{"alg":"RS256","alg":"HS256"}',
          signer: { kind: 'hmac', alg: 'HS256', secret: Buffer.from(w.client.pub) },
        }),
      ),
    undefined,
  ],
  [
    'JWE alg RSA-OAEP-256 then an unknown one',
    () => text(envelope(w, {}, { rawProtected: '{"alg":"RSA-OAEP-256","enc":"A256CBC-HS512","alg":"X"}' })),
    undefined,
  ],
  [
    'a payload with a duplicated purpose code: the first one read',
    () => text(jweOf(w, jwsOf(w, { payload: twoPurposes }))),
    { beneficiary_id: 'BEN-0001', purpose_code: 'FAM' },
  ],
];

const outcome = (r: { ok: true; payload: unknown } | { ok: false }): unknown => (r.ok ? r.payload : undefined);

describe('the jose-duplicates-first-wins fault', () => {
  it.each(CASES)('the clean opener: %s', async (_n, build, expected) => {
    expect(outcome(await openSealed(build(), clean, { ...STRICT_RULES, duplicates: 'first-wins' }))).toEqual(expected);
  });

  /**
   * relaxations of the JOSE faults that leave every case's outcome as it is, and none (skipSignature opens the none
   * and HS256 cases, as it opens any signature: test/mock/fault-composition.test.ts has it beside this fault)
   */
  const RELAXED: Relaxations[] = [
    {},
    { anyEnc: true },
    { compact: true },
    { ignoreTag: true },
    { tag500: true },
    { anyKeyAlg: true },
    { ignoreCrit: true },
  ];
  it.each(CASES)('the opener of the relaxation faults, beside each relaxation: %s', async (_n, build, expected) => {
    const body = build();
    for (const relax of RELAXED)
      expect(
        outcome(await lenientOpen(body, lenient, { ...relax, duplicates: 'first-wins' })),
        JSON.stringify(relax),
      ).toEqual(expected);
  });
});
