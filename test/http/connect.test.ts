/**
 * lib/http/connections/connect.ts (a small target, docs/design.md): a connect whose SYN the target's kernel dropped (its accept
 * queue full: a listen backlog of 1 and a server that does not accept for a moment) is tried again at once rather than
 * after the kernel's 1 s retransmission; the call is answered, the retry is counted in the traffic and cuts the window.
 * The server runs on a worker thread whose event loop is held, so that its kernel queue fills as a busy small
 * server's does.
 */
import { connect, type Socket } from 'node:net';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, test } from 'vitest';
import { createHttpClient, createRedactor } from '../../lib/http/index.ts';
import { HEDGE_FLOOR_MS } from '../../lib/http/connections/connect.ts';

const SERVER = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const server = http.createServer((req, res) => { res.setHeader('content-type', 'application/json'); res.end('{"ok":true}'); });
server.listen(0, '127.0.0.1', 1, () => parentPort.postMessage(server.address().port));
parentPort.on('message', (m) => {
  // held: the event loop accepts nothing for m ms (the kernel's accept queue fills, then drops SYNs)
  if (typeof m === 'number') {
    parentPort.postMessage('held');
    Atomics.wait(new Int32Array(workerData), 0, 0, m);
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

async function smallServer(): Promise<{ url: string; hold(ms: number): Promise<void>; port: number }> {
  const w = new Worker(SERVER, { eval: true, workerData: new SharedArrayBuffer(4) });
  workers.push(w);
  const port = await new Promise<number>((resolve) => w.once('message', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    // resolves once the worker says it is about to hold its event loop
    hold: (ms) =>
      new Promise<void>((resolve) => {
        w.once('message', () => resolve());
        w.postMessage(ms);
      }),
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
  test('is tried again at once, answered, counted in the traffic, and cuts the window', async () => {
    const s = await smallServer();
    const http = createHttpClient({ redactor: createRedactor() });
    // the server holds its event loop; its kernel queue filled, the next SYN is dropped
    await s.hold(4 * HEDGE_FLOOR_MS);
    await fill(s.port, 2);
    const before = http.window!(s.url).limit();
    const res = await http.send({ method: 'GET', url: `${s.url}/x` });
    expect(res.status).toBe(200);
    const traffic = http.traffic!()[s.url];
    expect(traffic?.connectRetries ?? 0).toBeGreaterThanOrEqual(1);
    expect(http.window!(s.url).limit()).toBeLessThan(before);
    await http.close();
  });
});
