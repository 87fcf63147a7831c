/**
 * The tests' opener of the mock's answers (open-answer.ts, behind helpers.ts `api()`): it reads the lenient mock's
 * answers (two recipients, zip DEF), the clean mock's, and refuses an answer that breaks what JOSE-11 asks (the
 * mock's response faults), so the tests that read answers with it read only well-sealed ones.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockBank, type MockBank } from '../../lib/mock/index.ts';
import { testPki } from '../../lib/pki/index.ts';
import { api, codeFlow, transferBody, type Profile } from './helpers.ts';

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
  pc = clean.profile('answer-clean');
  pl = lenient.profile('answer-lenient');
});
afterAll(() => Promise.all([clean.close(), lenient.close()]));

const validate = async (p: Profile): ReturnType<typeof api> =>
  api(p, {
    method: 'POST',
    path: '/transfers/validate',
    token: (await codeFlow(p)).access_token as string,
    body: transferBody(p),
  });

/** the JWE's recipients and its protected header's zip, read from the answer as sent */
function shape(text: string): { recipients: number; zip: unknown } {
  const jwe = JSON.parse(text) as { protected: string; recipients: unknown[] };
  const header = JSON.parse(Buffer.from(jwe.protected, 'base64url').toString('utf8')) as { zip?: unknown };
  return { recipients: jwe.recipients.length, zip: header.zip };
}

describe("the tests' opener of the mock's answers", () => {
  it('opens the lenient mock’s answer (two recipients, compressed)', async () => {
    const v = await validate(pl);
    expect(shape(v.res.text)).toEqual({ recipients: 2, zip: 'DEF' });
    expect([v.status, v.sealed]).toEqual([200, true]);
    // the lenient mock adds members the rules allow (the amount's scale)
    expect(v.body.debit_amount).toMatchObject({ value: '155.25', currency: 'AED' });
  });

  it('opens the clean mock’s answer (one recipient)', async () => {
    const v = await validate(pc);
    expect(shape(v.res.text)).toEqual({ recipients: 1, zip: undefined });
    expect(v.body.debit_amount).toEqual({ value: '155.25', currency: 'AED' });
  });

  it('refuses an answer encrypted with A128CBC-HS256, or signed by the TLS server key', async () => {
    try {
      clean.faults.set(['response-wrong-enc']);
      await expect(validate(pc)).rejects.toThrow(/the answer's JWE/);
      clean.faults.set(['response-signed-wrong-key']);
      await expect(validate(pc)).rejects.toThrow(/the answer's JWS/);
    } finally {
      clean.faults.set([]);
    }
  });
});
