/**
 * The mock's `connectionClose` shape (lib/mock/server/server.ts closeAfter): every answer of the API listener and of the
 * admin listener (the test clock) says `Connection: close` and its connection is closed once it is sent, even when
 * the request asked to keep it, as Python's http.server does; without the option the connection is kept.
 */
import net from 'node:net';
import { afterAll, describe, expect, test } from 'vitest';
import { startMockBank, type MockBank } from '../../lib/mock/index.ts';
import { testPki } from '../../lib/pki/index.ts';

const mocks: MockBank[] = [];
afterAll(async () => {
  await Promise.all(mocks.map((m) => m.close()));
});

/** the length of the first whole answer at the start of `text` (framed by Content-Length), undefined while partial */
function firstAnswerLength(text: string): number | undefined {
  const head = text.indexOf('\r\n\r\n');
  if (head < 0) return undefined;
  const length = /^content-length:\s*(\d+)\r$/im.exec(text.slice(0, head + 2))?.[1];
  if (length === undefined) throw new Error(`an answer without Content-Length: ${text.slice(0, head)}`);
  const end = head + 4 + Number(length);
  return text.length >= end ? end : undefined;
}

/**
 * one GET asking for keep-alive, on a raw connection: the answer's Connection header, and whether the server closed
 * the connection after it, told by events, not by a timer: once the whole answer has come, a second GET is sent on the
 * same connection; the server either closes it (its FIN, or a reset of the GET written after it closed: closed) or
 * answers it (a second status line on the connection: kept)
 */
function get(url: string): Promise<{ connection: string | undefined; closed: boolean }> {
  const u = new URL(url);
  const request = `GET ${u.pathname} HTTP/1.1\r\nHost: ${u.host}\r\nConnection: keep-alive\r\n\r\n`;
  return new Promise((resolve, reject) => {
    let text = '';
    let first: string | undefined;
    const socket = net.connect(Number(u.port), u.hostname, () => socket.write(request));
    const done = (closed: boolean): void => {
      socket.destroy();
      resolve({ connection: /^connection:\s*(\S+)\r$/im.exec(first ?? '')?.[1]?.toLowerCase(), closed });
    };
    socket.on('data', (c: Buffer) => {
      text += c.toString('latin1');
      if (first === undefined) {
        const end = firstAnswerLength(text);
        if (end === undefined) return;
        first = text.slice(0, end);
        text = text.slice(end);
        socket.write(request, () => undefined);
      }
      if (/^HTTP\/1\.1 \d{3} /.test(text)) done(false);
    });
    socket.once('end', () => (first === undefined ? reject(new Error('closed before its answer')) : done(true)));
    socket.once('error', (e: NodeJS.ErrnoException) =>
      first !== undefined && (e.code === 'ECONNRESET' || e.code === 'EPIPE') ? done(true) : reject(e),
    );
  });
}

describe('mock shape connectionClose', () => {
  test('API and test clock answers say Connection: close and the server closes; without it they are kept', async () => {
    const pki = await testPki();
    const closing = await startMockBank({ mode: 'sandbox', pki, connectionClose: true });
    const keeping = await startMockBank({ mode: 'sandbox', pki });
    mocks.push(closing, keeping);
    for (const url of [`${closing.url}/`, `${closing.adminUrl}/clock`]) {
      expect(await get(url)).toMatchObject({ connection: 'close', closed: true });
    }
    for (const url of [`${keeping.url}/`, `${keeping.adminUrl}/clock`]) {
      expect(await get(url)).toMatchObject({ connection: 'keep-alive', closed: false });
    }
  });
});
