/**
 * scripts/bench/count-crypto-ops.mjs, the bench's operation counter, installed with node --import (the harness never
 * imports it): under HARNESS_COUNT_CRYPTO_OPS, one file per thread at exit, the main thread's with the process's CPU
 * time (what npm run bench's floor and ratios are made of); RSA private-key operations only; nothing in a process
 * that HARNESS_COUNT_CRYPTO_OPS_IN leaves out (npm's own, when the bench runs certify through npm).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { ROOT } from '../../lib/root.ts';

const COUNTER = join(ROOT, 'scripts', 'bench', 'count-crypto-ops.mjs');

const PRIMITIVES = `
import { createHmac, generateKeyPairSync, privateDecrypt, publicEncrypt, sign } from 'node:crypto';
const k = generateKeyPairSync('rsa', { modulusLength: 2048 });
sign('sha256', Buffer.from('x'), k.privateKey);
sign('sha256', Buffer.from('x'), k.privateKey.export({ type: 'pkcs8', format: 'pem' }));
privateDecrypt(k.privateKey, publicEncrypt(k.publicKey, Buffer.from('x')));
createHmac('sha256', 'k').update('x').digest();
const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
sign('sha256', Buffer.from('x'), ec.privateKey);
const hmac = await crypto.subtle.generateKey({ name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
await crypto.subtle.sign('HMAC', hmac, new Uint8Array([1]));
`;

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function counted(script: string, env: Record<string, string> = {}): Record<string, number>[] {
  const dir = mkdtempSync(join(tmpdir(), 'crypto-ops-'));
  dirs.push(dir);
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--import', COUNTER, '--input-type=module', '-e', script], {
    cwd: ROOT,
    env: { ...process.env, HARNESS_COUNT_CRYPTO_OPS: dir, ...env },
    encoding: 'utf8',
  });
  expect(r.status, r.stderr).toBe(0);
  return readdirSync(dir)
    .filter((f) => /^ops-\d+-0\.json$/.test(f))
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as Record<string, number>);
}

it("counts node:crypto's RSA operations (not HMAC, not EC) and writes them with the CPU time at exit", () => {
  const [file, ...more] = counted(PRIMITIVES);
  expect(more).toEqual([]);
  const { cpuMicros, threadCpuMicros, ...counts } = file!;
  expect(counts).toEqual({ sign: 2, decrypt: 1, tlsServer: 0, tlsClient: 0, keygen: 1 });
  expect(cpuMicros).toBeGreaterThan(0);
  // the thread's own CPU where the system tells it (Linux's /proc/thread-self): at most the process's
  expect(threadCpuMicros !== undefined).toBe(existsSync('/proc/thread-self/stat'));
  expect(threadCpuMicros ?? 0).toBeLessThanOrEqual(cpuMicros!);
});

it("counts the harness's own: a key generated, a payload sealed (one signature) and opened by hand (one unwrap)", () => {
  const script = `
import { generateRsaKeyPair } from './lib/pki/index.ts';
import { seal } from './lib/jose/seal.ts';
import { openByHand } from './lib/jose/craft.ts';
const k = await generateRsaKeyPair();
const jwe = await seal({ a: 1 }, { signingKey: k.privateKeyPem, encryptionKey: k.publicKeyPem });
await openByHand({ envelope: jwe, decryptionKeyPem: k.privateKeyPem, verificationKeyPem: k.publicKeyPem });
`;
  const { cpuMicros: _cpu, threadCpuMicros: _own, ...counts } = counted(script)[0]!;
  expect(counts).toEqual({ sign: 1, decrypt: 1, tlsServer: 0, tlsClient: 0, keygen: 1 });
});

it("counts jose's RSA signature and RSA-OAEP unwrap through WebCrypto (not its HMAC and AES)", () => {
  const script = `
import { generateKeyPairSync } from 'node:crypto';
import { CompactSign, CompactEncrypt, compactDecrypt } from 'jose';
const k = generateKeyPairSync('rsa', { modulusLength: 2048 });
await new CompactSign(new Uint8Array([1])).setProtectedHeader({ alg: 'RS256' }).sign(k.privateKey);
const jwe = await new CompactEncrypt(new Uint8Array([1]))
  .setProtectedHeader({ alg: 'RSA-OAEP-256', enc: 'A256CBC-HS512' })
  .encrypt(k.publicKey);
await compactDecrypt(jwe, k.privateKey);
`;
  const { cpuMicros: _cpu, threadCpuMicros: _own, ...counts } = counted(script)[0]!;
  expect(counts).toEqual({ sign: 1, decrypt: 1, tlsServer: 0, tlsClient: 0, keygen: 1 });
});

it('counts nothing in a process HARNESS_COUNT_CRYPTO_OPS_IN leaves out', () => {
  expect(counted(PRIMITIVES, { HARNESS_COUNT_CRYPTO_OPS_IN: 'scripts/bin/certify.mjs' })).toEqual([]);
});
