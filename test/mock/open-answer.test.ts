/**
 * The tests' opener of the mock's answers (open-answer.ts, behind helpers.ts `api()`): it reads the lenient mock's
 * answers (two recipients, zip DEF), the clean mock's, and refuses an answer that breaks what JOSE-11 asks (the
 * mock's response faults), so the tests that read answers with it read only well-sealed ones.
 */
import { describe, expect, it } from 'vitest';
import { cleanAndLenientUat } from '../fixtures/clean-and-lenient.ts';
import { api, codeFlow, transferBody, type Profile } from './helpers.ts';

const m = cleanAndLenientUat('answer');

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
    const v = await validate(m.pl);
    expect(shape(v.res.text)).toEqual({ recipients: 2, zip: 'DEF' });
    expect([v.status, v.sealed]).toEqual([200, true]);
    // the lenient mock adds members the rules allow (the amount's scale)
    expect(v.body.debit_amount).toMatchObject({ value: '155.25', currency: 'AED' });
  });

  it('opens the clean mock’s answer (one recipient)', async () => {
    const v = await validate(m.pc);
    expect(shape(v.res.text)).toEqual({ recipients: 1, zip: undefined });
    expect(v.body.debit_amount).toEqual({ value: '155.25', currency: 'AED' });
  });

  it('refuses an answer encrypted with A128CBC-HS256, or signed by the TLS server key', async () => {
    try {
      m.clean.faults.set(['response-wrong-enc']);
      await expect(validate(m.pc)).rejects.toThrow(/the answer's JWE/);
      m.clean.faults.set(['response-signed-wrong-key']);
      await expect(validate(m.pc)).rejects.toThrow(/the answer's JWS/);
    } finally {
      m.clean.faults.set([]);
    }
  });
});
