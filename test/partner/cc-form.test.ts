/**
 * The sandbox client-credentials form's oauth_metadata, one encoding at a time (docs/partner.md): the mock bank either
 * understands it (the token is bound to the account: another customer's account is 403) or refuses it with a 400
 * invalid_request naming the field, never ignores it; and the partner judge reads the request as the bank does
 * (MASK-05 never fails a client for the clear id where the specification puts it).
 */
import { describe, expect, it } from 'vitest';
import { judge } from '../../lib/partner/judge/judge.ts';
import type { PartnerSetup, ScenarioRun } from '../../lib/partner/types.ts';
import { api, basic, call, FORM, sandboxMockFor, transferBody, type Profile } from '../mock/helpers.ts';

let p: Profile;
sandboxMockFor((started) => ({ p } = started));

const BASE = 'grant_type=client_credentials&scope=transfers';

/** the same metadata as each encoding spells it (the body after grant_type and scope) */
const UNDERSTOOD: Record<string, (account: string) => string> = {
  'a JSON object': (a) => `oauth_metadata=${encodeURIComponent(JSON.stringify({ account_id: a }))}`,
  'the bracket form': (a) => `oauth_metadata[account_id]=${a}`,
  'the bracket form, percent-encoded': (a) => `oauth_metadata%5Baccount_id%5D=${a}`,
};
const REFUSED: Record<string, [(account: string) => string, string]> = {
  'an unknown bracket member': [(a) => `oauth_metadata[account]=${a}`, 'oauth_metadata[account]'],
  'a dotted key': [(a) => `oauth_metadata.account_id=${a}`, 'oauth_metadata.account_id'],
  'a nested bracket': [(a) => `oauth_metadata[account_id][]=${a}`, 'oauth_metadata[account_id][]'],
  'both encodings': [
    (a) => `oauth_metadata[account_id]=${a}&oauth_metadata=${encodeURIComponent(JSON.stringify({ account_id: a }))}`,
    'oauth_metadata[account_id]',
  ],
  'a bracket field repeated': [
    (a) => `oauth_metadata[account_id]=${a}&oauth_metadata[account_id]=${a}`,
    'oauth_metadata[account_id]',
  ],
};

async function token(meta: string) {
  const c = p.clients.partner;
  return call(`${p.target.baseUrl}/oauth/partner_auth/token`, {
    method: 'POST',
    headers: { Authorization: basic(c.clientId, c.clientSecret), 'Content-Type': FORM },
    body: `${BASE}&${meta}`,
  });
}

async function mask05(body: string): Promise<string> {
  const setup: PartnerSetup = {
    mode: 'sandbox',
    flow: 'client-credentials',
    clientId: 'x',
    certPem: '',
    certSha256: '',
  };
  const run: ScenarioRun = {
    scenario: 'normal',
    exitCode: 0,
    durationMs: 1,
    output: '',
    payments: 0,
    requests: [
      { seq: 1, at: 0, method: 'POST', target: '/oauth/partner_auth/token', route: 'cc-token', headers: {}, body },
    ],
  };
  const clearIds = [p.customers[0]!.accountId];
  const js = await judge({ setup, runs: [run], bankApiPrivateKeyPem: '', clearIds, certificateProblems: [] });
  return js.find((x) => x.id === 'MASK-05')!.outcome;
}

describe('sandbox client credentials: oauth_metadata read one way by the bank and the judge', () => {
  for (const [name, spell] of Object.entries(UNDERSTOOD)) {
    it(`${name}: the token is bound to the account, and MASK-05 does not fail the clear id there`, async () => {
      const alice = p.customers[0]!.accountId;
      const t = await token(spell(alice));
      expect(t.status).toBe(200);
      const accessToken = (t.json as { access_token: string }).access_token;
      const on = (customer: number) =>
        api(p, {
          method: 'POST',
          path: '/transfers/validate',
          token: accessToken,
          client: p.clients.partner,
          body: transferBody(p, customer),
        });
      expect((await on(0)).status).toBe(200);
      // bound to alice: bob's account is refused (an unbound sandbox token would act on it)
      expect((await on(1)).status).toBe(403);
      expect(await mask05(`${BASE}&${spell(alice)}`)).toBe('pass');
    });
  }

  for (const [name, [spell, field]] of Object.entries(REFUSED)) {
    it(`${name}: refused, 400 invalid_request naming ${field}`, async () => {
      const t = await token(spell(p.customers[0]!.accountId));
      expect(t.status).toBe(400);
      const body = t.json as { error: string; error_description: string };
      expect(body.error).toBe('invalid_request');
      expect(body.error_description).toContain(field);
    });
  }

  it('a clear id elsewhere in the form is still a MASK-05 failure', async () => {
    expect(await mask05(`${BASE}&remarks=${p.customers[0]!.accountId}`)).toBe('broken');
  });
});
