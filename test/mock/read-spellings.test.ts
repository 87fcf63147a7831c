/**
 * MockOptions.readSpellings (the partner certification's bank sets it): a request whose JWE protected header is
 * written with non-zero padding bits (the same bytes) is read as those bytes and accepted, as the lenient mock
 * accepts it; the clean mock refuses it (HARD-07). The unaltered envelope is accepted by both.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockBank, type MockBank } from '../../lib/mock/index.ts';
import { testPki } from '../../lib/pki/index.ts';
import { attacker } from '../../lib/negative/envelopes.ts';
import { sealedBase } from '../../lib/negative/mutations.ts';
import { respelled } from '../../lib/negative/spellings.ts';
import { call, codeFlow, tlsOf, transferBody, type Profile } from './helpers.ts';

let clean: MockBank;
let reading: MockBank;
beforeAll(async () => {
  const pki = await testPki();
  [clean, reading] = await Promise.all([
    startMockBank({ mode: 'uat', pki }),
    startMockBank({ mode: 'uat', pki, readSpellings: true }),
  ]);
}, 60_000);
afterAll(() => Promise.all([clean.close(), reading.close()]));

async function validate(p: Profile, respell: boolean): Promise<number> {
  const keys = {
    clientPrivateKey: p.clients.code.privateKey!,
    clientCertificate: p.clients.code.certificate!,
    bankPublicKey: p.bank!.apiPublicKey!,
    attacker: await attacker(),
  };
  const base = sealedBase(keys, transferBody(p), 'single');
  const envelope = respell ? respelled(base, 'protected', 'pad-bits')!.envelope : base.jwe;
  const token = (await codeFlow(p)).access_token as string;
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

describe('a second spelling of the JWE protected header', () => {
  it('the clean mock refuses it, a mock that reads spellings accepts it; both accept the unaltered envelope', async () => {
    const [pc, pr] = [clean.profile('spelling-clean'), reading.profile('spelling-read')];
    expect([await validate(pc, false), await validate(pc, true)]).toEqual([200, 400]);
    expect([await validate(pr, false), await validate(pr, true)]).toEqual([200, 200]);
  });
});
