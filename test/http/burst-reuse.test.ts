/**
 * lib/http/burst/burst.ts with a pool of kept connections (burst-pool.ts, docs/performance.md): a burst takes the idle
 * connections an earlier burst of the same identity and origin left, one per request, and opens new ones for the rest;
 * a kept connection the target closed is dropped, one that fails before the release is replaced by a new one (its
 * request still released with the others), one that fails after the release is the request's transport error; nothing
 * is kept for a target that has shown a limit, and the pool's close closes every kept connection.
 */
import { createServer as createHttp, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttps } from 'node:https';
import { createServer as createNet, type Server as NetServer, type Socket } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { burst, recordBurstReply } from '../../lib/http/burst/burst.ts';
import { BurstPool, idleMsOf } from '../../lib/http/burst/burst-pool.ts';
import { createRedactor } from '../../lib/http/record/redact.ts';
import type { HttpRequest, Identity } from '../../lib/http/types.ts';
import { testPki } from '../../lib/pki/index.ts';

/** what the server saw: connections accepted, requests per connection, and what to do with a connection's nth request */
interface Seen {
  connections: number;
  handshakes: number;
  /** `(n, phase)`: destroy the connection at its nth request's head or once its body has come (after the release) */
  kill?: (n: number, phase: 'head' | 'end') => boolean;
  /** a connection killed at a head answers 408 and closes (a server that timed it out as it was written on) */
  timeout408?: boolean;
}

const servers: (Server | NetServer)[] = [];
afterAll(async () => {
  for (const s of servers) {
    if ('closeAllConnections' in s) s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

function handler(seen: Seen) {
  const count = new WeakMap<Socket, number>();
  return (req: IncomingMessage, res: ServerResponse): void => {
    const n = (count.get(req.socket) ?? 0) + 1;
    count.set(req.socket, n);
    if (seen.kill?.(n, 'head')) {
      if (!seen.timeout408) return void req.socket.destroy();
      res.writeHead(408, { connection: 'close' });
      return void res.end();
    }
    req.resume();
    req.on('end', () => {
      if (seen.kill?.(n, 'end')) return void req.socket.destroy();
      res.setHeader('content-type', 'application/json');
      res.end(`{"n":${n}}`);
    });
  };
}

async function listen(s: Server | NetServer, seen: Seen): Promise<string> {
  servers.push(s);
  s.on('connection', () => seen.connections++);
  s.on('secureConnection', () => seen.handshakes++);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const a = s.address();
  return typeof a === 'object' && a ? String(a.port) : '';
}

let identity: Identity;
let pki: Awaited<ReturnType<typeof testPki>>;
beforeAll(async () => {
  pki = await testPki();
  identity = { name: 'burst-reuse', ca: pki.bankCa.certPem };
});

const reqs = (url: string, n: number, id?: Identity): HttpRequest[] =>
  Array.from({ length: n }, (_, i) => ({ method: 'POST', url, body: { i }, ...(id ? { identity: id } : {}) }));

test('a second burst takes the first one’s kept connections (TLS: no new handshake), one request per connection', async () => {
  const seen: Seen = { connections: 0, handshakes: 0 };
  const s = createHttps({ key: pki.server.privateKeyPem, cert: pki.server.certPem }, handler(seen));
  const url = `https://localhost:${await listen(s, seen)}/x`;
  const pool = new BurstPool();
  const first = await burst(reqs(url, 3, identity), { pool });
  expect(first.ready).toBe(3);
  expect(first.reused).toBeUndefined();
  // a wider burst: three kept connections, one new
  const second = await burst(reqs(url, 4, identity), { pool });
  expect(second.ready).toBe(4);
  expect(second.reused).toBe(3);
  expect(second.replies.map((r) => r.response?.status)).toEqual([200, 200, 200, 200]);
  // each request was its connection's second at most (never two of one burst on one connection)
  expect(second.replies.map((r) => (r.response?.json as { n: number }).n).sort()).toEqual([1, 2, 2, 2]);
  expect(seen.handshakes).toBe(4);
  expect(seen.connections).toBe(4);
  // another identity (other TLS settings) never takes them
  const other = await burst(reqs(url, 1, { ...identity, name: 'other' }), { pool });
  expect(other.reused).toBeUndefined();
  pool.close();
});

test('kept connections the target closed while idle are dropped: the next burst opens new ones', async () => {
  const seen: Seen = { connections: 0, handshakes: 0 };
  const s = createHttp(handler(seen));
  const url = `http://127.0.0.1:${await listen(s, seen)}/x`;
  const pool = new BurstPool();
  await burst(reqs(url, 2), { pool });
  s.closeIdleConnections();
  await new Promise((r) => setTimeout(r, 50));
  const r = await burst(reqs(url, 2), { pool });
  expect(r.reused).toBeUndefined();
  expect(r.replies.map((x) => x.response?.status)).toEqual([200, 200]);
  expect(seen.connections).toBe(4);
  pool.close();
});

test.each([
  ['closed', false],
  ['answered 408', true],
])(
  'a kept connection %s just as it is written on (before the release): the request goes on a new one, released with the others',
  async (_how, timeout408) => {
    const seen: Seen = { connections: 0, handshakes: 0, kill: (n, phase) => n === 2 && phase === 'head', timeout408 };
    const s = createHttps({ key: pki.server.privateKeyPem, cert: pki.server.certPem }, handler(seen));
    const url = `https://localhost:${await listen(s, seen)}/x`;
    // a fourth request whose connection is handed to the server 150 ms late: the burst's release waits for it, and the
    // server closes the kept connections on their heads meanwhile
    const slow = createNet((c) => setTimeout(() => s.emit('connection', c), 150));
    const slowUrl = `https://localhost:${await listen(slow, { connections: 0, handshakes: 0 })}/y`;
    const pool = new BurstPool();
    await burst(reqs(url, 3, identity), { pool });
    const r = await burst([...reqs(url, 3, identity), ...reqs(slowUrl, 1, identity)], { pool });
    expect(pool.stats.reused).toBe(3);
    expect(pool.stats.replaced).toBe(3);
    expect(r.ready).toBe(4);
    expect(r.reused).toBeUndefined();
    expect(r.replies.map((x) => x.response?.status)).toEqual([200, 200, 200, 200]);
    expect(r.replies.every((x) => x.error === undefined && x.releasedAt !== undefined)).toBe(true);
    // released with the others: every request released before any answer began (the release is one loop), told by
    // the order of events, not by how long the loop took
    const released = r.replies.map((x) => x.releasedAt!);
    const answered = r.replies.map((x) => x.firstByteAt!);
    expect(answered.every((t) => t !== undefined)).toBe(true);
    expect(Math.max(...released)).toBeLessThanOrEqual(Math.min(...answered));
    pool.close();
  },
);

test('a kept connection closed after the release is the request’s transport error (never an answer)', async () => {
  const seen: Seen = { connections: 0, handshakes: 0, kill: (n, phase) => n === 2 && phase === 'end' };
  const s = createHttp(handler(seen));
  const url = `http://127.0.0.1:${await listen(s, seen)}/x`;
  const pool = new BurstPool();
  await burst(reqs(url, 2), { pool });
  const r = await burst(reqs(url, 2), { pool });
  expect(r.reused).toBe(2);
  expect(r.ready).toBe(2);
  expect(r.replies.every((x) => x.response === undefined && x.error !== undefined)).toBe(true);
  // the evidence says the connection was a kept one
  const ex = recordBurstReply(reqs(url, 1)[0]!, r.replies[0]!, createRedactor(), new Date());
  expect(ex.error).toMatch(/no answer \(on a connection kept from an earlier burst\)$/);
  pool.close();
});

test('nothing is kept for a target that has shown a limit; the pool’s close closes what it kept', async () => {
  const seen: Seen = { connections: 0, handshakes: 0 };
  const s = createHttp(handler(seen));
  const url = `http://127.0.0.1:${await listen(s, seen)}/x`;
  const limited = new BurstPool(() => true);
  await burst(reqs(url, 2), { pool: limited });
  const r = await burst(reqs(url, 2), { pool: limited });
  expect(r.reused).toBeUndefined();
  expect(limited.stats.kept).toBe(0);
  const pool = new BurstPool();
  await burst(reqs(url, 2), { pool });
  expect(pool.stats.kept).toBe(2);
  let open = 0;
  s.getConnections((_e, n) => (open = n));
  await new Promise((res) => setTimeout(res, 20));
  expect(open).toBe(2);
  pool.close();
  for (let i = 0; i < 50 && open > 0; i++) {
    await new Promise((res) => setTimeout(res, 20));
    s.getConnections((_e, n) => (open = n));
  }
  expect(open).toBe(0);
});

test('a connection is kept less long than the target keeps it: its Keep-Alive timeout minus the margin', () => {
  expect(idleMsOf('timeout=5')).toBe(4000);
  expect(idleMsOf('timeout=2, max=100')).toBe(1000);
  expect(idleMsOf('timeout=1')).toBe(0);
  expect(idleMsOf(undefined)).toBe(3000);
});

test('one connection taken by burst after burst gathers no listeners (Node warns past 10 of one event)', async () => {
  const seen: Seen = { connections: 0, handshakes: 0 };
  const s = createHttp(handler(seen));
  const url = `http://127.0.0.1:${await listen(s, seen)}/x`;
  const pool = new BurstPool();
  const warnings: string[] = [];
  const onWarning = (w: Error): void => void warnings.push(w.name);
  process.on('warning', onWarning);
  try {
    const counts: number[] = [];
    for (let i = 0; i < 14; i++) {
      const r = await burst(reqs(url, 1), { pool });
      expect(r.replies[0]?.response?.status).toBe(200);
      const socket = pool.take(pool.key(undefined, new URL(url)));
      expect(socket).toBeDefined();
      counts.push(socket!.listenerCount('error'));
      pool.keep(pool.key(undefined, new URL(url)), new URL(url).origin, socket!, 3000);
    }
    // one connection served all 14 bursts, and its error listeners stayed as they were after the second
    expect(seen.connections).toBe(1);
    expect(new Set(counts.slice(1)).size).toBe(1);
    expect(warnings).not.toContain('MaxListenersExceededWarning');
  } finally {
    process.off('warning', onWarning);
    pool.close();
  }
});
