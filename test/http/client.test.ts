import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpClient, exchangeOf } from '../../lib/http/client.ts';
import { createRecorder } from '../../lib/http/record/recorder.ts';
import { createRedactor } from '../../lib/http/record/redact.ts';
import { TransportError, type HttpClient, type Identity } from '../../lib/http/types.ts';
import { seal } from '../../lib/jose/index.ts';
import { mask } from '../../lib/mask/index.ts';
import { testPki, type TestPki } from '../../lib/pki/index.ts';
import { json, peerInfo, startHttp, startMtls, type TestServer } from './servers.ts';

const PEM =
  '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQCANARYPEMKEY\n-----END PRIVATE KEY-----\n';
const ACCOUNT = '1234567890123';

let pki: TestPki;
let echo: TestServer;
let tls: TestServer;
let slowHits = 0;
let endHits = 0;
const servers: TestServer[] = [];
const clients: HttpClient[] = [];

function client(opts: { maxResponseBytes?: number; defaultTimeoutMs?: number } = {}) {
  const redactor = createRedactor();
  const c = createHttpClient({ redactor, defaultTimeoutMs: 5000, ...opts });
  clients.push(c);
  return { c, redactor, recorder: createRecorder() };
}

async function transportError(p: Promise<unknown>): Promise<TransportError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(TransportError);
  return e as TransportError;
}

beforeAll(async () => {
  pki = await testPki();
  echo = await startHttp((req, res, body) => {
    if (req.url === '/slow') {
      slowHits++;
      return; // never answers
    }
    if (req.url === '/start') {
      res.writeHead(302, { location: '/end?code=CANARY-redirect-code&state=s' }).end();
      return;
    }
    if (req.url === '/end') endHits++;
    if (req.url === '/big') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(Buffer.alloc(2 * 1024 * 1024, 'a'));
      return;
    }
    if (req.url === '/sealed') {
      void seal(
        { ok: true },
        { signingKey: pki.bankApi.privateKeyPem, encryptionKey: pki.clients.partner.certPem },
      ).then((jwe) => json(res, 200, jwe));
      return;
    }
    json(
      res,
      200,
      { method: req.method, url: req.url, headers: req.headers, body, remote: req.socket.remoteAddress },
      { 'set-cookie': 'sid=CANARY-cookie' },
    );
  });
  tls = await startMtls(pki, (req, res) => json(res, 200, peerInfo(req)));
  servers.push(echo, tls);
}, 60_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await Promise.all(servers.map((s) => s.close()));
});

describe('recording and redaction', () => {
  it('no canary secret reaches a recorded exchange; a clear account id becomes a marker, not its mask', async () => {
    const { c, redactor, recorder } = client();
    redactor.add(ACCOUNT, 'account-id');
    redactor.add('CANARY-registered-secret', 'client-secret');
    const basic = Buffer.from('client-1:CANARY-basic-secret').toString('base64');

    await c.send(
      {
        method: 'POST',
        url: `${echo.url}/token?account=${ACCOUNT}`,
        headers: {
          authorization: `Basic ${basic}`,
          'content-type': 'application/x-www-form-urlencoded',
          'x-note': 'CANARY-registered-secret',
        },
        body: 'grant_type=authorization_code&code=CANARY-form-code&client_secret=CANARY-form-secret',
        label: 'form',
      },
      recorder,
    );
    await c.send(
      {
        method: 'PUT',
        url: `${echo.url}/v1/accounts/${ACCOUNT}`,
        headers: { Authorization: 'Bearer CANARY-bearer-token', 'X-Gateway-Client-Secret': 'CANARY-gateway-secret' },
        body: { access_token: 'CANARY-at', refresh_token: 'CANARY-rt', key: PEM, account_id: ACCOUNT, note: 'ok' },
        label: 'json',
      },
      recorder,
    );
    expect(recorder.exchanges).toHaveLength(2);
    const text = JSON.stringify(recorder.exchanges);
    expect(text).not.toMatch(/CANARY/);
    expect(text).not.toContain(basic);
    expect(text).not.toContain(ACCOUNT);
    expect(text).not.toContain('CANARYPEMKEY');
    expect(text).not.toContain(mask(ACCOUNT));
    expect(text).toContain('[clear account id]');
    expect(text).toContain('Basic [REDACTED:credentials]');
    expect(text).toContain('Bearer [REDACTED:token]');
    const [form, put] = recorder.exchanges;
    expect(form!.label).toBe('form');
    expect(form!.response?.status).toBe(200);
    expect(form!.request.body).toBe(
      'grant_type=authorization_code&code=[REDACTED:code]&client_secret=[REDACTED:client-secret]',
    );
    expect(put!.request.headers['content-type']).toBe('application/json');
    expect(put!.response?.headers['set-cookie']).toBe('[REDACTED:cookie]');
  });

  it('truncates recorded bodies to 4 KiB', async () => {
    const { c, recorder } = client();
    await c.send({ method: 'POST', url: `${echo.url}/x`, body: 'z'.repeat(10_000) }, recorder);
    const ex = recorder.exchanges[0]!;
    expect(ex.request.body!.length).toBeLessThan(4200);
    expect(ex.request.body).toMatch(/…\[truncated, 9\.8 kB in all\]$/);
  });

  it('summarises a sealed body with its decoded headers', async () => {
    const { c, recorder } = client();
    const res = await c.send({ method: 'GET', url: `${echo.url}/sealed` }, recorder);
    expect(res.json).toHaveProperty('recipients');
    const ex = recorder.exchanges[0]!;
    expect(exchangeOf(res)).toBe(ex);
    expect(ex.response!.body).toMatch(/^<JWE general, .*alg=RSA-OAEP-256 enc=A256CBC-HS512>$/);
    expect(ex.jose).toMatchObject({ direction: 'response', form: 'JWE general' });
    expect(ex.jose!.headers[0]).toMatchObject({ alg: 'RSA-OAEP-256', enc: 'A256CBC-HS512' });
  });
});

describe('transport behaviour', () => {
  it('never follows redirects', async () => {
    const { c, recorder } = client();
    const res = await c.send({ method: 'GET', url: `${echo.url}/start` }, recorder);
    expect(res.status).toBe(302);
    expect(res.headers.location).toContain('/end');
    expect(endHits).toBe(0);
    expect(recorder.exchanges[0]!.response!.headers.location).toBe('/end?code=[REDACTED:code]&state=s');
  });

  it('a server that never answers gives a TransportError (timeout), recorded', async () => {
    const { c, recorder } = client();
    const e = await transportError(c.send({ method: 'GET', url: `${echo.url}/slow`, timeoutMs: 300 }, recorder));
    expect(e.code).toMatch(/^(ETIMEDOUT|UND_ERR_HEADERS_TIMEOUT)$/);
    expect(slowHits).toBeGreaterThan(0);
    expect(recorder.exchanges[0]!.error).toMatch(/^(ETIMEDOUT|UND_ERR_HEADERS_TIMEOUT): /);
    expect(recorder.exchanges[0]!.response).toBeUndefined();
  });

  it('caps the response body size', async () => {
    const { c } = client({ maxResponseBytes: 1024 * 1024 });
    const e = await transportError(c.send({ method: 'GET', url: `${echo.url}/big` }));
    expect(e.code).toBe('RESPONSE_TOO_LARGE');
  });

  it('a refused connection is ECONNREFUSED', async () => {
    // the port stays held on 127.0.0.1 (nothing else can take it on the wildcard address meanwhile), and is called on
    // another loopback address where nothing listens: refused every time, where a port closed just before may be
    // taken by another process on a shared machine
    const s = await startHttp(() => undefined);
    try {
      const { c } = client();
      const e = await transportError(c.send({ method: 'GET', url: `http://127.0.0.3:${s.port}/` }));
      expect(e.code).toBe('ECONNREFUSED');
    } finally {
      await s.close();
    }
  });

  it('localAddress 127.0.0.2 is the source address the server sees', async () => {
    const { c } = client();
    const res = await c.send({
      method: 'GET',
      url: `${echo.url}/who`,
      identity: { name: 'alt-source', localAddress: '127.0.0.2' },
    });
    expect((res.json as { remote: string }).remote.replace(/^::ffff:/, '')).toBe('127.0.0.2');
    const plain = await c.send({ method: 'GET', url: `${echo.url}/who` });
    expect((plain.json as { remote: string }).remote.replace(/^::ffff:/, '')).toBe('127.0.0.1');
  });
});

describe('mutual TLS', () => {
  const id = (name: string, which?: 'partner' | 'code', extra: Partial<Identity> = {}): Identity => ({
    name,
    ca: pki.bankCa.certPem,
    ...(which ? { certificate: pki.clients[which].certPem, privateKey: pki.clients[which].privateKeyPem } : {}),
    ...extra,
  });

  it('the server sees the certificate of the identity used', async () => {
    const { c } = client();
    const a = await c.send({ method: 'GET', url: tls.url, identity: id('partner', 'partner') });
    const b = await c.send({ method: 'GET', url: tls.url, identity: id('code', 'code') });
    const none = await c.send({ method: 'GET', url: tls.url, identity: id('none') });
    expect(a.json).toMatchObject({ cn: pki.clients.partner.subjectCN, authorized: true });
    expect(b.json).toMatchObject({ cn: pki.clients.code.subjectCN, authorized: true });
    expect(none.json).toMatchObject({ authorized: false });
    expect(none.json).not.toHaveProperty('cn');
  });

  it('two identities under one name never share a connection', async () => {
    const { c } = client();
    const a = await c.send({ method: 'GET', url: tls.url, identity: id('same', 'partner') });
    const b = await c.send({ method: 'GET', url: tls.url, identity: id('same', 'code') });
    expect((a.json as { cn: string }).cn).toBe(pki.clients.partner.subjectCN);
    expect((b.json as { cn: string }).cn).toBe(pki.clients.code.subjectCN);
  });

  it('client certificate and source address together', async () => {
    const { c } = client();
    const r = await c.send({
      method: 'GET',
      url: tls.url,
      identity: id('partner-alt', 'partner', { localAddress: '127.0.0.2' }),
    });
    expect(r.json).toMatchObject({ cn: pki.clients.partner.subjectCN, remote: '127.0.0.2' });
  });

  it('verifies the server certificate (an unknown CA is a TransportError)', async () => {
    const { c } = client();
    const e = await transportError(c.send({ method: 'GET', url: tls.url, identity: { name: 'no-ca' } }));
    expect(e.code).toMatch(/CERT|ISSUER|VERIFY/);
  });

  it('enforces the identity TLS version bounds', async () => {
    const { c } = client();
    const r = await c.send({
      method: 'GET',
      url: tls.url,
      identity: id('tls12', 'partner', { minVersion: 'TLSv1.2', maxVersion: 'TLSv1.2' }),
    });
    expect(r.status).toBe(200);
  });
});
