import tls from 'node:tls';
import { GeneralEncrypt, GeneralSign } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { privateKeyFromPem, publicKeyFromPem, seal } from '../../lib/jose/index.ts';
import { testPki } from '../../lib/pki/index.ts';
import type { TestPki } from '../../lib/pki/types.ts';
import { startMockBank, type MockBank } from '../../lib/mock/index.ts';
import { FullProfile } from '../../lib/profile/schema.ts';
import { api, authorizeUrl, call, ccToken, codeFlow, tlsOf, tokenCall, transferBody, type Profile } from './helpers.ts';

let mock: MockBank;
let p: Profile;
let pki: TestPki;

beforeAll(async () => {
  pki = await testPki();
  mock = await startMockBank({ mode: 'uat', pki });
  p = mock.profile('mock-uat');
});
afterAll(() => mock.close());

/** a TLS handshake only: the negotiated protocol, or the error code */
function handshake(opts: tls.ConnectionOptions): Promise<string> {
  const u = new URL(p.target.baseUrl);
  return new Promise((resolve) => {
    const s = tls.connect(
      { host: u.hostname, port: Number(u.port), ca: p.tls!.caCertificate, servername: 'localhost', ...opts },
      () => {
        resolve(s.getProtocol() ?? '?');
        s.end();
      },
    );
    s.on('error', (e: NodeJS.ErrnoException) => resolve(`ERR ${e.code ?? e.message}`));
  });
}

describe('UAT mock: happy paths', () => {
  it('describes itself with a valid full UAT profile', () => {
    const parsed = FullProfile.parse(p);
    expect(parsed.environment).toBe('uat');
    expect(parsed.tls?.disallowedSourceAddress).toBe('127.0.0.2');
    expect(parsed.tls?.negativeCertificates.weak1024?.clientId).toBe('weak-client-001');
  });

  it('code flow (encrypted account_id) -> sealed validate -> create -> get; token answers plain', async () => {
    const tok = await codeFlow(p);
    expect(tok).toMatchObject({ token_type: 'bearer', expires_in: 3600 });
    const token = tok.access_token as string;
    const v = await api(p, { method: 'POST', path: '/transfers/validate', token, body: transferBody(p) });
    expect(v.status).toBe(200);
    expect(v.sealed).toBe(true);
    expect(v.body.debit_amount).toEqual({ value: '155.25', currency: 'AED' });
    const c = await api(p, { method: 'PUT', path: '/transfers/u-1', token, body: transferBody(p) });
    expect(c.status).toBe(201);
    expect(c.sealed).toBe(true);
    const g = await api(p, { method: 'GET', path: '/transfers/u-1', token });
    expect(g.status).toBe(200);
    expect(g.sealed).toBe(true);
    expect(g.body.payment_reference_id).toBe(c.body.payment_reference_id);
    const missing = await api(p, { method: 'GET', path: '/transfers/none', token });
    expect(missing.status).toBe(404);
    expect(missing.sealed).toBe(true);
    expect(missing.body.status).toBe('404');
  });

  it('client credentials: sealed request and sealed response, no refresh fields', async () => {
    const { res, body } = await ccToken(p);
    expect(res.status).toBe(200);
    expect(res.json).toHaveProperty('recipients');
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
  });
});

describe('UAT mock: refusals', () => {
  let token: string;
  beforeAll(async () => {
    token = (await codeFlow(p)).access_token as string;
  });

  it('TLS 1.1 refused, 1.2 and 1.3 accepted', async () => {
    const cc = { cert: p.clients.code.certificate!, key: p.clients.code.privateKey! };
    expect(
      await handshake({ ...cc, minVersion: 'TLSv1.1', maxVersion: 'TLSv1.1', ciphers: 'DEFAULT@SECLEVEL=0' }),
    ).toMatch(/^ERR/);
    expect(await handshake({ ...cc, maxVersion: 'TLSv1.2' })).toBe('TLSv1.2');
    expect(await handshake(cc)).toBe('TLSv1.3');
  });

  it('no client certificate, 1024-bit, expired, untrusted CA: refused with the reason', async () => {
    const none = await call(`${p.target.baseUrl}/v1/transfers/x`, {
      headers: { 'X-Gateway-Client-Id': 'fintech-app-001', Authorization: `Bearer ${token}` },
      tls: { ca: p.tls!.caCertificate },
    });
    expect(none.status).toBe(403);
    expect(none.json).toMatchObject({ status: '403', property: 'client_certificate' });
    const neg = p.tls!.negativeCertificates!;
    for (const [name, c, reason] of [
      ['weak1024', neg.weak1024!, /2048/],
      ['expired', neg.expired!, /expired/],
      ['untrustedCa', neg.untrustedCa!, /trusted CA/],
    ] as const) {
      const t = await call(`${p.target.baseUrl}/oauth/partner_auth/token`, {
        method: 'POST',
        headers: {
          'X-Gateway-Client-Id': c.clientId!,
          'X-Gateway-Client-Secret': c.clientSecret!,
          MsgId: '1',
          'Content-Type': 'application/json',
        },
        body: '{}',
        tls: { ca: p.tls!.caCertificate, cert: c.certificate, key: c.privateKey },
      });
      expect(t.status, name).toBe(401);
      expect(t.json, name).toMatchObject({ error: 'invalid_client' });
      expect((t.json as { error_description: string }).error_description, name).toMatch(reason);
    }
  });

  it('a valid certificate registered to another client: 401 on OAuth, 403 on the API', async () => {
    const c = p.clients.partner;
    const res = await call(`${p.target.baseUrl}/oauth/partner_auth/token`, {
      method: 'POST',
      headers: {
        'X-Gateway-Client-Id': c.clientId,
        'X-Gateway-Client-Secret': c.clientSecret,
        MsgId: '1',
        'Content-Type': 'application/json',
      },
      body: JSON.stringify(
        await seal(
          { grant_type: 'client_credentials', scope: 'transfers' },
          { signingKey: c.privateKey!, encryptionKey: p.bank!.apiPublicKey! },
        ),
      ),
      tls: tlsOf(p, p.clients.internal),
    });
    expect(res.status).toBe(401);
    expect(res.json).toMatchObject({ error: 'invalid_client' });
    const r = await call(`${p.target.baseUrl}/v1/transfers/x`, {
      headers: { 'X-Gateway-Client-Id': 'fintech-app-001', Authorization: `Bearer ${token}` },
      tls: tlsOf(p, p.clients.partner),
    });
    expect(r.status).toBe(403);
    expect(r.json).toMatchObject({ property: 'client_certificate' });
  });

  it('a source address outside the allow-list is 403', async () => {
    const r = await call(`${p.target.baseUrl}/v1/transfers/x`, {
      headers: { 'X-Gateway-Client-Id': 'fintech-app-001', Authorization: `Bearer ${token}` },
      tls: { ...tlsOf(p, p.clients.code), localAddress: '127.0.0.2' },
    });
    expect(r.status).toBe(403);
    expect(r.json).toMatchObject({ status: '403', property: 'source_address' });
  });

  it('/authorize needs uuid and an encrypted account_id', async () => {
    const noUuid = await call(await authorizeUrl(p, 0, { uuid: '' }), { tls: tlsOf(p, p.clients.code) });
    expect(new URL(noUuid.headers.location!).searchParams.get('error')).toBe('invalid_request');
    const clear = await call(await authorizeUrl(p, 0, { account_id: p.customers[0]!.accountId }), {
      tls: tlsOf(p, p.clients.code),
    });
    expect(new URL(clear.headers.location!).searchParams.get('error')).toBe('invalid_request');
    const noCert = await call(await authorizeUrl(p), { tls: { ca: p.tls!.caCertificate } });
    expect(noCert.status).toBe(401);
  });

  it('plain, RS512-signed, A256GCM, flattened and wrongly signed bodies are 400 with no side effect', async () => {
    const body = new TextEncoder().encode(JSON.stringify(transferBody(p)));
    const bankKey = publicKeyFromPem(p.bank!.apiPublicKey!);
    const clientKey = privateKeyFromPem(p.clients.code.privateKey!);
    const jws = async (alg: string, key = clientKey) =>
      JSON.stringify(await new GeneralSign(body).addSignature(key).setProtectedHeader({ alg }).sign());
    const jwe = async (text: string, enc = 'A256CBC-HS512') =>
      JSON.stringify(
        await new GeneralEncrypt(new TextEncoder().encode(text))
          .setProtectedHeader({ alg: 'RSA-OAEP-256', enc })
          .addRecipient(bankKey)
          .encrypt(),
      );
    const cases: [string, string][] = [
      ['plain', JSON.stringify(transferBody(p))],
      ['RS512', await jwe(await jws('RS512'))],
      ['A256GCM', await jwe(await jws('RS256'), 'A256GCM')],
      ['attacker key', await jwe(await jws('RS256', privateKeyFromPem(pki.attacker.privateKeyPem)))],
      ['unsigned', await jwe(JSON.stringify(transferBody(p)))],
    ];
    const count = mock.transferCount();
    for (const [name, raw] of cases) {
      const r = await api(p, {
        method: 'PUT',
        path: `/transfers/jose-${name.replace(/\W/g, '')}`,
        token,
        raw,
        headers: { 'Content-Type': 'application/json' },
      });
      expect(r.status, name).toBe(400);
      expect(r.sealed, name).toBe(true);
    }
    expect(mock.transferCount()).toBe(count);
  });

  it('the fault jose-accept-any-jws-alg lets RS512 through (and only while on)', async () => {
    const sealedRs512 = async () => {
      const jws = await new GeneralSign(new TextEncoder().encode(JSON.stringify(transferBody(p))))
        .addSignature(privateKeyFromPem(p.clients.code.privateKey!))
        .setProtectedHeader({ alg: 'RS512' })
        .sign();
      return JSON.stringify(
        await new GeneralEncrypt(new TextEncoder().encode(JSON.stringify(jws)))
          .setProtectedHeader({ alg: 'RSA-OAEP-256', enc: 'A256CBC-HS512' })
          .addRecipient(publicKeyFromPem(p.bank!.apiPublicKey!))
          .encrypt(),
      );
    };
    mock.faults.set(['jose-accept-any-jws-alg']);
    try {
      const r = await api(p, {
        method: 'POST',
        path: '/transfers/validate',
        token,
        raw: await sealedRs512(),
        headers: { 'Content-Type': 'application/json' },
      });
      expect(r.status).toBe(200);
    } finally {
      mock.faults.set([]);
    }
    const r = await api(p, {
      method: 'POST',
      path: '/transfers/validate',
      token,
      raw: await sealedRs512(),
      headers: { 'Content-Type': 'application/json' },
    });
    expect(r.status).toBe(400);
  });

  it('the fault tls-accept-tls1_1 opens TLS 1.1 for new connections', async () => {
    const cc = {
      cert: p.clients.code.certificate!,
      key: p.clients.code.privateKey!,
      minVersion: 'TLSv1.1' as const,
      maxVersion: 'TLSv1.1' as const,
      ciphers: 'DEFAULT@SECLEVEL=0',
    };
    mock.faults.set(['tls-accept-tls1_1']);
    try {
      expect(await handshake(cc)).toBe('TLSv1.1');
    } finally {
      mock.faults.set([]);
    }
    expect(await handshake(cc)).toMatch(/^ERR/);
  });

  it('UAT client credentials: MsgId required, JSON content type required, sealed body required', async () => {
    const c = p.clients.partner;
    const url = `${p.target.baseUrl}/oauth/partner_auth/token`;
    const sealed = JSON.stringify(
      await seal(
        { grant_type: 'client_credentials', scope: 'transfers' },
        { signingKey: c.privateKey!, encryptionKey: p.bank!.apiPublicKey! },
      ),
    );
    const h = {
      'X-Gateway-Client-Id': c.clientId,
      'X-Gateway-Client-Secret': c.clientSecret,
      'Content-Type': 'application/json',
    };
    const noMsg = await call(url, { method: 'POST', headers: h, body: sealed, tls: tlsOf(p, c) });
    expect(noMsg.status).toBe(400);
    const plain = await call(url, {
      method: 'POST',
      headers: { ...h, MsgId: '2' },
      body: '{"grant_type":"client_credentials","scope":"transfers"}',
      tls: tlsOf(p, c),
    });
    expect(plain.status).toBe(400);
    const ok = await call(url, { method: 'POST', headers: { ...h, MsgId: '3' }, body: sealed, tls: tlsOf(p, c) });
    expect(ok.status).toBe(200);
    const code = await tokenCall(p, { grant_type: 'authorization_code', code: 'nope' });
    expect(code.json).toMatchObject({ error: 'invalid_grant' });
  });
});
