/**
 * lib/http/connections/sockets.ts and the connections of lib/http/client.ts to a small target (docs/design.md): the harness's
 * connections across its Agents (one per identity) stay within the places a target has shown, idle ones of other
 * identities freed first; a connection is kept while the server's announced keep-alive allows it.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, describe, expect, test } from 'vitest';
import { createHttpClient } from '../../lib/http/client.ts';
import { createRedactor } from '../../lib/http/record/redact.ts';
import { SocketBook } from '../../lib/http/connections/sockets.ts';
import type { Identity } from '../../lib/http/types.ts';
import { startAcceptQueue, type AcceptQueue } from '../../lib/mock/server/accept-queue.ts';

const O = 'http://127.0.0.1:1';

describe('socket book', () => {
  function book(cap: number | undefined) {
    const retired: number[] = [];
    const b = new SocketBook({
      cap: () => cap,
      retire: (n) => {
        retired.push(n);
        return Promise.resolve();
      },
    });
    return { b, retired };
  }

  test("beyond the target's places, another Agent's idle connections are freed before a new one is opened", () => {
    const { b, retired } = book(2);
    b.connecting(O, 1);
    b.connecting(O, 1);
    expect(b.open(O)).toBe(2);
    expect(b.idle(O)).toBe(2);
    b.connecting(O, 2);
    expect(retired).toEqual([1]);
  });

  test('busy connections are never freed, nor those of the Agent that connects', () => {
    const { b, retired } = book(2);
    b.connecting(O, 1);
    const end = b.call(O, 1);
    b.connecting(O, 2);
    b.connecting(O, 2);
    expect(retired).toEqual([]);
    expect(b.idle(O)).toBe(2);
    end();
    expect(b.idle(O)).toBe(3);
  });

  test('no limit shown: nothing is freed; a closed connection is no longer counted', () => {
    const { b, retired } = book(undefined);
    const held = [1, 2, 3].map((n) => b.connecting(O, n));
    b.connecting(O, 4);
    expect(retired).toEqual([]);
    held[0]!.closed();
    held[0]!.closed();
    expect(b.open(O)).toBe(3);
  });

  test('vacate frees every idle connection to the target (a burst alone)', async () => {
    const { b, retired } = book(undefined);
    b.connecting(O, 1);
    b.connecting(O, 2);
    b.call(O, 2);
    b.connecting(O, 3);
    await b.vacate(O);
    expect(retired.sort()).toEqual([1, 3]);
    expect(b.retiredFor(O)).toBe(2);
  });

  test('vacate keeps the idle connections the target has shown it holds: whole Agents retired, the idlest first, until no more are left', async () => {
    const { b, retired } = book(undefined);
    for (const [agent, n] of [
      [1, 1],
      [2, 3],
      [3, 2],
    ] as const)
      for (let i = 0; i < n; i++) b.connecting(O, agent);
    expect(b.idle(O)).toBe(6);
    await b.vacate(O, 6);
    expect(retired).toEqual([]);
    // 6 idle, 3 may stay: Agent 2 (3 idle) is retired and that is enough
    await b.vacate(O, 3);
    expect(retired).toEqual([2]);
  });
});

/** an HTTP server that counts its connections, the most open at once, and the calls */
async function countingServer(keepAliveMs: number) {
  const seen = { connections: 0, most: 0 };
  const sockets: Socket[] = [];
  const server: Server = createServer({ keepAliveTimeout: keepAliveMs }, (_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end('{"ok":true}');
  });
  server.on('connection', (s: Socket) => {
    seen.connections++;
    sockets.push(s);
    seen.most = Math.max(seen.most, sockets.filter((x) => !x.destroyed).length);
  });
  return { server, seen };
}

const closing: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of closing) await c();
});

describe('connections to a small target', () => {
  test("a server announcing Keep-Alive timeout=2 has its connection reused, not one per call (undici's 2 s margin)", async () => {
    const { server, seen } = await countingServer(2000);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    closing.push(() => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/x`;
    const client = createHttpClient({ redactor: createRedactor() });
    for (let i = 0; i < 5; i++) expect((await client.send({ method: 'GET', url })).status).toBe(200);
    await client.close();
    // one, or two when undici had not freed the first yet as the next call came (it opens another then)
    expect(seen.connections).toBeLessThanOrEqual(2);
  });

  test("another identity's idle connection is closed rather than left holding the target's one place", async () => {
    // one place (maxConnections 1): a connection beyond it waits, unread, until the kept one is closed
    const { server, seen } = await countingServer(30_000);
    const queue: AcceptQueue = await startAcceptQueue(server, '127.0.0.1', 0, { backlog: 5, maxConnections: 1 });
    closing.push(async () => {
      server.closeAllConnections();
      await queue.close();
    });
    const url = `http://127.0.0.1:${queue.address().port}/x`;
    const client = createHttpClient({ redactor: createRedactor() });
    // the target showed two places to a burst that had it to itself: the window keeps one (one left for turnover)
    const w = client.window!(url);
    w.burstAccepted(4, 2, { alone: true });
    expect(w.places()).toBe(1);
    const a: Identity = { name: 'a' };
    const b: Identity = { name: 'b' };
    for (const id of [a, b, a, b]) expect((await client.send({ method: 'GET', url, identity: id })).status).toBe(200);
    const traffic = client.traffic!();
    await client.close();
    // each identity's kept connection was closed before the other's was opened: never two at the target at once,
    // so none waited in its queue for the 30 s keep-alive of the other
    expect(seen.most).toBe(1);
    expect(Object.values(traffic)[0]?.idleFreed).toBe(3);
  });
});
