/** lib/http/burst/burst.ts: the requests of a burst are all at the server before it answers any. */
import { afterAll, describe, expect, test } from 'vitest';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { burst, MAX_BURST } from '../../lib/http/burst/burst.ts';
import { json, startHttp, type TestServer } from '../http/servers.ts';

const N = 12;
const servers: TestServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

/** a server that answers nobody until `n` requests have fully arrived (a sequential client would hang) */
async function barrierServer(n: number): Promise<TestServer & { arrived: number[] }> {
  const waiting: { res: ServerResponse; body: string }[] = [];
  const arrived: number[] = [];
  const s = await startHttp((_req: IncomingMessage, res: ServerResponse, body: string) => {
    arrived.push(performance.now());
    waiting.push({ res, body });
    if (waiting.length === n) for (const w of waiting.splice(0)) json(w.res, 200, { echo: w.body });
  });
  servers.push(s);
  return Object.assign(s, { arrived });
}

describe('burst', () => {
  test('every request reaches the server before any is answered; times are measured', async () => {
    const s = await barrierServer(N);
    const reqs = Array.from({ length: N }, (_, i) => ({ method: 'POST', url: `${s.url}/x`, body: { i } }));
    const r = await burst(reqs, { readyTimeoutMs: 5_000, timeoutMs: 5_000 });
    expect(r.ready).toBe(N);
    expect(r.replies.map((x) => x.response?.status)).toEqual(Array(N).fill(200));
    // each answer belongs to its own request (no mix-up of connections)
    expect(r.replies.map((x) => (x.response?.json as { echo: string }).echo)).toEqual(
      reqs.map((q) => JSON.stringify(q.body)),
    );
    // the spread is that of the release times, and every request was released before the first answer came
    const released = r.replies.map((x) => x.releasedAt!);
    expect(released.every((t) => typeof t === 'number')).toBe(true);
    expect(r.releaseSpreadMs).toBeCloseTo(Math.max(...released) - Math.min(...released), 6);
    expect(Math.max(...released)).toBeLessThanOrEqual(Math.min(...r.replies.map((x) => x.firstByteAt!)));
    expect(r.firstByteSpreadMs).toBeGreaterThanOrEqual(0);
    expect(r.marginMs).toBeGreaterThan(0);
    for (const x of r.replies) expect(x.firstByteAt! >= x.releasedAt!).toBe(true);
    // the server saw the last body arrive only after the loop had released all of them
    expect(s.arrived).toHaveLength(N);
  });

  test('a request that cannot connect names its error; the others are still released', async () => {
    const s = await barrierServer(2);
    const dead = await startHttp(() => {});
    const deadUrl = dead.url;
    await dead.close();
    const r = await burst([
      { method: 'PUT', url: `${s.url}/a`, body: 'a1' },
      { method: 'PUT', url: `${deadUrl}/b`, body: 'b1' },
      { method: 'PUT', url: `${s.url}/c`, body: 'c1' },
    ]);
    expect(r.ready).toBe(2);
    expect(r.replies[1]!.error).toBe('ECONNREFUSED');
    expect(r.replies[1]!.response).toBeUndefined();
    expect(r.replies[0]!.response?.status).toBe(200);
    expect(r.replies[2]!.response?.status).toBe(200);
  });

  test('a request not ready in time is abandoned, not released late', async () => {
    const s = await barrierServer(1);
    // a silent TCP server spoken to over TLS: the handshake never completes (a target that serialises)
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as AddressInfo).port;
    const r = await burst(
      [
        { method: 'POST', url: `${s.url}/a`, body: 'x' },
        { method: 'POST', url: `https://127.0.0.1:${port}/b`, body: 'y' },
      ],
      { readyTimeoutMs: 300, timeoutMs: 2_000 },
    );
    expect(r.ready).toBe(1);
    expect(r.replies[1]!.releasedAt).toBeUndefined();
    expect(r.replies[1]!.error).toBeDefined();
    expect(r.replies[0]!.response?.status).toBe(200);
    silent.close();
  });

  test('bad input: no body, or too many requests', async () => {
    await expect(burst([{ method: 'GET', url: 'http://127.0.0.1:1/' }])).rejects.toThrow(/body/);
    await expect(burst([])).rejects.toThrow(/between 1 and/);
    const many = Array.from({ length: MAX_BURST + 1 }, () => ({
      method: 'POST',
      url: 'http://127.0.0.1:1/',
      body: 'x',
    }));
    await expect(burst(many)).rejects.toThrow(/between 1 and/);
  });
});
