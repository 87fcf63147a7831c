/**
 * lib/http/connections/burst-ahead.ts: a burst's connections opened ahead into the bursts' pool, against a target that
 * closes after every answer, so that the burst that comes makes no connect of its own (counted by the server: its
 * connections accepted, never a wall-clock time); none to a target not seen closing, none to one that has shown a
 * limit (its places are its connections).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, describe, expect, test } from 'vitest';
import { burst } from '../../lib/http/burst/burst.ts';
import { BurstPool } from '../../lib/http/burst/burst-pool.ts';
import { openBurstAhead } from '../../lib/http/connections/burst-ahead.ts';
import { InFlightWindow } from '../../lib/http/connections/window.ts';
import type { HttpRequest } from '../../lib/http/types.ts';

const servers: Server[] = [];
afterAll(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

/** a server that closes after every answer; counts the connections it accepted and the requests each carried */
async function closingServer(): Promise<{ url: string; accepted: () => number; requests: () => number[] }> {
  const perSocket = new Map<Socket, number>();
  const s = createServer((req, res) => {
    perSocket.set(req.socket, (perSocket.get(req.socket) ?? 0) + 1);
    req.resume();
    req.on('end', () => {
      res.shouldKeepAlive = false;
      res.setHeader('content-type', 'application/json');
      res.end('{}');
    });
  });
  let accepted = 0;
  s.on('connection', (socket: Socket) => {
    accepted++;
    perSocket.set(socket, 0);
  });
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(s.address() as AddressInfo).port}`,
    accepted: () => accepted,
    requests: () => [...perSocket.values()],
  };
}

/** a window that has seen `n` answers after which the target closed the connection */
async function windowSeenClosing(n = 1): Promise<InFlightWindow> {
  const w = new InFlightWindow();
  for (let i = 0; i < n; i++) (await w.acquire()).done([{ firstByteMs: 1, closed: true }]);
  return w;
}

const post = (url: string): HttpRequest => ({ method: 'POST', url: `${url}/x`, body: '{"a":1}' });

describe('a burst’s connections opened ahead', () => {
  test('against a target that closes: the control and the burst take them, and open none of their own', async () => {
    const srv = await closingServer();
    const pool = new BurstPool();
    const window = await windowSeenClosing();
    try {
      const n = 5;
      const opened = await openBurstAhead(post(srv.url), n + 1, { pool, window, budgetMs: 5000 });
      expect(opened).toBe(n + 1);
      // the control (a burst of one), then the burst: every request on a connection opened ahead
      const control = await burst([post(srv.url)], { pool, window });
      const r = await burst(
        Array.from({ length: n }, () => post(srv.url)),
        { pool, window },
      );
      expect(control.reused).toBe(1);
      expect(r.reused).toBe(n);
      expect(r.replies.every((x) => x.response?.status === 200)).toBe(true);
      // no connection more than those opened ahead, one request on each
      expect(srv.accepted()).toBe(n + 1);
      expect(srv.requests()).toEqual(Array.from({ length: n + 1 }, () => 1));
    } finally {
      pool.close();
    }
  });

  test('none to a target not seen closing, none to one that has shown a limit', async () => {
    const srv = await closingServer();
    const pool = new BurstPool();
    try {
      const fresh = new InFlightWindow();
      expect(await openBurstAhead(post(srv.url), 6, { pool, window: fresh, budgetMs: 5000 })).toBe(0);
      const limited = await windowSeenClosing();
      // a timeout: the target has shown a limit (window.ts)
      (await limited.acquire()).done([{ timedOut: true }]);
      expect(limited.limited()).toBe(true);
      expect(await openBurstAhead(post(srv.url), 6, { pool, window: limited, budgetMs: 5000 })).toBe(0);
      expect(srv.accepted()).toBe(0);
    } finally {
      pool.close();
    }
  });
});
