/** Runs scripts/certify.ts as a real process (the way a user does) and captures what it prints. */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { readResults } from '../../lib/report/json.ts';
import { unverified } from '../../lib/engine/verdict.ts';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface CertifyRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCertify(
  args: string[],
  timeoutMs = 240_000,
  script = 'scripts/bin/certify.mjs',
  env: Record<string, string> = {},
): Promise<CertifyRun> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(
      process.execPath,
      script.endsWith('.mjs') ? [script, ...args] : ['--import', 'tsx', script, ...args],
      {
        cwd: ROOT,
        env: { ...process.env, NO_COLOR: '1', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`certify ${args.join(' ')} did not finish within ${timeoutMs} ms\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, stdout, stderr });
    });
  });
}

/**
 * what a run left unverified, from the results.json in `out`: each rule that counts and was not verified (its
 * check id, requirements, verdict and reason) and the profiles' errors; for the message of a failed exit-code
 * expectation, so that a run that ended INCOMPLETE says why
 */
export function notVerified(out: string): string {
  const path = join(out, 'results.json');
  if (!existsSync(path)) return `no ${path}`;
  const results = readResults(path);
  const lines = results.profiles.flatMap((p) => [
    ...p.errors.map((e) => `${p.profile}: error: ${e}`),
    ...p.results
      .filter((r) => unverified(r, results.options.failOn))
      .map((r) => `${p.profile}: ${r.checkId} (${r.requirements.join(', ')}) ${r.verdict}: ${r.reason ?? ''}`),
  ]);
  return lines.length ? `not verified:\n${lines.join('\n')}` : 'every rule that counts was verified';
}
