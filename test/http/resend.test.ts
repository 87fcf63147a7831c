/**
 * lib/http/client.ts with lib/http/connections/window.ts (a small target, docs/design.md): a call that times out while others were
 * in flight is sent again with fewer in flight when that is safe (an idempotent method, or `resend: 'checked'`); a POST
 * whose effect nobody checks is not, unless its connection was never made (nothing of it was sent); a call alone that
 * gets no answer is a transport error.
 */
import { afterAll, describe, expect, test } from 'vitest';
import type { ServerResponse } from 'node:http';
import net from 'node:net';
import { testPki } from '../../lib/pki/index.ts';
import { createHttpClient, createRedactor } from '../../lib/http/index.ts';
import { TransportError, type RecordedExchange } from '../../lib/http/types.ts';
import { json, startHttp, startHttps, type TestServer } from './servers.ts';

const servers: TestServer[] = [];
const held: ServerResponse[] = [];
const heldSockets: net.Socket[] = [];
afterAll(async () => {
  for (const r of held) r.destroy();
  for (const s of heldSockets) s.destroy();
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

  test('any call whose connection was not made (TCP + TLS) among others is sent again: nothing of it was sent', async () => {
    const pki = await testPki();
    const tls = await startHttps({ key: pki.server.privateKeyPem, cert: pki.server.certPem }, (_req, res) =>
      json(res, 200, { ok: true }),
    );
    servers.push(tls);
    // a front that leaves the first two connections without a handshake (a small server's queue), then forwards
    let n = 0;
    const front = net.createServer((s) => {
      s.on('error', () => {});
      if (++n <= 2) return void heldSockets.push(s);
      const back = net.connect(tls.port, '127.0.0.1');
      back.on('error', () => s.destroy());
      s.pipe(back).pipe(s);
    });
    await new Promise<void>((r) => front.listen(0, '127.0.0.1', r));
    servers.push({ url: '', port: 0, close: () => new Promise<void>((r) => front.close(() => r())) });
    const url = `https://127.0.0.1:${(front.address() as net.AddressInfo).port}/v`;
    const http = createHttpClient({ redactor: createRedactor(), connectTimeoutMs: 300 });
    const rec = recorder();
    const id = { name: 'server-ca', ca: pki.bankCa.certPem };
    const res = await Promise.all(
      [1, 2].map(() => http.send({ method: 'POST', url, body: 'x', identity: id, label: 'validate' }, rec)),
    );
    expect(res.map((r) => [r.status, r.resent])).toEqual([
      [200, 1],
      [200, 1],
    ]);
    expect(rec.exchanges.filter((e) => /UND_ERR_CONNECT_TIMEOUT.*sent again/.test(e.error ?? ''))).toHaveLength(2);
    await http.close();
  }, 60_000);
});
