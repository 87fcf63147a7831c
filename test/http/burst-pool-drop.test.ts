/**
 * lib/http/burst/burst-pool.ts: before a burst alone (window.ts vacate) the kept connections to the target are closed but
 * those the target has shown it holds (`keep`), the longest kept first.
 */
import { createServer, connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BurstPool } from '../../lib/http/burst/burst-pool.ts';

const server = createServer((s) => s.on('error', () => {}));
let port = 0;
beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

function open(): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () => resolve(s));
    s.once('error', reject);
  });
}

describe('burst pool: drop with a number to keep', () => {
  test('closes the longest kept beyond `keep`, leaves the other origins alone; no `keep` closes them all', async () => {
    const pool = new BurstPool();
    const a = 'https://a.test';
    const b = 'https://b.test';
    const sockets = await Promise.all([open(), open(), open(), open()]);
    pool.keep(`k\u0000${a}`, a, sockets[0]!, 10_000);
    pool.keep(`k\u0000${a}`, a, sockets[1]!, 10_000);
    pool.keep(`k\u0000${a}`, a, sockets[2]!, 10_000);
    pool.keep(`k\u0000${b}`, b, sockets[3]!, 10_000);
    expect(pool.count(a)).toBe(3);
    pool.drop(a, 3);
    expect(pool.count(a)).toBe(3);
    pool.drop(a, 1);
    expect(pool.count(a)).toBe(1);
    expect(sockets[0]!.destroyed).toBe(true);
    expect(sockets[1]!.destroyed).toBe(true);
    // the most recently kept stays (the next burst takes the newest first)
    expect(sockets[2]!.destroyed).toBe(false);
    expect(pool.count(b)).toBe(1);
    pool.drop(a);
    expect(pool.count(a)).toBe(0);
    expect(pool.count(b)).toBe(1);
    pool.close();
    expect(sockets[3]!.destroyed).toBe(true);
  });
});
