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
  /** the answers on the connection (the kept requests' and the POST's) */
  answers: number;
  /** the client's socket error while sending the body after the answer, if any */
  error?: string;
}

/**
 * a POST declaring a body one byte over the limit: the head alone, then (once the answer and the server's FIN have
 * arrived) the whole body, as a client or a relay that had it in flight sends it; after `kept` requests answered on
 * the same kept connection
 */
function lateUpload(url: string, token: string, clientId: string, kept = 0): Promise<Upload> {
  const u = new URL(url);
  const size = DEFAULT_MAX_BODY_BYTES + 1;
  return new Promise((resolve) => {
    let text = '';
    let error: string | undefined;
    const post = (): string =>
      `POST ${u.pathname} HTTP/1.1\r\nHost: ${u.host}\r\nAuthorization: Bearer ${token}\r\n` +
      `X-Gateway-Client-Id: ${clientId}\r\nContent-Type: application/json\r\nContent-Length: ${size}\r\n\r\n`;
    const get =
      `GET ${u.pathname.replace(/validate$/, 'none')} HTTP/1.1\r\nHost: ${u.host}\r\nConnection: keep-alive\r\n` +
      `Authorization: Bearer ${token}\r\nX-Gateway-Client-Id: ${clientId}\r\n\r\n`;
    let sent = 0;
    const next = (): void => {
      sent += 1;
      socket.write(sent <= kept ? get : post());
    };
    const socket = net.connect(Number(u.port), u.hostname, next);
    const timer = setTimeout(() => socket.destroy(), 5000);
    socket.on('data', (c: Buffer) => {
      text += c.toString('latin1');
      // each answer of a GET before the POST (one chunk each on loopback): the next request on the connection
      if (sent <= kept && text.split('HTTP/1.1 ').length - 1 === sent) next();
    });
    socket.once('end', () => {
      // the body in two writes: the reset the first meets fails the second at the latest
      socket.write(Buffer.alloc(size - 1, 32));
      setTimeout(() => socket.end(' '), 100);
    });
    socket.on('error', (e: NodeJS.ErrnoException) => (error ??= e.code ?? e.message));
    socket.once('close', () => {
      clearTimeout(timer);
      const statuses = text.match(/HTTP\/1\.1 \d{3}[^\r]*/g) ?? [];
      resolve({ status: statuses.at(-1) ?? '', answers: statuses.length, ...(error ? { error } : {}) });
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
    expect(r).toEqual({ status: 'HTTP/1.1 413 Payload Too Large', answers: 1 });
    // on a connection kept for three requests before it: the close waits for the latest request's body
    const k = await lateUpload(`${p.target.baseUrl}/v1/transfers/validate`, token, p.clients.code.clientId, 3);
    expect(k).toEqual({ status: 'HTTP/1.1 413 Payload Too Large', answers: 4 });
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
