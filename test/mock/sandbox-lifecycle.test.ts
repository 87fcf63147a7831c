/**
 * The sandbox mock, continued: the OAuth lifecycle (authorize, code reuse and expiry, refresh rotation, the token
 * endpoint's refusals), the quota, and the admin listener (clock, consent page, faults). A mock of its own.
 */
import { describe, expect, it } from 'vitest';
import { mask } from '../../lib/mask/index.ts';
import type { MockBank } from '../../lib/mock/index.ts';
import {
  advance,
  api,
  authorizeUrl,
  call,
  ccToken,
  codeFlow,
  FORM,
  tokenCall,
  sandboxMockFor,
  transferBody,
  type Profile,
} from './helpers.ts';

let mock: MockBank;
let p: Profile;
sandboxMockFor((started) => ({ mock, p } = started));

describe('sandbox mock: OAuth lifecycle', () => {
  it('authorize: state unchanged, unregistered redirect never redirected, errors redirected', async () => {
    const ok = await call(await authorizeUrl(p, 0, { state: 'a b&c=d' }));
    expect(ok.status).toBe(302);
    const loc = new URL(ok.headers.location!);
    expect(`${loc.origin}${loc.pathname}`).toBe(p.clients.code.redirectUri);
    expect(loc.searchParams.get('state')).toBe('a b&c=d');
    const unreg = await call(await authorizeUrl(p, 0, { redirect_url: 'http://127.0.0.1:9/evil' }));
    expect(unreg.status).toBe(400);
    expect(unreg.headers.location).toBeUndefined();
    const badScope = await call(await authorizeUrl(p, 0, { scope: 'admin' }));
    expect(badScope.status).toBe(302);
    expect(new URL(badScope.headers.location!).searchParams.get('error')).toBe('invalid_scope');
    const noType = await call(await authorizeUrl(p, 0, { response_type: 'token' }));
    expect(new URL(noType.headers.location!).searchParams.get('error')).toBe('unsupported_response_type');
  });

  it('code reuse is invalid_grant and revokes the tokens; code expires after 60 s', async () => {
    const res = await call(await authorizeUrl(p));
    const code = new URL(res.headers.location!).searchParams.get('code')!;
    const first = await tokenCall(p, { grant_type: 'authorization_code', code });
    expect(first.status).toBe(200);
    expect(first.headers['cache-control']).toBe('no-store');
    const token = (first.json as { access_token: string }).access_token;
    expect((await api(p, { method: 'GET', path: '/transfers/none', token })).status).toBe(404);
    const second = await tokenCall(p, { grant_type: 'authorization_code', code });
    expect(second.status).toBe(400);
    expect(second.json).toMatchObject({ error: 'invalid_grant' });
    expect((await api(p, { method: 'GET', path: '/transfers/none', token })).status).toBe(401);

    const res2 = await call(await authorizeUrl(p));
    const code2 = new URL(res2.headers.location!).searchParams.get('code')!;
    await advance(p, 61);
    expect((await tokenCall(p, { grant_type: 'authorization_code', code: code2 })).json).toMatchObject({
      error: 'invalid_grant',
    });
  });

  it('refresh rotates; re-use of a rotated refresh token revokes the grant; 180-day idle limit', async () => {
    const t1 = await codeFlow(p);
    const r1 = await tokenCall(p, { grant_type: 'refresh_token', refresh_token: t1.refresh_token as string });
    expect(r1.status).toBe(200);
    const t2 = r1.json as Record<string, unknown>;
    expect(t2.refresh_token).not.toBe(t1.refresh_token);
    expect(t2.access_token).not.toBe(t1.access_token);
    expect(t2.consented_on).toBe(t1.consented_on);
    const reuse = await tokenCall(p, { grant_type: 'refresh_token', refresh_token: t1.refresh_token as string });
    expect(reuse.json).toMatchObject({ error: 'invalid_grant' });
    expect(
      (await tokenCall(p, { grant_type: 'refresh_token', refresh_token: t2.refresh_token as string })).json,
    ).toMatchObject({ error: 'invalid_grant' });
    expect((await api(p, { method: 'GET', path: '/transfers/none', token: t2.access_token as string })).status).toBe(
      401,
    );

    const t3 = await codeFlow(p);
    await advance(p, 181 * 86400);
    expect(
      (await tokenCall(p, { grant_type: 'refresh_token', refresh_token: t3.refresh_token as string })).json,
    ).toMatchObject({ error: 'invalid_grant' });
    // and the access token expired long ago
    expect((await api(p, { method: 'GET', path: '/transfers/none', token: t3.access_token as string })).status).toBe(
      401,
    );
  });

  it('token endpoint: wrong secret 401 invalid_client with WWW-Authenticate; wrong content type 400; unsupported grant', async () => {
    const wrong = await tokenCall(
      p,
      { grant_type: 'authorization_code', code: 'x' },
      { ...p.clients.code, clientSecret: 'wrong' },
    );
    expect(wrong.status).toBe(401);
    expect(wrong.json).toMatchObject({ error: 'invalid_client' });
    expect(wrong.headers['www-authenticate']).toMatch(/^Basic/);
    const json = await call(`${p.target.baseUrl}/oauth/v1/token`, {
      method: 'POST',
      headers: {
        Authorization: `Basic ${Buffer.from(`${p.clients.code.clientId}:${p.clients.code.clientSecret}`).toString('base64')}`,
        'Content-Type': 'application/json',
      },
      body: '{"grant_type":"authorization_code","code":"x"}',
    });
    expect(json.status).toBe(400);
    expect(json.json).toMatchObject({ error: 'invalid_request' });
    expect((await tokenCall(p, { grant_type: 'password' })).json).toMatchObject({ error: 'unsupported_grant_type' });
    expect(
      (
        await call(`${p.target.baseUrl}/oauth/partner_auth/token`, {
          method: 'POST',
          headers: { 'Content-Type': FORM },
          body: 'grant_type=client_credentials&scope=transfers',
        })
      ).status,
    ).toBe(401);
  });
});

describe('sandbox mock: quota', () => {
  it('the 101st call of an operation is 429 with Retry-After; other operations go on; the window reopens', async () => {
    await advance(p, 3600); // a fresh window whatever ran before
    const { body } = await ccToken(p, p.clients.internal!);
    const token = body.access_token as string;
    const client = p.clients.internal!;
    for (let i = 0; i < 100; i++) {
      const r = await api(p, { method: 'GET', path: `/transfers/q-${i}`, token, client });
      expect(r.status).toBe(404);
    }
    const over = await api(p, { method: 'GET', path: '/transfers/q-x', token, client });
    expect(over.status).toBe(429);
    expect(Number(over.res.headers['retry-after'])).toBeGreaterThan(0);
    expect(over.body.status).toBe('429');
    const alice = p.customers[0]!;
    const transfer = {
      beneficiary_id: alice.beneficiaryId,
      emirates_id: mask(alice.emiratesId!),
      amount: { value: '1', currency: 'AED' },
    };
    const v = await api(p, {
      method: 'POST',
      path: '/transfers/validate',
      token,
      client,
      body: transfer,
    });
    expect(v.status).toBe(200);
    const count = mock.transferCount();
    const put = await api(p, {
      method: 'PUT',
      path: '/transfers/q-put',
      token,
      client,
      body: transfer,
    });
    expect(put.status).toBe(201);
    expect(mock.transferCount()).toBe(count + 1);
    await advance(p, 3600);
    const fresh = (await ccToken(p, client)).body.access_token as string;
    expect((await api(p, { method: 'GET', path: '/transfers/q-put', token: fresh, client })).status).toBe(200);
  });
});

describe('sandbox mock: admin listener', () => {
  it('is not reachable on the API port', async () => {
    expect((await call(`${mock.url}/faults`)).status).toBe(404);
    expect(
      (
        await call(`${mock.url}/clock`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: '{"advance_seconds":1}',
        })
      ).status,
    ).toBe(404);
  });

  it('moves the clock and refuses bad values', async () => {
    const before = (await call(`${mock.adminUrl}/clock`)).json as { now: number };
    await advance(p, 10);
    const after = (await call(`${mock.adminUrl}/clock`)).json as { now: number };
    expect(after.now - before.now).toBeGreaterThanOrEqual(10_000);
    for (const v of [-1, 1.5, '10', 11 * 366 * 86400]) {
      const r = await call(`${mock.adminUrl}/clock`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ advance_seconds: v }),
      });
      expect(r.status).toBe(400);
    }
  });

  it('without auto-consent, /authorize shows a consent page whose Approve form redirects with the code', async () => {
    const put = (auto: boolean) =>
      call(`${mock.adminUrl}/consent`, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ auto }),
      });
    expect((await put(false)).status).toBe(200);
    try {
      const page = await call(await authorizeUrl(p, 1, { state: 'keep-me' }), { headers: { Accept: 'text/html' } });
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toMatch(/text\/html/);
      expect(page.text).toContain('bob');
      expect(page.text).not.toContain(p.customers[1]!.accountId);
      const id = /name="consent_id" value="([^"]+)"/.exec(page.text)![1]!;
      const approve = await call(`${p.target.baseUrl}/oauth/v1/authorize/consent`, {
        method: 'POST',
        headers: { 'Content-Type': FORM },
        body: `consent_id=${id}&decision=approve`,
      });
      expect(approve.status).toBe(302);
      const loc = new URL(approve.headers.location!);
      expect(loc.searchParams.get('state')).toBe('keep-me');
      const t = await tokenCall(p, { grant_type: 'authorization_code', code: loc.searchParams.get('code')! });
      expect(t.status).toBe(200);
      const again = await call(`${p.target.baseUrl}/oauth/v1/authorize/consent`, {
        method: 'POST',
        headers: { 'Content-Type': FORM },
        body: `consent_id=${id}&decision=approve`,
      });
      expect(again.status).toBe(400);
    } finally {
      await put(true);
    }
  });

  it('switches faults (unknown ids refused) and a fault changes behaviour', async () => {
    const put = (faults: unknown) =>
      call(`${mock.adminUrl}/faults`, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ faults }),
      });
    expect((await put(['no-such-fault'])).status).toBe(400);
    expect(mock.faults.list()).toEqual([]);
    const token = (await codeFlow(p)).access_token as string;
    expect((await put(['approvers-always'])).status).toBe(200);
    try {
      expect(((await call(`${mock.adminUrl}/faults`)).json as { faults: string[] }).faults).toEqual([
        'approvers-always',
      ]);
      const v = await api(p, { method: 'POST', path: '/transfers/validate', token, body: transferBody(p) });
      expect(v.body.approvers).toBeDefined();
    } finally {
      await put([]);
    }
    const v = await api(p, { method: 'POST', path: '/transfers/validate', token, body: transferBody(p) });
    expect(v.body.approvers).toBeUndefined();
  });
});
