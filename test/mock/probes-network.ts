/**
 * Fault probes: TLS, QUOTA, CONV, hardening (8b) and races.
 * Gathered by test/mock/faults.test.ts (every test/mock/probes-*.ts), which runs each without and with its fault.
 */
import { createHash } from 'node:crypto';
import tls from 'node:tls';
import { expect } from 'vitest';
import { advance, api, call, codeFlow, tlsOf, tokenCall, transferBody } from './helpers.ts';
import {
  type Probe,
  certGatePassed,
  codeFromAuthorize,
  gets,
  handshake,
  internalBody,
  internalToken,
  serverCertRefusal,
  tok,
  verifiedServer,
} from './probe-kit.ts';

export const PROBES: Record<string, Probe> = {
  // TLS
  'tls-accept-tls1_1': (x) =>
    handshake(x, { minVersion: 'TLSv1.1', maxVersion: 'TLSv1.1', ciphers: 'DEFAULT@SECLEVEL=0' }),
  'mtls-optional': (x) => certGatePassed(x, 'fintech-app-001'),
  'accept-weak-client-key': (x) =>
    certGatePassed(
      x,
      'weak-client-001',
      x.p.tls!.negativeCertificates!.weak1024 as { certificate: string; privateKey: string },
    ),
  'accept-expired-client-cert': (x) =>
    certGatePassed(
      x,
      'expired-client-001',
      x.p.tls!.negativeCertificates!.expired as { certificate: string; privateKey: string },
    ),
  'accept-untrusted-ca': (x) =>
    certGatePassed(
      x,
      'untrusted-client-001',
      x.p.tls!.negativeCertificates!.untrustedCa as { certificate: string; privateKey: string },
    ),
  'cert-not-bound-to-client': (x) =>
    certGatePassed(
      x,
      'fintech-app-001',
      x.p.tls!.negativeCertificates!.unregistered as { certificate: string; privateKey: string },
    ),
  'server-cert-weak-key': async (x) => ((await verifiedServer(x)).bits ?? 2048) < 2048,
  'server-cert-wrong-host': async (x) => (await serverCertRefusal(x)) === 'ERR_TLS_CERT_ALTNAME_INVALID',
  'server-cert-unknown-ca': async (x) =>
    /UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT/.test((await serverCertRefusal(x)) ?? ''),
  'server-cert-expired': async (x) => (await serverCertRefusal(x)) === 'CERT_HAS_EXPIRED',
  'server-cert-not-yet-valid': async (x) => (await serverCertRefusal(x)) === 'CERT_NOT_YET_VALID',
  'allow-list-off': async (x) => {
    const r = await call(`${x.p.target.baseUrl}/v1/transfers/x`, {
      headers: { 'X-Gateway-Client-Id': 'fintech-app-001' },
      tls: { ...tlsOf(x.p, x.p.clients.code), localAddress: '127.0.0.2' },
    });
    return r.status === 401;
  },
  // anonymous suites carry no server certificate: the probe only asks whether the server agrees to one
  'tls-weak-ciphers': (x) =>
    handshake(x, {
      maxVersion: 'TLSv1.2',
      ciphers: 'AECDH-AES128-SHA:ADH-AES128-SHA@SECLEVEL=0',
      rejectUnauthorized: false,
    }),
  // QUOTA
  'quota-off': async (x) => !(await gets(x, await internalToken(x), 101)).includes(429),
  'quota-no-retry-after': async (x) => {
    const t = await internalToken(x);
    await gets(x, t, 100);
    const r = await api(x.p, { method: 'GET', path: '/transfers/over', token: t, client: x.p.clients.internal! });
    expect(r.status).toBe(429);
    return r.res.headers['retry-after'] === undefined;
  },
  'quota-shared-window': async (x) => {
    const t = await internalToken(x);
    for (let i = 0; i < 101; i++)
      await api(x.p, {
        method: 'POST',
        path: '/transfers/validate',
        token: t,
        client: x.p.clients.internal!,
        body: internalBody(x),
      });
    return (await gets(x, t, 1))[0] === 429;
  },
  'quota-window-reopens-late': async (x) => {
    await gets(x, await internalToken(x), 101);
    await advance(x.p, 3601);
    const late = (await gets(x, await internalToken(x), 1))[0] === 429;
    await advance(x.p, 3601);
    // two hours on, the window is open again in any case
    expect((await gets(x, await internalToken(x), 1))[0]).toBe(404);
    return late;
  },
  'quota-refusal-side-effect': async (x) => {
    const t = await internalToken(x);
    const c = x.p.clients.internal!;
    for (let i = 0; i < 100; i++)
      await api(x.p, {
        method: 'PUT',
        path: `/transfers/qs-${Date.now()}-${i}`,
        token: t,
        client: c,
        body: internalBody(x),
      });
    const id = `/transfers/qs-over-${Date.now()}`;
    expect((await api(x.p, { method: 'PUT', path: id, token: t, client: c, body: internalBody(x) })).status).toBe(429);
    return (await api(x.p, { method: 'GET', path: id, token: t, client: c })).status === 200;
  },
  // CONV
  'basepath-unversioned': async (x) => {
    const base = x.mock.profile().target.paths!.transfersBasepath!;
    const r = await call(`${x.p.target.baseUrl}${base}/transfers/none`, {
      headers: { 'X-Gateway-Client-Id': x.p.clients.code.clientId, Authorization: `Bearer ${await tok(x)}` },
      tls: tlsOf(x.p, x.p.clients.code),
    });
    return !/^\/v\d+/.test(base) && r.status === 404;
  },
  'empty-body-accepted': async (x) =>
    (await api(x.p, { method: 'POST', path: '/transfers/validate', token: await tok(x), raw: '' })).status === 200,
  // (8b)
  'body-size-unlimited': async (x) =>
    (
      await api(x.p, {
        method: 'POST',
        path: '/transfers/validate',
        token: await tok(x),
        raw: `{"pad": "${'x'.repeat(1024 * 1024 + 16)}"}`,
      })
    ).status !== 413,
  'code-token-no-refresh-expiry': async (x) => {
    const t = await codeFlow(x.p);
    return typeof t.refresh_token === 'string' && !('refresh_token_expires_in' in t);
  },
  'pkce-verifier-not-checked': async (x) => {
    const verifier = 'v'.repeat(43);
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const cb = await codeFromAuthorize(x, { code_challenge: challenge, code_challenge_method: 'S256' });
    const code = cb!.searchParams.get('code')!;
    return (await tokenCall(x.p, { grant_type: 'authorization_code', code })).status === 200;
  },
  'authorize-scope-optional': async (x) =>
    (await codeFromAuthorize(x, { scope: '' }))?.searchParams.has('code') === true,
  'put-other-customer-replaces': async (x) => {
    const id = `T-${Math.random().toString(36).slice(2)}`;
    await api(x.p, { method: 'PUT', path: `/transfers/${id}`, token: await tok(x, 0), body: transferBody(x.p, 0) });
    const over = transferBody(x.p, 2, { amount: { value: '7.00', currency: 'AED' } });
    await api(x.p, { method: 'PUT', path: `/transfers/${id}`, token: await tok(x, 2), body: over });
    const got = await api(x.p, { method: 'GET', path: `/transfers/${id}`, token: await tok(x, 0) });
    return (got.body.amount as { value?: string } | undefined)?.value === '7.00';
  },
  'tls12-refused': async (x) => {
    const u = new URL(x.p.target.baseUrl);
    const c = x.p.clients.code;
    return new Promise<boolean>((resolve) => {
      const sock = tls.connect({
        host: u.hostname,
        port: Number(u.port),
        ca: x.p.tls!.caCertificate,
        cert: c.certificate!,
        key: c.privateKey!,
        minVersion: 'TLSv1.2',
        maxVersion: 'TLSv1.2',
        servername: 'localhost',
        rejectUnauthorized: false,
      });
      sock.once('secureConnect', () => {
        sock.destroy();
        resolve(false);
      });
      sock.once('error', () => resolve(true));
    });
  },
  'server-software-headers': async (x) => {
    const r = await api(x.p, { method: 'GET', path: '/transfers/none', token: await tok(x) });
    return r.res.headers.server === 'nginx/1.25.3' && r.res.headers['x-powered-by'] === 'Express';
  },
  // races (11): ten concurrent calls (plain Promise.all, not the harness's burst)
  'race-put-check-then-act': async (x) => {
    const token = await tok(x);
    const path = `/transfers/race-${Date.now()}`;
    const all = await Promise.all(
      Array.from({ length: 10 }, () => api(x.p, { method: 'PUT', path, token, body: transferBody(x.p) })),
    );
    return new Set(all.map((r) => r.body.payment_reference_id)).size > 1;
  },
  'race-code-exchange': async (x) => {
    const code = (await codeFromAuthorize(x, {}))!.searchParams.get('code')!;
    const all = await Promise.all(
      Array.from({ length: 10 }, () => tokenCall(x.p, { grant_type: 'authorization_code', code })),
    );
    return all.filter((r) => r.status === 200).length > 1;
  },
  'race-refresh': async (x) => {
    const rt = (await codeFlow(x.p)).refresh_token as string;
    const all = await Promise.all(
      Array.from({ length: 10 }, () => tokenCall(x.p, { grant_type: 'refresh_token', refresh_token: rt })),
    );
    return all.filter((r) => r.status === 200).length > 1;
  },
  'race-quota': async (x) => {
    const t = await internalToken(x);
    await gets(x, t, 95);
    const path = '/transfers/race-quota';
    const all = await Promise.all(
      Array.from({ length: 10 }, () => api(x.p, { method: 'GET', path, token: t, client: x.p.clients.internal! })),
    );
    return all.filter((r) => r.status !== 429).length > 5;
  },
};
