/**
 * lib/http/burst/burst.ts against a small target (docs/design.md): the connections of a burst that were not ready at its
 * release (waiting in the target's accept queue) are given up at once, so that the target, once it takes them,
 * finds them closed rather than running a TLS handshake for requests that will never be sent, and the burst does
 * not wait for those handshakes to end.
 */
import { createServer } from 'node:https';
import type { TLSSocket } from 'node:tls';
import { afterAll, expect, test } from 'vitest';
import { burst } from '../../lib/http/burst/burst.ts';
import type { Identity } from '../../lib/http/types.ts';
import { startAcceptQueue, type AcceptQueue } from '../../lib/mock/server/accept-queue.ts';
import { testPki } from '../../lib/pki/index.ts';

const closing: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of closing) await c();
});

test('connections not ready at the release are closed, not handshaken later', { timeout: 30_000 }, async () => {
  const pki = await testPki();
  let handshakes = 0;
  // answers once the whole body has come (the burst's last byte is its release)
  const server = createServer({ key: pki.server.privateKeyPem, cert: pki.server.certPem }, (req, res) => {
    req.resume();
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      res.end('{"ok":true}');
    });
  });
  server.on('secureConnection', (_t: TLSSocket) => handshakes++);
  // one connection served at a time: the burst's other connections wait in the queue, TCP connected, no TLS
  const queue: AcceptQueue = await startAcceptQueue(server, '127.0.0.1', 0, { backlog: 5, maxConnections: 1 });
  closing.push(async () => {
    server.closeAllConnections();
    await queue.close();
  });
  const url = `https://localhost:${queue.address().port}/x`;
  const identity: Identity = { name: 'burst', ca: pki.bankCa.certPem };
  const r = await burst(
    [1, 2, 3].map((i) => ({ method: 'POST', url, body: { i }, identity })),
    { readyTimeoutMs: 20_000, timeoutMs: 5_000 },
  );
  expect(r.ready).toBe(1);
  expect(r.replies.filter((x) => x.response?.status === 200)).toHaveLength(1);
  // given up at the release, named so (not a connection error of the target's)
  expect(r.replies.filter((x) => x.error === 'ABORT_ERR')).toHaveLength(2);
  // the queue drains as the target takes the given-up connections (polled; the bound only stops a test that would
  // hang, past any slow machine's drain)
  for (let i = 0; i < 800 && queue.waiting() > 0; i++) await new Promise((res) => setTimeout(res, 30));
  await new Promise((res) => setTimeout(res, 100));
  expect(queue.waiting()).toBe(0);
  // only the released request's connection was handshaken
  expect(handshakes).toBe(1);
});
