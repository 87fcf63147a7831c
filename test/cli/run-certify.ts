/** Runs scripts/certify.ts as a real process (the way a user does) and captures what it prints. */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, resolve } from 'node:path';

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
