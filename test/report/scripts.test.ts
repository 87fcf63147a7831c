/** The npm scripts are thin wrappers: check that they are wired to the commands and pass exit codes on. */
import { spawn, spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { tempDirs } from '../fixtures/tmp.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeResults } from '../../lib/report/json.ts';
import { fixtureResults } from '../fixtures/results.ts';
import { notVerified, runCertify } from '../cli/run-certify.ts';

const tmp = tempDirs('scripts-');

const root = join(import.meta.dirname, '../..');
const tsx = (script: string, args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', join(root, script), ...args], {
    cwd: root,
    encoding: 'utf8',
    timeout: 40_000,
  });

describe('scripts', () => {
  it('compare and verify-report run and exit with their codes', () => {
    const a = writeResults(fixtureResults(), tmp()).path;
    const same = tsx('scripts/compare.ts', [a, a]);
    expect(same.stdout).toContain('New failures: 0');
    expect(same.status).toBe(0);
    // no key and no report.html beside it: nothing to check the hash against
    const noKey = tsx('scripts/verify-report.ts', [a]);
    expect(noKey.stdout).toContain('NOT VERIFIED');
    expect(noKey.status).toBe(1);
    const usage = tsx('scripts/verify-report.ts', []);
    expect(usage.stderr).toContain('give exactly one results.json');
    expect(usage.status).toBe(2);
  }, 90_000); // two tsx start-ups: slow on a busy 2-core machine
});

describe('bench and load: --help, and what they refuse', () => {
  it('bench --help and load --help print their options (no stack trace, no "unknown option")', () => {
    const bench = tsx('scripts/bench.ts', ['--help']);
    expect(bench.status, bench.stderr).toBe(0);
    expect(bench.stdout).toMatch(/^Usage: npm run bench/);
    expect(bench.stdout).toContain('--latency <ms>');
    const wrong = tsx('scripts/bench.ts', ['--nope']);
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).not.toMatch(/\n\s+at /); // no stack trace
    const load = tsx('scripts/load.ts', ['--help']);
    expect(load.status, load.stderr).toBe(0);
    expect(load.stdout).toContain('--profile <file>');
  }, 90_000);

  it('load refuses an embedded-mock profile and points to npm run mock', () => {
    const r = tsx('scripts/load.ts', ['--profile', 'profiles/mock-uat.json', '--out', tmp()]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/embedded-mock profile: its mock stops when this command ends.*npm run mock/);
  }, 60_000);
});

describe('lint-cert', () => {
  it('a private key given instead of the certificate is named as such, and never printed', () => {
    const dir = tmp();
    const key = join(dir, 'acme_PublicKey_010130.cer');
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    writeFileSync(key, pem);
    const r = tsx('scripts/lint-cert.ts', [key]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/holds a private key, not a certificate/);
    expect(r.stdout + r.stderr).not.toContain(pem.split('\n')[1]!);
  }, 60_000);
});

describe('npm run mock', () => {
  it('prints the certify command, and SIGTERM to the npm process stops it cleanly: port closed, keys removed', async () => {
    const child = spawn('npm', ['run', 'mock', '--', '--mode', 'sandbox'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    const deadline = Date.now() + 100_000;
    while (!out.includes('Ctrl-C') && Date.now() < deadline) await sleep(200);
    expect(out).toMatch(/npm run certify -- --profile \S+profile\.json/);
    const pkiDir = /PKI: +(\S+)/.exec(out)![1]!;
    const api = /API: +(\S+)/.exec(out)![1]!;
    expect(existsSync(pkiDir)).toBe(true);
    expect((await fetch(`${api}/v1/transfers/x`)).status).toBeGreaterThan(0);
    // the command it prints, run as printed, PASSes: a profile the tool writes for itself leaves nothing unverified
    const printed = /npm run certify -- (.+)/.exec(out)![1]!.trim().split(/\s+/);
    const reports = tmp();
    const run = await runCertify([...printed, '--out', reports]);
    // on a failure: which rule went unverified and why (a verdict that depends on the machine's load is the harness's)
    expect(run.code, `${notVerified(reports)}\n${run.stdout.slice(-3000)}`).toBe(0);
    child.kill('SIGTERM');
    await exited;
    // the mock itself (not only npm) stopped: its PKI folder is gone and its port refuses connections
    const until = Date.now() + 20_000;
    while (existsSync(pkiDir) && Date.now() < until) await sleep(100);
    expect(existsSync(pkiDir)).toBe(false);
    await expect(fetch(`${api}/v1/transfers/x`)).rejects.toThrow();
  }, 360_000); // bounded by its parts: the mock's start (100 s) and certify (runCertify: 240 s), slow on a busy machine
});
