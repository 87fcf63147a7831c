/**
 * lib/http/client.ts with lib/http/window.ts (issue 18 §2): a call that times out while others were in flight is
 * sent again with fewer in flight when that is safe (an idempotent method, or `resend: 'checked'`); a POST whose
 * effect nobody checks is not; a call alone that gets no answer is a transport error.
 */
import { afterAll, describe, expect, test } from 'vitest';
import type { ServerResponse } from 'node:http';
import { createHttpClient, createRedactor } from '../../lib/http/index.ts';
import { TransportError, type RecordedExchange } from '../../lib/http/types.ts';
import { json, startHttp, type TestServer } from './servers.ts';

const servers: TestServer[] = [];
const held: ServerResponse[] = [];
afterAll(async () => {
  for (const r of held) r.destroy();
  await Promise.all(servers.map((s) => s.close()));
});

/** holds (never answers) the first `hold` requests, answers the others at once */
async function server(hold: number): Promise<TestServer & { seen: () => number }> {
  let seen = 0;
  const s = await startHttp((_req, res) => {
    if (++seen <= hold) held.push(res);
    else json(res, 200, { n: seen });
  });
  servers.push(s);
  return Object.assign(s, { seen: () => seen });
}

const recorder = (): { record: (e: RecordedExchange) => void; exchanges: RecordedExchange[] } => {
  const exchanges: RecordedExchange[] = [];
  return { record: (e) => void exchanges.push(e), exchanges };
};

describe('resend after a timeout among others', () => {
  test('idempotent calls that timed out together are sent again, fewer at once, and answered', async () => {
    const s = await server(4);
    const http = createHttpClient({ redactor: createRedactor(), firstByteTimeoutMs: 300 });
    const rec = recorder();
    const res = await Promise.all([1, 2, 3, 4].map((i) => http.send({ method: 'GET', url: `${s.url}/${i}` }, rec)));
    expect(res.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(res.every((r) => r.resent === 1)).toBe(true);
    expect(rec.exchanges.filter((e) => /sent again with at most 2/.test(e.error ?? ''))).toHaveLength(4);
    expect(http.traffic?.()[s.url]).toMatchObject({ timeouts: 4 });
    await http.close();
  });

  test("a POST is sent again only when its caller checks its effect ('checked')", async () => {
    const s = await server(4);
    const http = createHttpClient({ redactor: createRedactor(), firstByteTimeoutMs: 300 });
    const plain = Promise.allSettled([1, 2].map(() => http.send({ method: 'POST', url: `${s.url}/v`, body: 'x' })));
    const checked = Promise.all(
      [1, 2].map(() => http.send({ method: 'POST', url: `${s.url}/v`, body: 'x', resend: 'checked' })),
    );
    const [p, c] = await Promise.all([plain, checked]);
    for (const r of p) {
      expect(r.status).toBe('rejected');
      const e = (r as PromiseRejectedResult).reason as TransportError;
      expect(e).toBeInstanceOf(TransportError);
      expect(e.message).toMatch(/not sent again \(a POST whose effect is not checked\)/);
    }
    expect(c.map((r) => [r.status, r.resent])).toEqual([
      [200, 1],
      [200, 1],
    ]);
    await http.close();
  });

  test('a call alone that gets no answer is a transport error, not sent again', async () => {
    const s = await server(1);
    const http = createHttpClient({ redactor: createRedactor(), firstByteTimeoutMs: 300 });
    await expect(http.send({ method: 'GET', url: `${s.url}/x` })).rejects.toThrow(/no response header within 0.3 s$/);
    expect(s.seen()).toBe(1);
    await http.close();
  });
});
