/**
 * Fuzzing the mock's parsers (fast-check): JSON bodies, JOSE envelopes (general JSON and compact) and token forms.
 * Whatever arrives, the mock answers with a status below 500 and keeps serving.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockBank, type MockBank } from '../../lib/mock/index.ts';
import { testPki } from '../../lib/pki/index.ts';
import { basic, call, ccToken, codeFlow, FORM, tlsOf, type Profile } from './helpers.ts';

const RUNS = 60;
let sandbox: MockBank;
let uat: MockBank;
let ps: Profile;
let pu: Profile;
let tokens: { sandbox: string; uat: string };

beforeAll(async () => {
  const pki = await testPki();
  [sandbox, uat] = await Promise.all([startMockBank({ mode: 'sandbox', pki }), startMockBank({ mode: 'uat', pki })]);
  ps = sandbox.profile('fuzz-sandbox');
  pu = uat.profile('fuzz-uat');
  tokens = {
    sandbox: (await codeFlow(ps)).access_token as string,
    uat: (await codeFlow(pu)).access_token as string,
  };
}, 60_000);
afterAll(() => Promise.all([sandbox.close(), uat.close()]));

/** a raw call; the quota (100 an hour) is kept out of the way by moving the mock's clock */
const seen = new Set<number>();
async function send(
  _mock: MockBank,
  p: Profile,
  path: string,
  body: string,
  headers: Record<string, string>,
): Promise<number> {
  const res = await call(`${p.target.baseUrl}${path}`, {
    method: path.includes('/transfers/validate') ? 'POST' : path.startsWith('/v1') ? 'PUT' : 'POST',
    headers,
    body,
    tls: tlsOf(p, p.clients.code),
  });
  seen.add(res.status);
  return res.status;
}

const b64url = fc
  .base64String({ maxLength: 40 })
  .map((s) => s.replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_'));
const jose = fc.oneof(
  fc.array(b64url, { minLength: 1, maxLength: 6 }).map((parts) => JSON.stringify(parts.join('.'))),
  fc
    .record(
      {
        protected: fc.oneof(b64url, fc.jsonValue()),
        unprotected: fc.jsonValue(),
        recipients: fc.oneof(
          fc.array(fc.record({ header: fc.jsonValue(), encrypted_key: fc.oneof(b64url, fc.jsonValue()) }), {
            maxLength: 3,
          }),
          fc.jsonValue(),
        ),
        iv: b64url,
        ciphertext: b64url,
        tag: b64url,
        payload: b64url,
        signatures: fc.jsonValue(),
      },
      { requiredKeys: [] },
    )
    .map((o) => JSON.stringify(o)),
);
const jsonBody = fc.oneof(
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 200 }),
);

describe('fuzzing the mock: no 5xx, no crash', () => {
  it('sandbox: any JSON or text as a transfer request', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(jsonBody, fc.boolean(), async (body, create) => {
        if (++n % 80 === 0) sandbox.clock.advance(3600);
        const headers = {
          Authorization: `Bearer ${tokens.sandbox}`,
          'X-Gateway-Client-Id': ps.clients.code.clientId,
          'Content-Type': 'application/json',
        };
        const path = create ? `/v1/transfers/fz-${n}` : '/v1/transfers/validate';
        expect(await send(sandbox, ps, path, body, headers)).toBeLessThan(500);
      }),
      { numRuns: RUNS },
    );
  });

  it('sandbox: any form as a token request', async () => {
    const form = fc.oneof(
      fc.string({ maxLength: 200 }),
      fc
        .dictionary(fc.string({ maxLength: 20 }), fc.string({ maxLength: 40 }))
        .map((d) => new URLSearchParams(d).toString()),
    );
    await fc.assert(
      fc.asyncProperty(form, fc.constantFrom('/oauth/v1/token', '/oauth/partner_auth/token'), async (body, path) => {
        const c = path.includes('partner') ? ps.clients.partner : ps.clients.code;
        const headers = { Authorization: basic(c.clientId, c.clientSecret), 'Content-Type': FORM };
        expect(await send(sandbox, ps, path, body, headers)).toBeLessThan(500);
      }),
      { numRuns: RUNS },
    );
  });

  it('UAT: any JOSE-shaped envelope as a transfer or token request', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(jose, fc.constantFrom('api', 'token'), async (body, where) => {
        if (++n % 80 === 0) uat.clock.advance(3600);
        const headers: Record<string, string> =
          where === 'api'
            ? {
                Authorization: `Bearer ${tokens.uat}`,
                'X-Gateway-Client-Id': pu.clients.code.clientId,
                'Content-Type': 'application/json',
              }
            : {
                'X-Gateway-Client-Id': pu.clients.partner.clientId,
                'X-Gateway-Client-Secret': pu.clients.partner.clientSecret,
                MsgId: `m-${n}`,
                'Content-Type': 'application/json',
              };
        const path = where === 'api' ? '/v1/transfers/validate' : '/oauth/partner_auth/token';
        expect(await send(uat, pu, path, body, headers)).toBeLessThan(500);
      }),
      { numRuns: RUNS },
    );
  });

  it('keeps serving afterwards; the bodies reached the parsers (refused as malformed, not only as unauthorised)', async () => {
    expect([...seen].some((s) => s === 400 || s === 422)).toBe(true);
    const t = await ccToken(ps);
    expect(t.res.status).toBe(200);
  });
});
