/**
 * The same run on a terminal and in a pipe: the same exit code, the same end-of-log entries (id, verdict, reason,
 * title), and no colour codes on a terminal when CI is set. The terminal is a real pseudo-terminal (util-linux
 * `script`, in Debian's essential bsdutils).
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { tempDirs } from '../fixtures/tmp.ts';
import { ROOT, runCertify } from './run-certify.ts';

const tmp = tempDirs('certify-tty-');

/** the end of the log from "Failed (" on, as a person reads it (line endings of the pty, rewritten status lines) */
const endOfLog = (text: string): string[] => {
  const lines = text
    .replace(/\r\n/g, '\n')
    .split('\n')
    .map((l) => l.split('\r\u001b[2K').at(-1)!);
  return lines.slice(lines.findIndex((l) => /^Failed \(\d+\):$/.test(l))).filter((l) => !l.startsWith('reports:'));
};

describe('certify on a terminal and in a pipe', () => {
  test('same exit code and the same problem entries; no colour on a terminal with CI set', async () => {
    const dir = tmp();
    const profile = join(dir, 'faulty.json');
    writeFileSync(
      profile,
      JSON.stringify({ name: 'faulty-sandbox', environment: 'sandbox', embedded: { faults: ['get-no-status'] } }),
    );
    const args = ['--profile', profile, '--only', 'XFER-04'];
    const piped = await runCertify([...args, '--out', join(dir, 'piped')]);
    const command = [process.execPath, 'scripts/bin/certify.mjs', ...args, '--out', join(dir, 'tty')]
      .map((a) => `'${a}'`)
      .join(' ');
    const env: NodeJS.ProcessEnv = { ...process.env, CI: 'true' };
    delete env.NO_COLOR;
    const tty = spawnSync('script', ['-qec', command, '/dev/null'], {
      cwd: ROOT,
      env,
      encoding: 'utf8',
      timeout: 180_000,
    });
    expect(piped.code, piped.stdout + piped.stderr).toBe(1);
    expect(tty.status, tty.stdout).toBe(1);
    expect(tty.stdout).toContain('\u001b[2K'); // it was a terminal: the status line is rewritten in place
    expect(tty.stdout).not.toMatch(/\u001b\[\d+m/); // CI set: no colour
    const pipedEnd = endOfLog(piped.stdout);
    expect(pipedEnd.length).toBeGreaterThan(1);
    expect(endOfLog(tty.stdout)).toEqual(pipedEnd);
  }, 300_000);
});
