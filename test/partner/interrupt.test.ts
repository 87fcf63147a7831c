/**
 * SIGTERM to `npm run partner`, as CI sends it (docs/partner.md): the harness gets it (the script uses `exec`),
 * stops the partner's client it started and the bank, writes the three reports marked INTERRUPTED with the
 * scenarios that had ended, and exits 143. No process is left behind; no earlier run's report stays in --out.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseResults } from '../../lib/report/json.ts';
import { ROOT } from '../../lib/root.ts';
import { tempDirs } from '../fixtures/tmp.ts';
import { partnerFiles, type PartnerFiles } from './helpers.ts';

const tmp = tempDirs('partner-interrupt-');
let files: PartnerFiles;
beforeAll(async () => {
  files = await partnerFiles('acme-pay-003');
}, 60_000);
afterAll(() => {
  // a client the harness failed to stop must not outlive the test either
  for (const pid of [...pids]) if (alive(pid)) process.kill(pid, 'SIGKILL');
});
const pids = new Set<number>();

/** a client that ends at once (no request: it does not complete the task), except in validate-429, where it hangs */
const SLOW_CLIENT = `
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
if (process.env.BANK_SCENARIO !== 'validate-429') process.exit(3);
writeFileSync(join(process.env.PID_DIR, 'client.pid'), String(process.pid));
setInterval(() => undefined, 1000);
`;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** the pid the slow client wrote, once it has */
async function clientPid(file: string): Promise<number> {
  await until(() => existsSync(file) && readFileSync(file, 'utf8') !== '');
  return Number(readFileSync(file, 'utf8'));
}

/** resolves once `ok()` holds (checked every 100 ms, at most 90 s) */
function until(ok: () => boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    let tries = 0;
    const timer = setInterval(() => {
      if (ok()) {
        clearInterval(timer);
        resolve();
      } else if (++tries > 900) {
        clearInterval(timer);
        reject(new Error('timed out'));
      }
    }, 100);
  });
}

describe('npm run partner interrupted', () => {
  it('SIGTERM: exit 143, the client stopped, three reports marked INTERRUPTED with the scenarios that had ended', async () => {
    const dir = tmp();
    const out = join(dir, 'out');
    const client = join(dir, 'slow-client.mjs');
    writeFileSync(client, SLOW_CLIENT);
    const args = ['--cert', files.cert, '--run', `${process.execPath} ${client}`, '--out', out, '--parallel', '2'];
    // an earlier signed run's files: none may stay looking current
    mkdirSync(out);
    writeFileSync(join(out, 'results.json.jws'), 'stale');
    writeFileSync(join(out, 'report.html'), 'stale');
    const child = spawn('npm', ['run', '--silent', 'partner', '--', ...args], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1', PID_DIR: dir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const ended = new Promise<number | null>((resolve) => child.on('close', resolve));
    const pid = await clientPid(join(dir, 'client.pid'));
    pids.add(pid);
    // the longest scenarios start first (validate-429 among them): the signal once normal has ended
    await until(() => /scenario normal \(/.test(output));
    child.kill('SIGTERM');
    // bounded: a harness that ignores the signal is killed and the test fails
    const killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    const code = await ended;
    clearTimeout(killer);
    expect(code, output).toBe(143);
    expect(output).toMatch(/INTERRUPTED by SIGTERM/);
    expect(alive(pid), 'the partner client outlived the harness').toBe(false);
    expect(existsSync(join(out, 'results.json.jws'))).toBe(false);
    const results = parseResults(readFileSync(join(out, 'results.json'), 'utf8'));
    expect(results.interrupted?.signal).toBe('SIGTERM');
    const p = results.profiles[0]!;
    expect(p.interrupted).toBe('SIGTERM');
    expect(p.errors.join(' ')).toMatch(/interrupted by SIGTERM: \d+ of \d+ scenarios had ended and were judged/);
    // what was judged so far: the normal scenario had ended (the client did not complete it), validate-429 had not
    const scenarios = (p.assumptions.partner as { scenarios: Record<string, unknown> }).scenarios;
    expect(Object.keys(scenarios)).toContain('normal');
    expect(Object.keys(scenarios)).not.toContain('validate-429');
    expect(p.prerequisites?.find((q) => q.id === 'partner-normal-task')?.verdict).toBe('fail');
    expect(p.results.find((r) => r.requirements[0] === 'CLI-06')?.verdict).toBe('not-run');
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toMatch(/INTERRUPTED/);
    expect(readFileSync(join(out, 'junit.xml'), 'utf8')).toMatch(/<testsuites/);
  }, 180_000);

  it('SIGINT (Ctrl-C) while the bank listens (--listen): exit 130, the wait ends, reports written', async () => {
    const out = join(tmp(), 'out');
    const args = ['--cert', files.cert, '--listen', '--scenario', 'normal', '--duration', '600', '--out', out];
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/partner.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let sent = false;
    child.stdout.on('data', (d: Buffer) => {
      output += d.toString();
      if (!sent && /the bank listens for 600 s/.test(output)) {
        sent = true;
        child.kill('SIGINT');
      }
    });
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const killer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    clearTimeout(killer);
    expect(code, output).toBe(130);
    const results = parseResults(readFileSync(join(out, 'results.json'), 'utf8'));
    expect(results.interrupted?.signal).toBe('SIGINT');
    expect(results.profiles[0]!.errors.join(' ')).toMatch(/interrupted by SIGINT: 0 of 1 scenarios had ended/);
  }, 120_000);
});
