/**
 * lib/http/connections/spares.ts and its use by the client: connections opened ahead of the calls of a target that
 * closes after every answer, only within the room the caller gives (none before a close was seen, none past the
 * window and the connections the target was seen to hold), one identity's never another's, none left open at the end.
 */
import { afterAll, describe, expect, test, vi } from 'vitest';
import http from 'node:http';
import net from 'node:net';
import { createHttpClient, createRedactor } from '../../lib/http/index.ts';
import { AHEAD, MAX_AGE_MS, MOST_AHEAD, REFRESHES, Spares } from '../../lib/http/connections/spares.ts';
import type { Identity } from '../../lib/http/types.ts';
import { testPki } from '../../lib/pki/index.ts';
import { proxyRouteOf } from '../../lib/tls/tunnel.ts';
import { startConnectProxy } from '../proxy/connect-proxy.ts';
import { json, peerInfo, startMtls } from './servers.ts';

const servers: { close(): Promise<void> }[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

/** an HTTP server that closes after every answer, counting the connections open to it (an independent count) */
async function closingServer(): Promise<{ url: string; open: () => number; accepted: () => number }> {
  let open = 0;
  let accepted = 0;
  const server = http.createServer((_req, res) => {
    res.shouldKeepAlive = false;
    res.setHeader('content-type', 'application/json');
    res.end('{"ok":true}');
  });
  server.on('connection', (s: net.Socket) => {
    open++;
    accepted++;
    s.once('close', () => open--);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  servers.push({
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  });
  const port = (server.address() as net.AddressInfo).port;
  return { url: `http://127.0.0.1:${port}`, open: () => open, accepted: () => accepted };
}

/**
 * resolves once `cond` holds, or after `rounds` turns of the event loop's timers: the bound only stops a test that
 * would hang (about 10 s at 5 ms a turn, past any slow machine's event), no wall-time assertion
 */
async function until(cond: () => boolean, rounds = 2000): Promise<boolean> {
  for (let i = 0; i < rounds && !cond(); i++) await new Promise((r) => setTimeout(r, 5));
  return cond();
}

/** a plain TCP connection to `url`'s port, as a pool opens one */
const opener = (url: string) => (): Promise<net.Socket> =>
  new Promise((resolve, reject) => {
    const s = net.connect({ host: '127.0.0.1', port: Number(new URL(url).port) });
    s.once('connect', () => resolve(s));
    s.once('error', reject);
  });

describe('connections opened ahead (Spares)', () => {
  test('none without room; within the room at most AHEAD; handed out once; the rest closed at the end', async () => {
    const srv = await closingServer();
    const open = opener(srv.url);
    let room = 0;
    const spares = new Spares(() => room);
    spares.fill('k', srv.url, open);
    expect(spares.size()).toBe(0);
    room = 1;
    spares.fill('k', srv.url, open);
    expect(await until(() => srv.open() === 1)).toBe(true);
    room = 10;
    spares.fill('k', srv.url, open);
    expect(await until(() => srv.open() === AHEAD)).toBe(true);
    expect(spares.size()).toBe(AHEAD);
    const taken = spares.take('k');
    expect(taken).toBeDefined();
    expect(spares.take('other key')).toBeUndefined();
    expect(spares.size()).toBe(AHEAD - 1);
    spares.close();
    taken!.destroy();
    // every connection opened ahead closed, as the server sees it
    expect(await until(() => srv.open() === 0)).toBe(true);
    // closed: nothing more is opened
    spares.fill('k', srv.url, open);
    expect(spares.size()).toBe(0);
  });

  test("as many as the pool's calls asked for within MAX_AGE_MS (MOST_AHEAD at most); AHEAD once they are older", async () => {
    const srv = await closingServer();
    const open = opener(srv.url);
    // the pool's clock is the test's: its asks age by the test's moves, not by the machine's time
    vi.useFakeTimers({ toFake: ['performance'] });
    try {
      const spares = new Spares(() => 1000);
      // a batch of 20 calls found none ready
      for (let i = 0; i < 20; i++) expect(spares.take('k')).toBeUndefined();
      spares.fill('k', srv.url, open);
      expect(spares.size()).toBe(20);
      expect(await until(() => srv.open() === 20)).toBe(true);
      // 80 asks in all: MOST_AHEAD at most
      for (let i = 0; i < 60; i++) spares.take('other');
      for (let i = 0; i < 20; i++) spares.take('other');
      spares.fill('other', srv.url, open);
      expect(spares.size()).toBe(20 + MOST_AHEAD);
      spares.close();
      expect(await until(() => srv.open() === 0)).toBe(true);
      // asks older than MAX_AGE_MS no longer count: AHEAD
      const later = new Spares(() => 1000);
      for (let i = 0; i < 20; i++) later.take('k');
      vi.advanceTimersByTime(MAX_AGE_MS + 1);
      later.fill('k', srv.url, open);
      expect(later.size()).toBe(AHEAD);
      later.close();
      expect(await until(() => srv.open() === 0)).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  test('one too old is closed and replaced, REFRESHES times in a row at most; then the pool is empty', async () => {
    const srv = await closingServer();
    const port = Number(new URL(srv.url).port);
    const open = (): Promise<net.Socket> =>
      new Promise((resolve) => {
        const s = net.connect({ host: '127.0.0.1', port }, () => resolve(s));
      });
    // a short age: the count of connections is what is judged, not when they were made
    const spares = new Spares(() => 1, 20);
    spares.fill('k', srv.url, open);
    // the first one and its REFRESHES replacements, each once the one before was closed
    expect(await until(() => srv.accepted() === 1 + REFRESHES && srv.open() === 0 && spares.size() === 0)).toBe(true);
    // the last replacement's close opens none (the state above is final)
    spares.close();
    expect(srv.accepted()).toBe(1 + REFRESHES);
  });

  test('a connection the target closed while it waited is never handed out', async () => {
    const srv = await closingServer();
    const port = Number(new URL(srv.url).port);
    const sockets: net.Socket[] = [];
    const open = (): Promise<net.Socket> =>
      new Promise((resolve) => {
        const s = net.connect({ host: '127.0.0.1', port }, () => resolve(s));
        sockets.push(s);
      });
    const spares = new Spares(() => 1);
    spares.fill('k', srv.url, open);
    expect(await until(() => spares.size() === 1 && sockets[0]?.readyState === 'open')).toBe(true);
    sockets[0]!.destroy();
    expect(await until(() => spares.size() === 0)).toBe(true);
    expect(spares.take('k')).toBeUndefined();
    spares.close();
  });
});

describe('the client against a target that closes after every answer', () => {
  test('after the first close its calls find connections opened ahead; none stays open after close()', async () => {
    const srv = await closingServer();
    const client = createHttpClient({ redactor: createRedactor() });
    try {
      // one call at a time: the next call's connection is opened while the call before it is answered
      for (let i = 0; i < 6; i++) {
        const r = await client.send({ method: 'GET', url: `${srv.url}/x` });
        expect(r.status).toBe(200);
        // a close seen once: the connections opened ahead wait beside the one in use, never past what the target
        // was seen to hold with the window (one call in flight at most here: one ahead once the call's was closed)
        expect(srv.open()).toBeLessThanOrEqual(1 + AHEAD);
      }
      // wider: 4 calls in flight, then one after another
      await Promise.all(Array.from({ length: 4 }, () => client.send({ method: 'GET', url: `${srv.url}/x` })));
      for (let i = 0; i < 4; i++) await client.send({ method: 'GET', url: `${srv.url}/x` });
      const w = Object.values(client.traffic?.() ?? {})[0]!;
      expect(w.closedByTarget).toBe(14);
      expect(w.connects).toBe(14);
      // the calls one after another after the wide round found their connection opened ahead
      expect(w.connectsAhead ?? 0).toBeGreaterThanOrEqual(3);
      // never more connections than the window let be in flight and the target was seen to hold (4 at once)
      expect(srv.accepted()).toBeLessThanOrEqual(14 + AHEAD * 2);
    } finally {
      await client.close();
    }
    expect(await until(() => srv.open() === 0)).toBe(true);
  });
});

describe('a target seen holding one connection at a time (a test clock’s control)', () => {
  test('each call after the first two finds its connection opened ahead, once the one before was closed: never more connections than calls and one waiting', async () => {
    const srv = await closingServer();
    const client = createHttpClient({ redactor: createRedactor() });
    const calls = 8;
    try {
      expect((await client.send({ method: 'GET', url: `${srv.url}/clock` })).status).toBe(200);
      for (let i = 1; i < calls; i++) {
        expect((await client.send({ method: 'GET', url: `${srv.url}/clock` })).status).toBe(200);
        // a close seen: the next call's connection, opened once this one's was closed, accepted by the target
        // before the next call (as a clock move comes after other calls)
        expect(await until(() => srv.accepted() === i + 2)).toBe(true);
      }
      const w = Object.values(client.traffic?.() ?? {})[0]!;
      expect(w.largest).toBe(1);
      expect(w.connects).toBe(calls);
      // the first call sees no close yet, the second may not (the close is learnt with its answer): the rest are
      // served on a connection opened while nothing else was open (before: none, the target never held two at once)
      expect(w.connectsAhead ?? 0).toBeGreaterThanOrEqual(calls - 2);
      // one connection a call, and at most one more waiting for the next call
      expect(srv.accepted()).toBeLessThanOrEqual(calls + 1);
    } finally {
      await client.close();
    }
    expect(await until(() => srv.open() === 0)).toBe(true);
  });
});

describe('identities and the proxy', () => {
  test('two identities alternating: each call is answered on its own certificate; through a proxy, every connection a tunnel', async () => {
    const pki = await testPki();
    let accepted = 0;
    const server = await startMtls(pki, (req, res) => json(res, 200, peerInfo(req), { connection: 'close' }));
    const proxy = await startConnectProxy();
    const tls = (name: 'partner' | 'internal'): Identity => ({
      name,
      ca: pki.bankCa.certPem,
      certificate: pki.clients[name].certPem,
      privateKey: pki.clients[name].privateKeyPem,
    });
    const client = createHttpClient({
      redactor: createRedactor(),
      defaultTimeoutMs: 5000,
      proxy: proxyRouteOf({ url: proxy.url }),
    });
    try {
      const seen: [string, string | undefined][] = [];
      // a wide round first (the target seen holding several connections), then one call at a time
      await Promise.all(
        (['partner', 'internal', 'partner', 'internal'] as const).map((n) =>
          client.send({ method: 'GET', url: `${server.url}/who`, identity: tls(n) }),
        ),
      );
      for (let i = 0; i < 8; i++) {
        const name = i % 2 ? 'internal' : 'partner';
        const r = await client.send({ method: 'GET', url: `${server.url}/who`, identity: tls(name) });
        seen.push([name, (r.json as { cn?: string }).cn]);
        accepted++;
      }
      // the server saw each call's own identity (its certificate's CN names it), never the other's
      for (const [name, cn] of seen) expect(cn?.toLowerCase()).toContain(name);
      const w = Object.values(client.traffic?.() ?? {})[0]!;
      expect(w.connectsAhead ?? 0).toBeGreaterThanOrEqual(2);
      // every connection, those opened ahead included, was a CONNECT tunnel to the server
      expect(new Set(proxy.connects)).toEqual(new Set([`127.0.0.1:${server.port}`]));
      expect(proxy.connects.length).toBeGreaterThanOrEqual(4 + accepted);
    } finally {
      await client.close();
      await server.close();
      await proxy.close();
    }
  });
});
