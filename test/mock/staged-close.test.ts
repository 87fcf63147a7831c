/**
 * The mock closes a connection in stages after an answer that left the request body unread (RFC 9112 §9.6,
 * lib/mock/server/http.ts closeInStages): the 413 to a body over the size limit is sent before the body is read; the
 * server then closes its write side, drops what the client still sends, and closes when the client does. Closed at
 * once (MockOptions.abortiveClose), the bytes the client sends after the answer meet a reset: on the way through a
 * relay (mitmproxy, test/proxy/mitmproxy.test.ts) that reset erased the 413 (a 502 or a reset instead).
 */
import net from 'node:net';
import { afterAll, describe, expect, test } from 'vitest';
import { DEFAULT_MAX_BODY_BYTES, startMockBank, type MockBank } from '../../lib/mock/index.ts';
import { testPki } from '../../lib/pki/index.ts';
import { codeFlow } from './helpers.ts';

const mocks: MockBank[] = [];
afterAll(async () => {
  await Promise.all(mocks.map((m) => m.close()));
});

interface Upload {
  /** the status line the server answered before the body was sent */
  status: string;
  /** the client's socket error while sending the body after the answer, if any */
  error?: string;
}

/**
 * a POST declaring a body one byte over the limit: the head alone, then (once the answer and the server's FIN have
 * arrived) the whole body, as a client or a relay that had it in flight sends it
 */
function lateUpload(url: string, token: string, clientId: string): Promise<Upload> {
  const u = new URL(url);
  const size = DEFAULT_MAX_BODY_BYTES + 1;
  return new Promise((resolve) => {
    let text = '';
    let error: string | undefined;
    const socket = net.connect(Number(u.port), u.hostname, () => {
      socket.write(
        `POST ${u.pathname} HTTP/1.1\r\nHost: ${u.host}\r\nAuthorization: Bearer ${token}\r\n` +
          `X-Gateway-Client-Id: ${clientId}\r\nContent-Type: application/json\r\nContent-Length: ${size}\r\n\r\n`,
      );
    });
    const timer = setTimeout(() => socket.destroy(), 5000);
    socket.on('data', (c: Buffer) => (text += c.toString('latin1')));
    socket.once('end', () => {
      // the body in two writes: the reset the first meets fails the second at the latest
      socket.write(Buffer.alloc(size - 1, 32));
      setTimeout(() => socket.end(' '), 100);
    });
    socket.on('error', (e: NodeJS.ErrnoException) => (error ??= e.code ?? e.message));
    socket.once('close', () => {
      clearTimeout(timer);
      resolve({ status: text.split('\r\n')[0] ?? '', ...(error ? { error } : {}) });
    });
  });
}

describe('mock: a connection closed after an early answer', () => {
  test('is closed in stages: the body sent after the 413 is read and dropped, no reset', async () => {
    const pki = await testPki();
    const mock = await startMockBank({ mode: 'sandbox', pki });
    mocks.push(mock);
    const p = mock.profile('staged-close');
    const token = (await codeFlow(p)).access_token as string;
    const r = await lateUpload(`${p.target.baseUrl}/v1/transfers/validate`, token, p.clients.code.clientId);
    expect(r).toEqual({ status: 'HTTP/1.1 413 Payload Too Large' });
  });

  test('abortiveClose: closed at once, the late body meets a reset', async () => {
    const pki = await testPki();
    const mock = await startMockBank({ mode: 'sandbox', pki, abortiveClose: true });
    mocks.push(mock);
    const p = mock.profile('abortive-close');
    const token = (await codeFlow(p)).access_token as string;
    const r = await lateUpload(`${p.target.baseUrl}/v1/transfers/validate`, token, p.clients.code.clientId);
    expect(r.status).toBe('HTTP/1.1 413 Payload Too Large');
    expect(r.error).toMatch(/^(ECONNRESET|EPIPE)$/);
  });
});
