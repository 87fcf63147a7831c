/**
 * lib/http/burst/burst.ts (RACE checks): an answer that arrives before the request's last byte is sent (a gateway's
 * 429 on the head alone) is recorded with a duration that is never negative, and the request is not "released".
 */
import { afterAll, describe, expect, test } from 'vitest';
import { once } from 'node:events';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { burst, recordBurstReply } from '../../lib/http/burst/burst.ts';
import { createRedactor } from '../../lib/http/index.ts';
import type { TestServer } from '../http/servers.ts';

const servers: TestServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

/** answers 429 on the request head, without waiting for the body (a gateway refusing before it reads) */
async function earlyRefusal(): Promise<TestServer> {
  const server = createHttpServer((_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '3600' });
    res.end('{"status":"429"}');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as { port: number }).port;
  const s: TestServer = {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  servers.push(s);
  return s;
}

describe('burst: answers that arrive early', () => {
  test('a 429 before the last byte: non-negative durationMs, answered early, not counted as released', async () => {
    const s = await earlyRefusal();
    // one request that is never ready (a silent TCP server spoken to over TLS) holds the release back for the
    // ready timeout, while the others' heads are answered
    const silent = createServer(() => {});
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    const port = (silent.address() as AddressInfo).port;
    const reqs = [
      ...Array.from({ length: 3 }, () => ({ method: 'POST', url: `${s.url}/v`, body: 'x'.repeat(100) })),
      { method: 'POST', url: `https://127.0.0.1:${port}/v`, body: 'y' },
    ];
    const r = await burst(reqs, { readyTimeoutMs: 500, timeoutMs: 2_000 });
    silent.close();
    const redactor = createRedactor();
    const durations = r.replies.map((reply, i) => recordBurstReply(reqs[i]!, reply, redactor, new Date()).durationMs);
    expect(durations).toHaveLength(4);
    expect(durations.filter((d) => d < 0)).toEqual([]);
    // each answer came before any release: it was not part of the simultaneous release
    const answered = r.replies.filter((x) => x.response);
    expect(answered.map((x) => [x.response?.status, x.answeredEarly, x.releasedAt])).toEqual(
      Array.from({ length: 3 }, () => [429, true, undefined]),
    );
    expect(r.ready).toBe(0);
    expect(r.releaseSpreadMs).toBeGreaterThanOrEqual(0);
  });

  test('a recorded reply whose answer came before its release never has a negative duration', () => {
    const ex = recordBurstReply(
      { method: 'POST', url: 'http://127.0.0.1:1/v', body: 'x' },
      {
        ready: true,
        releasedAt: 100,
        firstByteAt: 40,
        doneAt: 50,
        response: { status: 429, headers: {}, text: '', json: undefined },
      },
      createRedactor(),
      new Date(),
    );
    expect(ex.durationMs).toBeGreaterThanOrEqual(0);
  });
});
