/** Runs the partner's client: no shell, bounded in time and output; stdout and stderr kept together. */
import { spawn } from 'node:child_process';

export interface ClientExit {
  exitCode: number | null;
  /** why it was stopped, when it was */
  stopped?: string;
  output: string;
  durationMs: number;
}

export const MAX_OUTPUT_BYTES = 32 * 1024;
const KILL_GRACE_MS = 2_000;

export interface RunningClient {
  done: Promise<ClientExit>;
  /** stops the client (flood, shutdown) with a reason */
  stop(reason: string): void;
}

/** the clients running now: a second signal kills them before the harness ends (none is left behind) */
const live = new Set<{ kill(signal: NodeJS.Signals): boolean }>();

/** kills every client still running (SIGKILL): the harness is ending at once */
export function killClients(): void {
  for (const child of live) child.kill('SIGKILL');
}

export function startClient(argv: string[], env: NodeJS.ProcessEnv, timeoutMs: number, cwd?: string): RunningClient {
  const started = Date.now();
  const [file, ...args] = argv;
  let stopped: string | undefined;
  let output = '';
  const keep = (chunk: Buffer): void => {
    if (output.length < MAX_OUTPUT_BYTES) output += chunk.toString('utf8').slice(0, MAX_OUTPUT_BYTES - output.length);
  };
  if (!file) {
    return { done: Promise.resolve({ exitCode: null, stopped: 'empty command', output, durationMs: 0 }), stop() {} };
  }
  const child = spawn(file, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  live.add(child);
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const stop = (reason: string): void => {
    if (stopped !== undefined || child.exitCode !== null) return;
    stopped = reason;
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), KILL_GRACE_MS).unref();
  };
  const timer = setTimeout(() => stop(`did not finish within ${Math.round(timeoutMs / 1000)} s`), timeoutMs);
  const done = new Promise<ClientExit>((resolve) => {
    child.once('error', (e) => {
      clearTimeout(timer);
      live.delete(child);
      resolve({ exitCode: null, stopped: `could not start: ${e.message}`, output, durationMs: Date.now() - started });
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      live.delete(child);
      resolve({
        exitCode: code,
        ...(stopped !== undefined ? { stopped } : {}),
        output,
        durationMs: Date.now() - started,
      });
    });
  });
  return { done, stop };
}
