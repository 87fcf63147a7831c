/** Budgets of the HTTP client: every limit hit is named in the error ("no response header within 0.2 s"). */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createHttpClient } from '../../lib/http/client.ts';
import { createRedactor } from '../../lib/http/index.ts';
import { TransportError } from '../../lib/http/types.ts';
import { parseCertifyArgs, CliError } from '../../lib/cli/args.ts';

let server: http.Server;
let base = '';
const timers = new Set<NodeJS.Timeout>();

beforeAll(async () => {
  server = http.createServer((req, res) => {
    res.on('error', () => {});
    if (req.url === '/hang') return;
    if (req.url === '/drip') {
      res.writeHead(200, { 'content-type': 'application/json' });
      const t = setInterval(() => res.write(' '), 50);
      timers.add(t);
      res.on('close', () => clearInterval(t));
      return;
    }
    if (req.url === '/stall') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{');
      return;
    }
    if (req.url === '/huge') {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      const chunk = Buffer.alloc(64 * 1024, 65);
      const pump = (): void => {
        while (res.write(chunk)) if (res.destroyed) return;
        res.once('drain', pump);
      };
      pump();
      return;
    }
    res.end('{}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const t of timers) clearInterval(t);
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

async function failure(path: string, o: Parameters<typeof createHttpClient>[0]): Promise<TransportError> {
  const client = createHttpClient(o);
  try {
    await client.send({ method: 'GET', url: `${base}${path}` });
  } catch (e) {
    if (e instanceof TransportError) return e;
    throw e;
  } finally {
    await client.close();
  }
  throw new Error('the request succeeded');
}

describe('HTTP budgets', () => {
  const redactor = createRedactor();
  test('first byte: no response header within the budget', async () => {
    const e = await failure('/hang', { redactor, defaultTimeoutMs: 5000, firstByteTimeoutMs: 200 });
    expect(e.message).toMatch(/no response header within 0\.2 s/);
  });
  test('whole response: a dripping body stops at the response budget', async () => {
    const e = await failure('/drip', { redactor, firstByteTimeoutMs: 2000, responseTimeoutMs: 400 });
    expect(e.message).toMatch(/no complete response within 0\.4 s: stopped reading after \d+ bytes/);
  });
  test('a stalled body is named with the bytes read', async () => {
    const e = await failure('/stall', { redactor, firstByteTimeoutMs: 200, responseTimeoutMs: 5000 });
    expect(e.message).toMatch(/response body stalled: no data for 0\.2 s after 1 bytes/);
  });
  test('body size: reading stops above the limit', async () => {
    const e = await failure('/huge', { redactor, maxResponseBytes: 1024 * 1024 });
    expect(e.code).toBe('RESPONSE_TOO_LARGE');
    expect(e.message).toMatch(/body over 1 MiB: stopped reading/);
  });
  test('the default body limit is 4 MiB', async () => {
    const e = await failure('/huge', { redactor });
    expect(e.message).toMatch(/body over 4 MiB/);
  });
  test('--deadline takes seconds and refuses anything else', () => {
    expect(parseCertifyArgs(['--deadline', '90'])).toMatchObject({ deadlineSeconds: 90 });
    expect(() => parseCertifyArgs(['--deadline', 'soon'])).toThrow(CliError);
    expect(() => parseCertifyArgs(['--deadline', '0'])).toThrow(/--deadline/);
  });
});
