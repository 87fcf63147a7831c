/**
 * The mock fault of the tampered-envelope property (issue 20): jose-tag-unchecked-other-recipient. Under it the
 * mock accepts several recipients and checks the authentication tag only when the content key comes from the
 * first one. A tampered tag in an envelope whose bank recipient comes second then passes; the fixed-input
 * tamper case (one recipient, a flipped tag: JOSE-08's T4) is still refused, so only the generated inputs find it.
 * Without the fault the clean mock refuses both shapes, the lenient mock (several recipients allowed) the
 * tampered one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockBank, type MockBank } from '../../lib/mock/index.ts';
import { testPki } from '../../lib/pki/index.ts';
import { attacker, type Keys } from '../../suites/jose/envelopes.ts';
import { applyMutation, sealedBase, type Mutation, type Shape } from '../../suites/jose/mutations.ts';
import { call, codeFlow, tlsOf, transferBody, type Profile } from './helpers.ts';

const FAULT = 'jose-tag-unchecked-other-recipient';
const TAG_FLIP: Mutation = { kind: 'flip', member: 'tag', at: 0, bit: 0 };

let clean: MockBank;
let lenient: MockBank;
let pc: Profile;
let pl: Profile;

beforeAll(async () => {
  const pki = await testPki();
  [clean, lenient] = await Promise.all([
    startMockBank({ mode: 'uat', pki }),
    startMockBank({ mode: 'uat', pki, lenient: true }),
  ]);
  pc = clean.profile('envprop-clean');
  pl = lenient.profile('envprop-lenient');
}, 60_000);
afterAll(() => Promise.all([clean.close(), lenient.close()]));

async function keysOf(p: Profile): Promise<Keys> {
  return {
    clientPrivateKey: p.clients.code.privateKey!,
    clientCertificate: p.clients.code.certificate!,
    bankPublicKey: p.bank!.apiPublicKey!,
    attacker: await attacker(),
  };
}

/** the status of validate for an envelope of `shape`, tag flipped or not */
async function validate(p: Profile, shape: Shape, tampered: boolean): Promise<number> {
  const base = sealedBase(await keysOf(p), transferBody(p), shape);
  const envelope = tampered ? applyMutation(base, TAG_FLIP)!.envelope : base.jwe;
  const token = (await codeFlow(p)).access_token as string;
  // sent and answered raw: the lenient mock's sealed answer has two recipients, which the helpers' opener refuses
  const r = await call(`${p.target.baseUrl}/v1/transfers/validate`, {
    method: 'POST',
    headers: {
      'X-Gateway-Client-Id': p.clients.code.clientId,
      Authorization: `Bearer ${token}`,
      'Content-Type': 'application/json',
    },
    body: JSON.stringify(envelope),
    tls: tlsOf(p, p.clients.code),
  });
  return r.status;
}

describe(`${FAULT}: caught by two recipients, missed by one`, () => {
  it('clean mock: two recipients refused (HARD-03), tampered or not; one recipient with a flipped tag refused', async () => {
    clean.faults.set([]);
    expect([
      await validate(pc, 'two-recipients', false),
      await validate(pc, 'two-recipients', true),
      await validate(pc, 'single', true),
      await validate(pc, 'single', false),
    ]).toEqual([400, 400, 400, 200]);
  });

  it('with the fault: two recipients accepted, the flipped tag too; one recipient with a flipped tag still refused (T4 misses it)', async () => {
    clean.faults.set([FAULT]);
    try {
      expect([
        await validate(pc, 'two-recipients', false),
        await validate(pc, 'two-recipients', true),
        await validate(pc, 'single', true),
      ]).toEqual([200, 200, 400]);
    } finally {
      clean.faults.set([]);
    }
  });

  it('lenient mock (several recipients allowed by the RFC): the unmutated envelope accepted, the flipped tag refused', async () => {
    expect([await validate(pl, 'two-recipients', false), await validate(pl, 'two-recipients', true)]).toEqual([
      200, 400,
    ]);
  });
});
