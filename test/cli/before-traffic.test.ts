/**
 * Bad input that can be seen without sending a byte ends the run with exit 2, a message naming the cause, fast,
 * and no traffic: every profile here points at a listener that counts the connections it gets.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCertify } from './run-certify.ts';

const dir = mkdtempSync(join(tmpdir(), 'certify-before-traffic-'));
let server: Server;
let hits = 0;
let baseUrl = '';

beforeAll(async () => {
  server = createServer((_req, res) => {
    hits++;
    res.end();
  });
  server.on('connection', () => hits++);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  rmSync(dir, { recursive: true, force: true });
});

const PEM = (label: string): string => `-----BEGIN ${label}-----\nMIIBdummydummydummy\n-----END ${label}-----\n`;

/** a full profile aimed at the counting listener, as a file */
function profile(name: string, over: (doc: Record<string, unknown>) => void = () => {}): string {
  const doc: Record<string, unknown> = {
    name,
    environment: 'sandbox',
    target: { baseUrl },
    clients: {
      code: { clientId: 'c1', clientSecret: 'code-secret', redirectUri: 'http://127.0.0.1:2/cb' },
      partner: { clientId: 'p1', clientSecret: 'partner-secret' },
    },
    customers: [
      { name: 'a', uuid: 'u1', accountId: '1234567890123', beneficiaryId: 'B1' },
      { name: 'b', uuid: 'u2', accountId: '9876543210987654', beneficiaryId: 'B2', workflow: true },
    ],
  };
  over(doc);
  const path = join(dir, `${name}.json`);
  writeFileSync(path, JSON.stringify(doc));
  return path;
}

async function expectRefused(args: string[], message: RegExp): Promise<string> {
  const before = hits;
  const r = await runCertify(args, 120_000);
  expect(r.code, r.stdout + r.stderr).toBe(2);
  expect(r.stderr).toMatch(message);
  expect(r.stdout).not.toMatch(/reports:/);
  expect(hits - before, 'connections to the target').toBe(0);
  return r.stderr;
}

describe.concurrent('exit 2 before any traffic', { timeout: 180_000 }, () => {
  test('--out that cannot be created (under /proc): no endless mkdir loop', async () => {
    await expectRefused(['--profile', profile('out-proc'), '--out', '/proc/certify-forbidden'], /--out: .*proc/);
  });

  test('--out naming a file', async () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, 'x');
    await expectRefused(['--profile', profile('out-file'), '--out', file], /a-file is a file, not a folder/);
  });

  test('--out under a file', async () => {
    const file = join(dir, 'another-file');
    writeFileSync(file, 'x');
    await expectRefused(
      ['--profile', profile('out-under-file'), '--out', join(file, 'reports')],
      /another-file is a file, not a folder/,
    );
  });

  test('a UAT profile with an http:// URL', async () => {
    const p = profile('uat-http', (d) => {
      d.environment = 'uat';
      d.tls = { caCertificate: PEM('CERTIFICATE') };
      d.bank = { apiPublicKey: PEM('PUBLIC KEY') };
    });
    await expectRefused(['--profile', p, '--out', join(dir, 'o1')], /target\.baseUrl: must be an https:\/\/ URL/);
  });

  test('manual consent without a terminal', async () => {
    const p = profile('manual', (d) => {
      (d.target as Record<string, unknown>).consent = { mode: 'manual' };
    });
    await expectRefused(['--profile', p, '--out', join(dir, 'o2')], /target\.consent\.mode: "manual" needs a person/);
  });

  test('a key that does not read, named by its field (never its value)', async () => {
    const p = profile('bad-key', (d) => {
      d.report = { signingKey: PEM('PRIVATE KEY') };
    });
    const err = await expectRefused(
      ['--profile', p, '--out', join(dir, 'o3')],
      /report\.signingKey: not a private key/,
    );
    expect(err).not.toContain('MIIBdummy');
  });

  test('a broken profile: each issue printed once', async () => {
    const p = profile('broken', (d) => {
      d.contract = { quota: { perHour: -1 } };
    });
    const err = await expectRefused(['--profile', p, '--out', join(dir, 'o4')], /contract\.quota\.perHour/);
    expect(err.match(/contract\.quota\.perHour/g)).toHaveLength(1);
    expect(existsSync(join(dir, 'o4')), 'no empty reports folder left behind').toBe(false);
  });

  test('two profiles with one name (their reports are named by it)', async () => {
    const a = profile('twin');
    const b = profile('twin-2', (d) => {
      d.name = 'twin';
    });
    await expectRefused(
      ['--profile', a, '--profile', b, '--out', join(dir, 'o5')],
      /profile name "twin" is used by \S+twin\.json and \S+twin-2\.json: each profile needs its own name/,
    );
  });

  test('--only with a client-side rule points to npm run partner', async () => {
    await expectRefused(
      ['--profile', profile('client-side'), '--only', 'CLI-01', '--out', join(dir, 'o6')],
      /--only: CLI-01 is a rule of a partner's client, not of the bank: certify a client with `npm run partner`/,
    );
  });
});
