/**
 * lib/http/connections/connect.ts (a small target, docs/design.md): a connect whose SYN the target's kernel dropped (its accept
 * queue full: a listen backlog of 1 and a server that does not accept for a moment) is tried again at once rather than
 * after the kernel's 1 s retransmission; the call is answered, the retry is counted in the traffic and cuts the window.
 * The server runs on a worker thread whose event loop is held, so that its kernel queue fills as a busy small
 * server's does. Decided on events, not on wall time: the server is held until the test has seen the connect tried
 * again (however late a busy machine runs the hedge's timer), then released; the wait for the retry is bounded only
 * to stop a test whose code never retries.
 */
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, test } from 'vitest';
import { createHttpClient, createRedactor } from '../../lib/http/index.ts';
import { HEDGE_FLOOR_MS } from '../../lib/http/connections/connect.ts';

const SERVER = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const server = http.createServer((req, res) => { res.setHeader('content-type', 'application/json'); res.end('{"ok":true}'); });
server.listen(0, '127.0.0.1', 1, () => parentPort.postMessage(server.address().port));
const gate = new Int32Array(workerData);
parentPort.on('message', (m) => {
  // held: the event loop accepts nothing until the test releases it (the kernel's accept queue fills, then drops
  // SYNs); a bound of its own only so that a failed test leaves no worker behind
  if (m === 'hold') {
    parentPort.postMessage('held');
    Atomics.wait(gate, 0, 0, 60000);
  }
  else server.close(() => parentPort.close());
});
`;

const workers: Worker[] = [];
const sockets: Socket[] = [];
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await Promise.all(workers.map((w) => w.terminate()));
});

async function smallServer(): Promise<{ url: string; hold(): Promise<void>; release(): void; port: number }> {
  const gate = new SharedArrayBuffer(4);
  const w = new Worker(SERVER, { eval: true, workerData: gate });
  workers.push(w);
  const port = await new Promise<number>((resolve) => w.once('message', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    // resolves once the worker says it is about to hold its event loop
    hold: () =>
      new Promise<void>((resolve) => {
        w.once('message', () => resolve());
        w.postMessage('hold');
      }),
    release: () => {
      const g = new Int32Array(gate);
      Atomics.store(g, 0, 1);
      Atomics.notify(g, 0);
    },
  };
}

/** connections that fill the held server's accept queue (a backlog of 1 holds two) */
async function fill(port: number, n: number): Promise<void> {
  await Promise.all(
    Array.from(
      { length: n },
      () =>
        new Promise<void>((resolve) => {
          const s = connect(port, '127.0.0.1', () => resolve());
          s.on('error', () => resolve());
          sockets.push(s);
          setTimeout(resolve, 300).unref();
        }),
    ),
  );
}

describe('a connect the target did not accept in time', () => {
  test(
    'is tried again at once, answered, counted in the traffic, and cuts the window',
    { timeout: 30_000 },
    async () => {
      const s = await smallServer();
      const http = createHttpClient({ redactor: createRedactor() });
      // the server holds its event loop; its kernel queue filled, the next SYN is dropped
      await s.hold();
      await fill(s.port, 2);
      const before = http.window!(s.url).limit();
      const answer = http.send({ method: 'GET', url: `${s.url}/x` });
      answer.catch(() => undefined);
      // the connect tried again while the server is still held (the kernel alone would wait 1 s, then 3 s): the bound
      // (many hedge waits) only stops a code that never retries
      const retries = (): number => http.traffic!()[s.url]?.connectRetries ?? 0;
      for (let i = 0; i < 60 && retries() === 0; i++) await sleep(HEDGE_FLOOR_MS / 3);
      const retried = retries();
      const limit = http.window!(s.url).limit();
      s.release();
      const res = await answer;
      expect(res.status).toBe(200);
      expect(retried).toBeGreaterThanOrEqual(1);
      expect(limit).toBeLessThan(before);
      await http.close();
    },
  );
});
