/**
 * SIGINT / SIGTERM during a run, as CI sends them (to `npm run certify`, which must pass them on): the run stops,
 * the three reports are written marked INTERRUPTED with what was verified so far, and the exit code is 130 / 143.
 * An earlier run's reports never stay in --out looking current.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { parseResults } from '../../lib/report/json.ts';
import { tempDirs } from '../fixtures/tmp.ts';
import { ROOT } from './run-certify.ts';

const tmp = tempDirs('certify-interrupt-');

/** starts certify, sends `signal` once the profile has started, and resolves with the exit code and output */
function interrupted(
  command: string[],
  signal: NodeJS.Signals,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(command[0]!, command.slice(1), {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let sent = false;
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (!sent && /started \(\d+ checks?\)/.test(stdout)) {
        sent = true;
        child.kill(signal);
      }
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`certify did not end after ${signal}\n${stdout}\n${stderr}`));
    }, 120_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolveRun({ code, stdout, stderr });
    });
  });
}

describe.concurrent('certify interrupted', { timeout: 180_000 }, () => {
  test('SIGTERM to `npm run certify`: exit 143, three reports marked INTERRUPTED, no stale signature left', async () => {
    const out = tmp();
    // an earlier signed run's files: none may stay looking current
    writeFileSync(join(out, 'results.json.jws'), 'stale');
    writeFileSync(join(out, 'report.html'), 'stale');
    const r = await interrupted(
      ['npm', 'run', '--silent', 'certify', '--', '--profile', 'profiles/mock-uat.json', '--out', out],
      'SIGTERM',
    );
    expect(r.code, r.stdout + r.stderr).toBe(143);
    expect(r.stderr).toMatch(/INTERRUPTED by SIGTERM/);
    expect(existsSync(join(out, 'results.json.jws'))).toBe(false);
    const results = parseResults(readFileSync(join(out, 'results.json'), 'utf8'));
    expect(results.interrupted?.signal).toBe('SIGTERM');
    expect(results.profiles[0]!.interrupted).toBe('SIGTERM');
    expect(results.profiles[0]!.errors.join(' ')).toMatch(/interrupted by SIGTERM: \d+ of \d+ checks had reported/);
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toMatch(/INTERRUPTED/);
    expect(readFileSync(join(out, 'junit.xml'), 'utf8')).toMatch(/<testsuites/);
    expect(r.stdout).toMatch(/overall: INTERRUPTED/);
  });

  test('SIGINT (Ctrl-C): exit 130, reports written, the HAR of what was sent a valid HAR 1.2', async () => {
    const out = tmp();
    const har = join(out, 'run.har');
    const r = await interrupted(
      [
        process.execPath,
        'scripts/bin/certify.mjs',
        '--profile',
        'profiles/mock-sandbox.json',
        '--out',
        out,
        '--har',
        har,
      ],
      'SIGINT',
    );
    expect(r.code, r.stdout + r.stderr).toBe(130);
    expect(parseResults(readFileSync(join(out, 'results.json'), 'utf8')).interrupted?.signal).toBe('SIGINT');
    const written = JSON.parse(readFileSync(har, 'utf8')) as { log: { version: string; entries: unknown[] } };
    expect(written.log.version).toBe('1.2');
    expect(r.stdout).toContain(`har: ${har} (${written.log.entries.length} exchanges)`);
  });
});
