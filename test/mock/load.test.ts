/**
 * The mock under load and attack (it is the reference counterpart partners hit): concurrent duplicate PUTs create
 * one payment; 1,000 concurrent mixed requests lose nothing; slow clients are dropped (header and request
 * timeouts) and cannot keep others out; bodies above 1 MiB get 413.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockBank, type MockBank } from '../../lib/mock/index.ts';
import { testPki } from '../../lib/pki/index.ts';
import { api, call, codeFlow, transferBody, type Profile } from './helpers.ts';

let mock: MockBank;
let p: Profile;
let token: string;

/** a fresh quota window, and a token valid in it (tokens last as long as the window) */
async function freshWindow(): Promise<void> {
  mock.clock.advance(3600);
  token = (await codeFlow(p)).access_token as string;
}

beforeAll(async () => {
  mock = await startMockBank({ mode: 'sandbox', pki: await testPki(), headersTimeoutMs: 400, requestTimeoutMs: 800 });
  p = mock.profile('mock-sandbox');
  token = (await codeFlow(p)).access_token as string;
});
afterAll(() => mock.close());

describe('mock under load', () => {
  it('50 concurrent PUTs of one transfer id create one transfer and one payment', async () => {
    const before = { payments: mock.paymentCount(), transfers: mock.transferCount() };
    const body = transferBody(p);
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => api(p, { method: 'PUT', path: '/transfers/dup-1', token, body })),
    );
    for (const a of answers) expect([200, 201]).toContain(a.status);
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(new Set(answers.map((a) => JSON.stringify(a.body.reference ?? a.body)))).toHaveProperty('size', 1);
    expect(mock.paymentCount() - before.payments).toBe(1);
    expect(mock.transferCount() - before.transfers).toBe(1);
  });

  it('1,000 concurrent mixed requests: every one answered, no 5xx, every created transfer readable', async () => {
    await freshWindow();
    const before = mock.transferCount();
    const kinds = Array.from({ length: 1000 }, (_, i) => i % 3);
    const answers = await Promise.all(
      kinds.map((k, i) =>
        k === 0
          ? api(p, { method: 'PUT', path: `/transfers/load-${i}`, token, body: transferBody(p) })
          : k === 1
            ? api(p, { method: 'POST', path: '/transfers/validate', token, body: transferBody(p) })
            : api(p, { method: 'GET', path: `/transfers/none-${i}`, token }),
      ),
    );
    const created = kinds.flatMap((k, i) => (k === 0 && answers[i]!.status === 201 ? [i] : []));
    for (const a of answers) expect([200, 201, 404, 429]).toContain(a.status);
    expect(answers.filter((a) => a.status === 429).length).toBeGreaterThan(0); // the quota held under load
    expect(mock.transferCount() - before).toBe(created.length);
    await freshWindow();
    for (const i of created) {
      const got = await api(p, { method: 'GET', path: `/transfers/load-${i}`, token });
      expect(got.status, `load-${i}`).toBe(200);
    }
  });

  it('refuses a body above 1 MiB with 413, declared or chunked', async () => {
    await freshWindow();
    const big = JSON.stringify({ ...transferBody(p), remarks: 'x'.repeat(1024 * 1024) });
    const declared = await api(p, { method: 'PUT', path: '/transfers/big-1', token, raw: big });
    expect(declared.status).toBe(413);
    const chunked = await new Promise<string>((resolve) => {
      const s = net.connect(Number(new URL(p.target.baseUrl).port), '127.0.0.1', () => {
        s.write(
          `PUT /v1/transfers/big-2 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n` +
            `X-Gateway-Client-Id: ${p.clients.code.clientId}\r\nContent-Type: application/json\r\n` +
            'Transfer-Encoding: chunked\r\n\r\n',
        );
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        for (let i = 0; i < 20; i++) s.write(`${chunk.length.toString(16)}\r\n${chunk.toString()}\r\n`);
      });
      let got = '';
      s.on('data', (d: Buffer) => (got += d.toString()));
      s.on('error', () => resolve(got));
      s.on('close', () => resolve(got));
      setTimeout(() => s.destroy(), 3000);
    });
    expect(chunked).toMatch(/^HTTP\/1\.1 413/);
  });

  it('slow clients are dropped and do not keep others out', async () => {
    const port = Number(new URL(p.target.baseUrl).port);
    let closed = 0;
    const connected: Promise<void>[] = [];
    const gone: Promise<void>[] = [];
    const slow = Array.from({ length: 200 }, (_, i) => {
      let up = (): void => {};
      connected.push(new Promise<void>((r) => (up = r)));
      const s = net.connect(port, '127.0.0.1', () => {
        up();
        // half a request head (slowloris), or a head with a body that never comes
        s.write(
          i % 2
            ? 'POST /v1/transfers/validate HTTP/1.1\r\nHost: x\r\n'
            : 'POST /v1/transfers/validate HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{',
        );
      });
      // a connect refused is no wait either (then its close comes at once)
      s.on('error', () => up());
      gone.push(new Promise<void>((r) => s.on('close', () => (closed++, r()))));
      s.on('data', () => {});
      return s;
    });
    // every slow client connected (an event, not a pause), then a call of a client that sends its request whole
    await Promise.all(connected);
    const ok = await call(`${p.target.baseUrl}/v1/transfers/none`, { headers: { Authorization: `Bearer ${token}` } });
    expect(ok.status).toBeLessThan(500);
    // the mock drops them at its head (0.4 s) and request (0.8 s) timeouts: each one's close awaited (the test's
    // timeout stops a mock that would keep one), none destroyed here first
    await Promise.all(gone);
    expect(closed).toBe(slow.length);
    for (const s of slow) s.destroy();
  });
});
