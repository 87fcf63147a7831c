/**
 * lib/crypto-ops.ts: under HARNESS_COUNT_CRYPTO_OPS, one file per thread at exit, the main thread's with the
 * process's CPU time (what npm run bench's floor and ratios are made of)
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { ROOT } from '../../lib/root.ts';

const SCRIPT = `
import { countCryptoOp } from './lib/crypto-ops.ts';
countCryptoOp('sign', 2);
countCryptoOp('decrypt');
countCryptoOp('tlsServer');
countCryptoOp('keygen');
`;

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function counted(script: string): Record<string, number> {
  const dir = mkdtempSync(join(tmpdir(), 'crypto-ops-'));
  dirs.push(dir);
  run({ HARNESS_COUNT_CRYPTO_OPS: dir }, script);
  const files = readdirSync(dir);
  expect(files).toHaveLength(1);
  expect(files[0]).toMatch(/^ops-\d+-0\.json$/);
  return JSON.parse(readFileSync(join(dir, files[0]!), 'utf8')) as Record<string, number>;
}

function run(env: Record<string, string>, script = SCRIPT): void {
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  expect(r.status, r.stderr).toBe(0);
}

it('writes the counts and the CPU time at exit when HARNESS_COUNT_CRYPTO_OPS names a folder', () => {
  const { cpuMicros, ...counts } = counted(SCRIPT);
  expect(counts).toEqual({ sign: 2, decrypt: 1, tlsServer: 1, tlsClient: 0, keygen: 1 });
  expect(cpuMicros).toBeGreaterThan(0);
});

it('counts at the call sites: a key generated, a payload sealed (one signature) and opened by hand (one unwrap)', () => {
  const script = `
import { generateRsaKeyPair } from './lib/pki/index.ts';
import { seal } from './lib/jose/seal.ts';
import { openByHand } from './lib/jose/craft.ts';
const k = await generateRsaKeyPair();
const jwe = await seal({ a: 1 }, { signingKey: k.privateKeyPem, encryptionKey: k.publicKeyPem });
await openByHand({ envelope: jwe, decryptionKeyPem: k.privateKeyPem, verificationKeyPem: k.publicKeyPem });
`;
  const { cpuMicros: _cpu, ...counts } = counted(script);
  expect(counts).toEqual({ sign: 1, decrypt: 1, tlsServer: 0, tlsClient: 0, keygen: 1 });
});
