/**
 * `--proxy` plumbing (lib/tls/tunnel.ts): with a proxy set, every connection the harness opens — undici's API calls,
 * bursts, the TLS probes, the raw ClientHello — is a CONNECT tunnel through it, TLS end to end in it (the server
 * sees the harness's client certificate); a proxy's refusal or absence is said as the proxy's. Before the proxy
 * plumbing the test proxy saw no CONNECT at all. The route is a value (proxyRouteOf) handed to each of them: nothing
 * holds it in module state.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../lib/root.ts';
import { createHttpClient } from '../../lib/http/client.ts';
import { burst } from '../../lib/http/burst/burst.ts';
import { createRedactor } from '../../lib/http/record/redact.ts';
import { TransportError, type Identity } from '../../lib/http/types.ts';
import { testPki, type TestPki } from '../../lib/pki/index.ts';
import { offerSuites } from '../../lib/tls/hello.ts';
import { probeProtocol, TlsProbeError } from '../../lib/tls/probe.ts';
import {
  interceptedReason,
  parseProxyUrl,
  proxyCertificateReason,
  ProxyConfigError,
  proxyUnreachable,
  proxyRouteOf,
  withProxyCa,
  type ProxyRoute,
} from '../../lib/tls/tunnel.ts';
import { json, peerInfo, startMtls, type TestServer } from '../http/servers.ts';
import { startConnectProxy, type ConnectProxy } from './connect-proxy.ts';

let pki: TestPki;
let server: TestServer;
let proxy: ConnectProxy;
const identity = (): Identity => ({
  name: 'proxied-partner',
  ca: pki.bankCa.certPem,
  certificate: pki.clients.partner.certPem,
  privateKey: pki.clients.partner.privateKeyPem,
});

beforeAll(async () => {
  pki = await testPki();
  server = await startMtls(pki, (req, res) => json(res, req.url === '/bad-gateway' ? 502 : 200, peerInfo(req)));
  proxy = await startConnectProxy();
});
afterEach(() => {
  proxy.refuseWith = undefined;
  proxy.connects.length = 0;
});
afterAll(async () => {
  await server?.close();
  await proxy?.close();
});

describe('through a CONNECT proxy', () => {
  it('an API call goes through a tunnel, the client certificate intact (the server sees the partner)', async () => {
    const route = proxyRouteOf({ url: proxy.url });
    const c = createHttpClient({ redactor: createRedactor(), defaultTimeoutMs: 5000, proxy: route });
    try {
      const r = await c.send({ method: 'GET', url: `${server.url}/who`, identity: identity() });
      expect(r.status).toBe(200);
      expect(r.json).toMatchObject({ cn: expect.stringMatching(/partner/i) as unknown, authorized: true });
      expect(proxy.connects).toEqual([`127.0.0.1:${server.port}`]);
    } finally {
      await c.close();
    }
  });

  it("a burst's connections go through it too", async () => {
    const route = proxyRouteOf({ url: proxy.url });
    const r = await burst(
      [1, 2].map((i) => ({ method: 'POST', url: `${server.url}/b`, body: { i }, identity: identity() })),
      { readyTimeoutMs: 5000, timeoutMs: 5000, proxy: route },
    );
    expect(r.replies.map((x) => x.response?.status)).toEqual([200, 200]);
    expect(proxy.connects.length).toBeGreaterThanOrEqual(2);
  });

  it("the TLS probes' handshakes and the raw ClientHello go through it", async () => {
    const route = proxyRouteOf({ url: proxy.url });
    const p = await probeProtocol({
      host: '127.0.0.1',
      port: server.port,
      ca: pki.bankCa.certPem,
      version: 'TLSv1.2',
      proxy: route,
    });
    expect(p.accepted).toBe(true);
    const hello = await offerSuites({ host: '127.0.0.1', port: server.port, proxy: route }, [0xc02f, 0xc030]);
    expect(hello.outcome).toBe('chosen');
    expect(proxy.connects).toEqual([`127.0.0.1:${server.port}`, `127.0.0.1:${server.port}`]);
  });

  it("the proxy's refusal of a CONNECT is said as the proxy's, naming it (never the target's)", async () => {
    const route = proxyRouteOf({ url: proxy.url });
    proxy.refuseWith = 407;
    const c = createHttpClient({ redactor: createRedactor(), defaultTimeoutMs: 5000, proxy: route });
    try {
      const e = await c.send({ method: 'GET', url: `${server.url}/x`, identity: identity() }).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(TransportError);
      expect((e as TransportError).code).toBe('PROXY_REFUSED');
      expect((e as Error).message).toContain(`the proxy ${proxy.url} refused CONNECT 127.0.0.1:${server.port}: 407`);
      expect((e as Error).message).toContain('the proxy answered, not the target');
    } finally {
      await c.close();
    }
    const probe = await probeProtocol({
      host: '127.0.0.1',
      port: server.port,
      ca: pki.bankCa.certPem,
      version: 'TLSv1.2',
      proxy: route,
    }).catch((x: unknown) => x);
    expect(probe).toBeInstanceOf(TlsProbeError);
    expect((probe as TlsProbeError).code).toBe('TLS_PROBE_NETWORK');
    expect((probe as Error).message).toContain('refused CONNECT');
  });

  it("through a proxy that re-terminates TLS a 502 is the proxy's (no answer of the target's), a burst's too; through a tunnel it is the target's", async () => {
    const plain = proxyRouteOf({ url: proxy.url });
    // the test proxy only tunnels: the route says it re-terminates TLS, as --proxy-ca would (the bank CA stands in)
    const reterminating = proxyRouteOf({ url: proxy.url, ca: pki.bankCa.certPem });
    const c = createHttpClient({ redactor: createRedactor(), defaultTimeoutMs: 5000, proxy: plain });
    const i = createHttpClient({ redactor: createRedactor(), defaultTimeoutMs: 5000, proxy: reterminating });
    try {
      const direct = await c.send({ method: 'GET', url: `${server.url}/bad-gateway`, identity: identity() });
      expect(direct.status).toBe(502);
      const e = await i
        .send({ method: 'GET', url: `${server.url}/bad-gateway`, identity: { ...identity(), name: 'intercepted' } })
        .catch((x: unknown) => x);
      expect((e as TransportError).code).toBe('PROXY_BAD_GATEWAY');
      expect((e as Error).message).toContain(`the proxy ${proxy.url}, which re-terminates TLS, answered 502`);
      // a burst's replies the same way: the proxy's 502 is an error, no answer of the target's
      const b = await burst(
        [1, 2].map((n) => ({ method: 'POST', url: `${server.url}/bad-gateway`, body: { n }, identity: identity() })),
        { readyTimeoutMs: 5000, timeoutMs: 5000, proxy: reterminating },
      );
      expect(b.replies.map((x) => [x.response?.status, x.error])).toEqual([
        [undefined, 'PROXY_BAD_GATEWAY'],
        [undefined, 'PROXY_BAD_GATEWAY'],
      ]);
      const tunnelled = await burst(
        [1, 2].map((n) => ({ method: 'POST', url: `${server.url}/bad-gateway`, body: { n }, identity: identity() })),
        { readyTimeoutMs: 5000, timeoutMs: 5000, proxy: plain },
      );
      expect(tunnelled.replies.map((x) => x.response?.status)).toEqual([502, 502]);
    } finally {
      await c.close();
      await i.close();
    }
  });

  it('an unreachable proxy is named as such', async () => {
    const closed = await startConnectProxy();
    await closed.close();
    expect(await proxyUnreachable(new URL(closed.url), 2000)).toMatch(
      /^the proxy http:\/\/127\.0\.0\.1:\d+ is unreachable: ECONNREFUSED$/,
    );
    const c = createHttpClient({
      redactor: createRedactor(),
      defaultTimeoutMs: 3000,
      proxy: proxyRouteOf({ url: closed.url }),
    });
    try {
      const e = await c.send({ method: 'GET', url: `${server.url}/x`, identity: identity() }).catch((x: unknown) => x);
      expect((e as TransportError).code).toBe('PROXY_UNREACHABLE');
      expect((e as Error).message).toContain(`the proxy ${closed.url} is unreachable`);
    } finally {
      await c.close();
    }
    expect(await proxyUnreachable(new URL(proxy.url), 2000)).toBeUndefined();
  });
});

describe('proxy settings', () => {
  it("a certificate refused through a proxy: never the target's unless its CA issued it through a plain tunnel", () => {
    expect(proxyCertificateReason(undefined, { issuer: 'CN=mitmproxy', issuedByTargetCa: false })).toBeUndefined();
    const plain: ProxyRoute = { url: new URL('http://127.0.0.1:8080'), intercepting: false };
    // a plain tunnel: the target's own certificate (its CA's) is judged; another CA's may be a proxy's own
    expect(proxyCertificateReason(plain, { issuer: 'CN=Bank CA', issuedByTargetCa: true })).toBeUndefined();
    const other = proxyCertificateReason(plain, { issuer: 'CN=mitmproxy', issuedByTargetCa: false })!;
    expect(other).toContain('through the proxy http://127.0.0.1:8080 (issued by CN=mitmproxy) was not issued by');
    expect(other).toContain('--proxy-ca');
    // re-terminating (--proxy-ca): every certificate is the proxy's, and the proxy's upstream trust is named
    const reterminating: ProxyRoute = { ...plain, ca: pki.bankCa.certPem, intercepting: true };
    const intercepted = proxyCertificateReason(reterminating, { issuer: 'CN=mitmproxy', issuedByTargetCa: true })!;
    expect(intercepted).toContain('which re-terminates TLS (issued by CN=mitmproxy)');
    expect(intercepted).toContain('ssl_verify_upstream_trusted_ca');
  });

  it('a proxy URL that is not http://host:port is one line naming --proxy', () => {
    for (const bad of ['nonsense', 'https://127.0.0.1:8080', 'http://u:p@127.0.0.1:8080', 'http://127.0.0.1:8080/x'])
      expect(() => parseProxyUrl(bad)).toThrow(ProxyConfigError);
    expect(() => parseProxyUrl('nonsense')).toThrow(/^--proxy: "nonsense" is not a URL/);
    expect(parseProxyUrl('http://127.0.0.1:8080').port).toBe('8080');
  });

  it("an intercepting proxy's CA is trusted besides the profile's, and its presence says the handshake is not judged", () => {
    expect(withProxyCa(undefined, 'PROFILE-CA')).toBe('PROFILE-CA');
    expect(interceptedReason(undefined)).toBeUndefined();
    const plain: ProxyRoute = { url: new URL(proxy.url), intercepting: false };
    expect(withProxyCa(plain, 'PROFILE-CA')).toBe('PROFILE-CA');
    expect(interceptedReason(plain)).toBeUndefined();
    const reterminating: ProxyRoute = { ...plain, ca: 'PROXY-CA', intercepting: true };
    expect(withProxyCa(reterminating, 'PROFILE-CA')).toEqual(['PROFILE-CA', 'PROXY-CA']);
    expect(interceptedReason(reterminating)).toMatch(/re-terminates TLS/);
  });
});

describe('every connection the harness opens knows the proxy', () => {
  /** the TypeScript files under `dir` (recursively) */
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
      d.isDirectory() ? files(join(dir, d.name)) : d.name.endsWith('.ts') ? [join(dir, d.name)] : [],
    );
  const OPENS = /\b(net|tls)\.connect\(|^import \{[^}]*\bconnect\b[^}]*\} from 'node:(tls|net)'/m;

  it("each file of lib/ and suites/ that opens a socket (the mock aside) routes it through the run's proxy", () => {
    const opening = [...files(join(ROOT, 'lib')), ...files(join(ROOT, 'suites'))]
      .filter((f) => !f.includes(`${join('lib', 'mock')}`))
      .filter((f) => OPENS.test(readFileSync(f, 'utf8')))
      .map((f) => relative(ROOT, f));
    expect(opening.sort()).toEqual([
      'lib/engine/session/prerequisite-handshake.ts',
      'lib/http/connections/connect.ts',
      'lib/negative/server-key.ts',
      'lib/tls/connect.ts',
      'lib/tls/hello.ts',
      'lib/tls/tunnel.ts',
    ]);
    // each takes the route as a value (a ProxyRoute parameter or option, or the check context's): none reads a global
    for (const f of opening.filter((x) => x !== 'lib/tls/tunnel.ts')) {
      const text = readFileSync(join(ROOT, f), 'utf8');
      expect(text, f).toMatch(/\bProxyRoute\b|\bctx\.proxy\b/);
      expect(text, f).not.toMatch(/\bproxyRoute\(\)|routeThroughProxy/);
    }
  });

  it('the route is a value: lib/tls/tunnel.ts exports no setter nor getter of it, and holds no mutable module state', async () => {
    const tunnel = await import('../../lib/tls/tunnel.ts');
    const exported = Object.keys(tunnel);
    expect(exported).toContain('proxyRouteOf');
    expect(exported.filter((n) => /^(set|use|routeThrough)|^proxyRoute$/i.test(n))).toEqual([]);
    const source = readFileSync(join(ROOT, 'lib/tls/tunnel.ts'), 'utf8');
    // no module-level binding that can change, nor a container one could be kept in
    expect(source).not.toMatch(/^(export )?(let|var)\s/m);
    expect(source).not.toMatch(/^(export )?const \w+(: [^=]+)? = new (Map|WeakMap|Set|Array)\b/m);
    // the same input, the same route, and a new object each time (nothing shared between two runs)
    const a = tunnel.proxyRouteOf({ url: 'http://127.0.0.1:8080', ca: 'CA' });
    const b = tunnel.proxyRouteOf({ url: 'http://127.0.0.1:8080', ca: 'CA' });
    expect(a).toEqual({ url: new URL('http://127.0.0.1:8080'), ca: 'CA', intercepting: true });
    expect(a).not.toBe(b);
    expect(tunnel.proxyRouteOf({ url: 'http://127.0.0.1:8080' })).toEqual({
      url: new URL('http://127.0.0.1:8080'),
      intercepting: false,
    });
  });
});
