/**
 * The command lines: npm run lint-cert (TLS-07 alone) and npm run partner's configuration errors (exit 2, nothing
 * run), with one clear line per defect.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../lib/root.ts';
import { bundledClient, partnerFiles, type PartnerFiles } from './helpers.ts';

const tsx = join(ROOT, 'node_modules', '.bin', 'tsx');
const run = (script: string, args: string[]) =>
  spawnSync(tsx, [join(ROOT, 'scripts', script), ...args], { encoding: 'utf8', timeout: 60_000, cwd: ROOT });

let files: PartnerFiles;
let client: string;
beforeAll(async () => {
  [files, client] = await Promise.all([partnerFiles('acme-pay-002'), bundledClient()]);
}, 60_000);
afterAll(() => {
  if (files) rmSync(files.dir, { recursive: true, force: true });
  if (client) rmSync(client, { force: true });
});

describe('npm run lint-cert', () => {
  it('passes a well-named certificate and names each defect of a misnamed one (exit 2)', () => {
    const wrong = join(files.dir, 'someone-else_PublicKey_010199.cer');
    copyFileSync(files.cert, wrong);
    const r = run('lint-cert.ts', [files.cert, wrong]);
    expect(r.status).toBe(2);
    expect(r.stdout).toMatch(/TLS-07 pass: .*acme-pay-002_PublicKey_\d{6}\.cer \(CN acme-pay-002, .*RSA 2048 bits\)/);
    expect(r.stderr).toMatch(/CN in file name "someone-else" does not match certificate CN "acme-pay-002"/);
    expect(r.stderr).toMatch(/expiry in file name 010199 does not match/);
    expect(r.stderr).toMatch(/would be named acme-pay-002_PublicKey_\d{6}\.cer/);
  }, 90_000);
});

describe('npm run lint-cert on a private key', () => {
  it('says the file holds a private key, and nothing else about it (exit 2)', () => {
    const r = run('lint-cert.ts', [files.key]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/client\.key holds a private key, not a certificate: give the certificate/);
    expect(r.stderr).not.toMatch(/not an X\.509 certificate/);
    expect(r.stderr + r.stdout).not.toMatch(/BEGIN/);
  }, 60_000);
});

describe("docs/partner.md's openssl recipe for the onboarding certificate", () => {
  it('makes a certificate whose file name TLS-07 accepts', () => {
    const doc = readFileSync(join(ROOT, 'docs', 'partner.md'), 'utf8');
    const after = doc.slice(doc.indexOf('To make a self-signed onboarding certificate'));
    const block = /```sh\n([\s\S]*?)```/.exec(after)![1]!;
    const script = block.replace('npm run lint-cert --', `${tsx} ${join(ROOT, 'scripts', 'lint-cert.ts')}`);
    const dir = mkdtempSync(join(tmpdir(), 'partner-recipe-'));
    try {
      const r = spawnSync('bash', ['-euo', 'pipefail', '-c', script], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
      expect(r.stderr).not.toMatch(/TLS-07 fail/);
      expect(r.stdout).toMatch(/TLS-07 pass: acme-pay-001_PublicKey_\d{6}\.cer \(CN acme-pay-001, .*RSA 2048 bits\)/);
      expect(r.status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});

describe('npm run partner', () => {
  it('refuses a misnamed certificate before anything runs (exit 2), and a bad command line (exit 2)', () => {
    const wrong = join(files.dir, 'acme-pay-002_PublicKey_010199.cer');
    copyFileSync(files.cert, wrong);
    const r = run('partner.ts', ['--cert', wrong, '--run', 'false', '--mode', 'uat']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/TLS-07: expiry in file name 010199 does not match/);
    const u = run('partner.ts', ['--cert', files.cert, '--mode', 'prod', '--run', 'false']);
    expect(u.status).toBe(2);
    expect(u.stderr).toMatch(/--mode must be uat or sandbox/);
  }, 90_000);

  it("a partial certification is INCOMPLETE (exit 5), never a pass: certify's verdicts and exit codes", () => {
    const out = join(files.dir, 'out');
    const r = run('partner.ts', [
      ...['--cert', files.cert, '--mode', 'sandbox', '--scenario', 'normal', '--out', out],
      ...['--run', `${process.execPath} ${client}`],
    ]);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/not-run {8}CLI-06 {2}the validate-429 scenario was not run/);
    expect(r.stdout).toMatch(/— INCOMPLETE\n/);
    expect(r.status).toBe(5);
  }, 90_000);
});
