/**
 * The sandbox mock as a client meets it: happy paths and refusals (test/mock/sandbox-lifecycle.test.ts has the
 * OAuth lifecycle, the quota and the admin listener).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { mask } from '../../lib/mask/index.ts';
import type { MockBank } from '../../lib/mock/index.ts';
import { FullProfile } from '../../lib/profile/schema.ts';
import { api, call, ccToken, codeFlow, sandboxMockFor, transferBody, type Profile } from './helpers.ts';

let mock: MockBank;
let p: Profile;
sandboxMockFor((started) => ({ mock, p } = started));

describe('sandbox mock: happy paths', () => {
  it('describes itself with a valid full profile', () => {
    const parsed = FullProfile.parse(p);
    expect(parsed.target.baseUrl).toBe(mock.url);
    expect(parsed.target.clock).toBe(`${mock.adminUrl}/clock`);
    expect(parsed.customers.map((c) => c.accountId.length)).toEqual([13, 19, 13]);
  });

  it('code flow -> validate -> create -> get', async () => {
    const tok = await codeFlow(p);
    expect(tok).toMatchObject({ token_type: 'bearer', expires_in: 3600, scope: 'transfers' });
    expect(typeof tok.consented_on).toBe('number');
    expect(typeof tok.refresh_token).toBe('string');
    expect(tok.refresh_token_expires_in).toBe(1095 * 86400);
    const token = tok.access_token as string;

    const v = await api(p, { method: 'POST', path: '/transfers/validate', token, body: transferBody(p) });
    expect(v.status).toBe(200);
    expect(v.body).toEqual({
      charges: { value: '5.25', currency: 'AED' },
      debit_amount: { value: '155.25', currency: 'AED' },
      total_credit_amount: { value: '150.00', currency: 'AED' },
      authentication_mode: 'OTP',
    });

    const c = await api(p, { method: 'PUT', path: '/transfers/t-happy-1', token, body: transferBody(p) });
    expect(c.status).toBe(201);
    expect(c.body).toMatchObject({ transfer_id: 't-happy-1', status: 'PROCESSING' });
    expect(c.body.payment_reference_id).toMatch(/^PRF\d{12}$/);

    const g = await api(p, { method: 'GET', path: '/transfers/t-happy-1', token });
    expect(g.status).toBe(200);
    expect(g.body).toMatchObject({
      transfer_id: 't-happy-1',
      payment_reference_id: c.body.payment_reference_id,
      status: 'PROCESSING',
      beneficiary_id: 'BEN-0001',
      amount: { value: '150.00', currency: 'AED' },
    });
    expect(JSON.stringify(g.body)).not.toContain(p.customers[0]!.accountId);
  });

  it('lists approvers only for the workflow customer (bob)', async () => {
    const token = (await codeFlow(p, 1)).access_token as string;
    const v = await api(p, { method: 'POST', path: '/transfers/validate', token, body: transferBody(p, 1) });
    expect(v.status).toBe(200);
    expect(Array.isArray(v.body.approvers)).toBe(true);
  });

  it('client credentials (form + Basic) bound by oauth_metadata', async () => {
    const { res, body } = await ccToken(p);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(body).toMatchObject({ token_type: 'bearer', expires_in: 3600, scope: 'transfers' });
    expect(body).not.toHaveProperty('refresh_token');
    const v = await api(p, {
      method: 'POST',
      path: '/transfers/validate',
      token: body.access_token as string,
      client: p.clients.partner,
      body: transferBody(p),
    });
    expect(v.status).toBe(200);
    // bound to alice: bob's account is 403
    const other = await api(p, {
      method: 'POST',
      path: '/transfers/validate',
      token: body.access_token as string,
      client: p.clients.partner,
      body: transferBody(p, 1),
    });
    expect(other.status).toBe(403);
  });

  it('client credentials without oauth_metadata (the specification has none in sandbox) act on the named account', async () => {
    const { body } = await ccToken(p, p.clients.partner, { grant_type: 'client_credentials', scope: 'transfers' });
    const token = body.access_token as string;
    const client = p.clients.partner;
    expect(
      (await api(p, { method: 'POST', path: '/transfers/validate', token, client, body: transferBody(p, 1) })).status,
    ).toBe(200);
    const put = await api(p, { method: 'PUT', path: '/transfers/unbound-1', token, client, body: transferBody(p) });
    expect(put.status).toBe(201);
    expect((await api(p, { method: 'GET', path: '/transfers/unbound-1', token, client })).status).toBe(200);
    const unknown = await api(p, {
      method: 'POST',
      path: '/transfers/validate',
      token,
      client,
      body: transferBody(p, 0, { account_id: '9999xxxxxx999' }),
    });
    expect(unknown.status).toBe(403);
  });

  it('internal client bound to an emirates id uses emirates_id', async () => {
    const { body } = await ccToken(p, p.clients.internal!);
    const alice = p.customers[0]!;
    const b = {
      beneficiary_id: alice.beneficiaryId,
      emirates_id: mask(alice.emiratesId!),
      amount: { value: '1', currency: 'USD' },
    };
    const v = await api(p, {
      method: 'POST',
      path: '/transfers/validate',
      token: body.access_token as string,
      client: p.clients.internal!,
      body: b,
    });
    expect(v.status).toBe(200);
    expect(v.body.debit_amount).toEqual({ value: '6.25', currency: 'USD' });
  });
});

describe('sandbox mock: refusals', () => {
  let token: string;
  beforeAll(async () => {
    token = (await codeFlow(p)).access_token as string;
  });

  it('422 for missing and invalid properties, with the five-member body', async () => {
    const { beneficiary_id: _b, ...noBen } = transferBody(p);
    const r = await api(p, { method: 'POST', path: '/transfers/validate', token, body: noBen });
    expect(r.status).toBe(422);
    expect(Object.keys(r.body).sort()).toEqual([
      'description',
      'property',
      'response_code',
      'response_message',
      'status',
    ]);
    expect(r.body).toMatchObject({
      status: '422',
      property: 'beneficiary_id',
      response_message: 'beneficiary_id is missing',
    });
    expect(r.body.response_code).toMatch(/^422\d{3}$/);
    for (const [over, prop] of [
      [{ amount: { value: '0', currency: 'AED' } }, 'amount.value'],
      [{ amount: { value: '1.234', currency: 'AED' } }, 'amount.value'],
      [{ amount: { value: '10', currency: 'XYZ' } }, 'amount.currency'],
      [{ account_id: p.customers[0]!.accountId }, 'account_id'],
      [{ beneficiary_id: 'BEN-0002' }, 'beneficiary_id'],
    ] as const) {
      const x = await api(p, { method: 'POST', path: '/transfers/validate', token, body: transferBody(p, 0, over) });
      expect(x.status, prop).toBe(422);
      expect(x.body.property).toBe(prop);
      expect(x.res.text).not.toContain(p.customers[0]!.accountId);
    }
  });

  it("403 for another customer's masked account", async () => {
    const r = await api(p, {
      method: 'POST',
      path: '/transfers/validate',
      token,
      body: transferBody(p, 0, { account_id: mask(p.customers[2]!.accountId) }),
    });
    expect(r.status).toBe(403);
    expect(r.body.property).toBe('account_id');
  });

  it('401/403 for api key, token and scope problems', async () => {
    const noKey = await call(`${p.target.baseUrl}/v1/transfers/x`, { headers: { Authorization: `Bearer ${token}` } });
    expect(noKey.status).toBe(401);
    const noToken = await api(p, { method: 'GET', path: '/transfers/x' });
    expect(noToken.status).toBe(401);
    expect(noToken.res.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(noToken.res.headers['www-authenticate']).not.toMatch(/error=/);
    const bad = await api(p, { method: 'GET', path: '/transfers/x', token: 'nope' });
    expect(bad.status).toBe(401);
    expect(bad.res.headers['www-authenticate']).toMatch(/error="invalid_token"/);
    const other = await api(p, { method: 'GET', path: '/transfers/x', token, client: p.clients.partner });
    expect(other.status).toBe(401);
    const { body } = await ccToken(p, { ...p.clients.partner, scope: 'accounts' });
    const scope = await api(p, {
      method: 'GET',
      path: '/transfers/x',
      token: body.access_token as string,
      client: p.clients.partner,
    });
    expect(scope.status).toBe(403);
    expect(scope.res.headers['www-authenticate']).toMatch(/insufficient_scope/);
  });

  it('404 unknown, 405 with Allow, 400 malformed and empty, 413 oversize', async () => {
    expect((await api(p, { method: 'GET', path: '/transfers/nope', token })).status).toBe(404);
    const m = await api(p, { method: 'DELETE', path: '/transfers/nope', token });
    expect(m.status).toBe(405);
    expect(m.res.headers.allow).toBe('GET, PUT');
    expect(
      (
        await api(p, {
          method: 'POST',
          path: '/transfers/validate',
          token,
          raw: '{"a":',
          headers: { 'Content-Type': 'application/json' },
        })
      ).status,
    ).toBe(400);
    expect((await api(p, { method: 'PUT', path: '/transfers/e1', token, raw: '' })).status).toBe(400);
    const big = await api(p, {
      method: 'POST',
      path: '/transfers/validate',
      token,
      raw: 'x'.repeat(1024 * 1024 + 10),
      headers: { 'Content-Type': 'application/json' },
    });
    expect(big.status).toBe(413);
    expect(big.body.status).toBe('413');
  });

  it('a body of white space alone is a missing body (400 body), in every spelling of it; one of text is read', async () => {
    const post = (raw: string): ReturnType<typeof api> =>
      api(p, {
        method: 'POST',
        path: '/transfers/validate',
        token,
        raw,
        headers: { 'Content-Type': 'application/json' },
      });
    for (const raw of [' ', '\r\n\t ', '\u00a0', '\ufeff', '\u2028 \u3000']) {
      const r = await post(raw);
      expect([r.status, r.body.property, r.body.response_message], JSON.stringify(raw)).toEqual([
        400,
        'body',
        'body is missing',
      ]);
    }
    for (const raw of ['x', '\u00a0x', ' {"a":']) {
      const r = await post(raw);
      expect([r.status, r.body.response_message], JSON.stringify(raw)).toEqual([400, 'Malformed JSON']);
    }
  });

  it('idempotent PUT: same body 200 same reference and no second payment; different body 422 transfer_id', async () => {
    const first = await api(p, {
      method: 'PUT',
      path: '/transfers/idem-1',
      token,
      body: transferBody(p, 0, { status: 'COMPLETED', payment_reference_id: 'MINE' }),
    });
    expect(first.status).toBe(201);
    expect(first.body.status).toBe('PROCESSING');
    expect(first.body.payment_reference_id).not.toBe('MINE');
    const payments = mock.paymentCount();
    const again = await api(p, { method: 'PUT', path: '/transfers/idem-1', token, body: transferBody(p) });
    expect(again.status).toBe(200);
    expect(again.body.payment_reference_id).toBe(first.body.payment_reference_id);
    expect(mock.paymentCount()).toBe(payments);
    const diff = await api(p, {
      method: 'PUT',
      path: '/transfers/idem-1',
      token,
      body: transferBody(p, 0, { remarks: 'other' }),
    });
    expect(diff.status).toBe(422);
    expect(diff.body.property).toBe('transfer_id');
  });

  it('a transfer is invisible to another customer (no BOLA)', async () => {
    await api(p, { method: 'PUT', path: '/transfers/bola-1', token, body: transferBody(p) });
    const bob = (await codeFlow(p, 1)).access_token as string;
    expect((await api(p, { method: 'GET', path: '/transfers/bola-1', token: bob })).status).toBe(404);
    expect((await api(p, { method: 'GET', path: '/transfers/bola-1', token })).status).toBe(200);
  });
});
