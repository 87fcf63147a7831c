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

/**
 * one GET asking for keep-alive, on a raw connection: the answer's Connection header, and whether the server closed
 * the connection after it (its FIN within a short while)
 */
function get(url: string): Promise<{ connection: string | undefined; closed: boolean }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    let text = '';
    const socket = net.connect(Number(u.port), u.hostname, () => {
      socket.write(`GET ${u.pathname} HTTP/1.1\r\nHost: ${u.host}\r\nConnection: keep-alive\r\n\r\n`);
    });
    const done = (closed: boolean): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ connection: /^connection:\s*(\S+)\r$/im.exec(text)?.[1]?.toLowerCase(), closed });
    };
    const timer = setTimeout(() => done(false), 500);
    socket.on('data', (c: Buffer) => (text += c.toString('latin1')));
    socket.once('end', () => done(true));
    socket.once('error', reject);
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
