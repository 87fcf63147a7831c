/**
 * lib/http/client.ts with lib/http/connections/window.ts and lib/http/connections/socket-use.ts: a target that closes the connection after
 * every answer (`Connection: close`, as Python's http.server) is served at full width, a new connection per call;
 * a call written on a connection the target kept and then closed without answering (the race of keep-alive and
 * close) is sent again when it is idempotent, and is no capacity signal; a connection reset before its answer on a
 * new connection is one.
 */
import { afterAll, describe, expect, test } from 'vitest';
import net from 'node:net';
import { createHttpClient, createRedactor } from '../../lib/http/index.ts';
import { INITIAL } from '../../lib/http/connections/window.ts';
import { TransportError, type RecordedExchange } from '../../lib/http/types.ts';
import { json, startHttp, type TestServer } from './servers.ts';

const servers: { close(): Promise<void> }[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

const recorder = (): { record: (e: RecordedExchange) => void; exchanges: RecordedExchange[] } => {
  const exchanges: RecordedExchange[] = [];
  return { record: (e) => void exchanges.push(e), exchanges };
};

/**
 * a raw HTTP/1.1 server: answers the first request of a connection (keep-alive, nothing said of a close); a later
 * request on the same connection is not answered: the connection is closed (`reset`: reset) as it arrives, as a
 * server whose keep-alive had just ended. `resetFirst`: the first `n` connections are reset unanswered
 */
async function oneAnswerPerConnection(o: { reset?: boolean; resetFirst?: number } = {}): Promise<{
  url: string;
  connections: () => number;
  close(): Promise<void>;
}> {
  let connections = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((s) => {
    const nth = ++connections;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => {});
    let answered = false;
    let head = '';
    s.on('data', (chunk: Buffer) => {
      if (nth <= (o.resetFirst ?? 0)) return void s.resetAndDestroy();
      if (answered) return void (o.reset ? s.resetAndDestroy() : s.destroy());
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      answered = true;
      const body = JSON.stringify({ connection: nth });
      s.write(
        `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nkeep-alive: timeout=30\r\n\r\n${body}`,
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  const s = {
    url: `http://127.0.0.1:${port}`,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const x of sockets) x.destroy();
        server.close(() => resolve());
      }),
  };
  servers.push(s);
  return s;
}

describe('a target that closes the connection after every answer', () => {
  test('Connection: close after each answer: served at full width, a new connection per call, no cut', async () => {
    let inFlight = 0;
    let most = 0;
    const s: TestServer = await startHttp((_req, res) => {
      most = Math.max(most, ++inFlight);
      res.shouldKeepAlive = false;
      setTimeout(() => {
        inFlight--;
        json(res, 200, { ok: true });
      }, 20);
    });
    servers.push(s);
    const http = createHttpClient({ redactor: createRedactor() });
    const calls = 8 * INITIAL;
    const res = await Promise.all(
      Array.from({ length: calls }, (_, i) => http.send({ method: 'GET', url: `${s.url}/${i}` })),
    );
    expect(res.every((r) => r.status === 200 && r.headers.connection === 'close')).toBe(true);
    const w = http.traffic?.()[s.url];
    // the window grew past its start and was never cut: closing after an answer is the target's style
    expect(w).toMatchObject({ smallest: INITIAL, lateAnswers: 0, timeouts: 0, closedByTarget: calls });
    expect(w?.largest).toBeGreaterThan(INITIAL);
    expect(w?.resets).toBeUndefined();
    expect(most).toBeGreaterThan(INITIAL);
    await http.close();
  });

  test('its refusals closed are counted too (a run may begin with refusals), a 413 not (its body left unread)', async () => {
    const statuses = [401, 403, 422, 500, 200, 413];
    const s: TestServer = await startHttp((req, res) => {
      res.shouldKeepAlive = false;
      json(res, Number(req.url!.slice(1)), { status: req.url!.slice(1) });
    });
    servers.push(s);
    const http = createHttpClient({ redactor: createRedactor() });
    const res = await Promise.all(statuses.map((st) => http.send({ method: 'GET', url: `${s.url}/${st}` })));
    expect(res.map((r) => [r.status, r.headers.connection])).toEqual(statuses.map((st) => [st, 'close']));
    // five closes the target chose; the 413's is explained by the request
    expect(http.traffic?.()[s.url]).toMatchObject({ closedByTarget: 5, lateAnswers: 0, timeouts: 0 });
    await http.close();
  });

  test('a GET written on a kept connection the target closes unanswered is sent again on a new one, no cut', async () => {
    for (const reset of [false, true]) {
      const s = await oneAnswerPerConnection({ reset });
      const http = createHttpClient({ redactor: createRedactor() });
      const rec = recorder();
      // one after another: a call finds the connection kept from an earlier answer, which the target closes unanswered
      const res = [];
      for (const p of ['a', 'b', 'c', 'd']) res.push(await http.send({ method: 'GET', url: `${s.url}/${p}` }, rec));
      expect(res.map((r) => r.status)).toEqual([200, 200, 200, 200]);
      const again = rec.exchanges.filter((e) => /kept from an earlier answer: sent again/.test(e.error ?? ''));
      expect(again.length).toBeGreaterThan(0);
      // a call sent again may find another kept connection the target closes: each attempt is told
      expect(res.reduce((n, r) => n + (r.resent ?? 0), 0)).toBe(again.length);
      const w = http.traffic?.()[s.url];
      expect(w?.resets).toBeUndefined();
      expect(w?.smallest).toBe(INITIAL);
      await http.close();
    }
  });

  test('a POST whose effect is not checked is not sent again on that race: a transport error saying why', async () => {
    const s = await oneAnswerPerConnection();
    const http = createHttpClient({ redactor: createRedactor() });
    const outcomes = [];
    for (const p of ['a', 'b', 'c', 'd'])
      outcomes.push(await http.send({ method: 'POST', url: `${s.url}/${p}`, body: 'x' }).catch((x: unknown) => x));
    const e = outcomes.find((o) => o instanceof TransportError);
    expect(e).toBeInstanceOf(TransportError);
    expect((e as Error).message).toMatch(/closed the connection it had kept, before answering: not sent again/);
    // checked: sent again
    const checked = await http.send({ method: 'POST', url: `${s.url}/c`, body: 'x', resend: 'checked' });
    expect(checked.status).toBe(200);
    await http.close();
  });

  test('a new connection reset before its answer cuts the window; among others an idempotent call goes again', async () => {
    const s = await oneAnswerPerConnection({ resetFirst: 1 });
    const http = createHttpClient({ redactor: createRedactor() });
    const res = await Promise.all([1, 2].map((i) => http.send({ method: 'GET', url: `${s.url}/${i}` })));
    expect(res.map((r) => r.status)).toEqual([200, 200]);
    const w = http.traffic?.()[s.url];
    expect(w?.resets).toBe(1);
    expect(res.filter((r) => r.resent === 1)).toHaveLength(1);
    // reset again: the target's answer to that call (sent twice at most), not sent again and again
    const always = await oneAnswerPerConnection({ resetFirst: 100 });
    const both = await Promise.allSettled([1, 2].map((i) => http.send({ method: 'GET', url: `${always.url}/${i}` })));
    expect(both.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(always.connections()).toBe(4);
    expect(http.traffic?.()[always.url]?.resets).toBe(4);
    // alone, a reset is the call's transport error (the target turned it away)
    const alone = await oneAnswerPerConnection({ resetFirst: 1 });
    const e = await http.send({ method: 'GET', url: `${alone.url}/x` }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(TransportError);
    expect(http.traffic?.()[alone.url]?.resets).toBe(1);
    await http.close();
  });
});
