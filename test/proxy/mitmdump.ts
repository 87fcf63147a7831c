/** Debian's mitmproxy for the proxy tests: mitmdump started on a loopback port with its own confdir, and stopped. */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Mitmdump {
  url: string;
  /** mitmproxy's CA (PEM), made in its confdir at its first start */
  caFile: string;
  /** the flows it saved (-w) */
  flowsFile: string;
  stop(): Promise<void>;
}

/** why mitmdump cannot be used here (undefined: it can) */
export function mitmdumpMissing(): string | undefined {
  const r = spawnSync('mitmdump', ['--version'], { encoding: 'utf8', timeout: 20_000 });
  if (r.error || r.status !== 0)
    return 'mitmdump (Debian package mitmproxy) is not installed: .ci/run installs it (apt-get install -y mitmproxy)';
  return undefined;
}

/**
 * starts mitmdump in `dir` (confdir, flows) with `args` (a `--listen-port` among them is kept: the README's recipe
 * names its port); resolves once it listens (20 s at most). Without a port, or with port 0, mitmdump binds a port the
 * system picks and prints it ("listening at 127.0.0.1:N"): a port picked here and bound later could be taken meanwhile
 * by another test file's server (CI saw "[Errno 98] address already in use").
 */
export async function startMitmdump(dir: string, args: string[]): Promise<Mitmdump> {
  const given = args.indexOf('--listen-port');
  const flowsFile = join(dir, 'flows');
  const child: ChildProcess = spawn(
    'mitmdump',
    [
      '--listen-host',
      '127.0.0.1',
      ...(given >= 0 ? [] : ['--listen-port', '0']),
      '--set',
      `confdir=${join(dir, 'conf')}`,
      '-w',
      flowsFile,
      ...args,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`mitmdump did not listen within 20 s: ${out}`)), 20_000);
    const onData = (d: Buffer): void => {
      out += d.toString();
      const listening = /listening at \S*?:(\d+)/.exec(out);
      if (listening) {
        clearTimeout(timer);
        resolve(Number(listening[1]));
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`mitmdump exited (${code}) before listening: ${out}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    caFile: join(dir, 'conf', 'mitmproxy-ca-cert.pem'),
    flowsFile,
    async stop() {
      if (child.exitCode !== null) return;
      // SIGTERM: it writes the flows it still holds (-w) before it exits, which takes a while on a loaded machine
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** mitmdump's addon that prints each saved flow's request in full (flow_detail shortens long URLs) and its status */
const PRINT_FLOWS = `def response(flow):
    print("FLOW", flow.request.method, flow.request.pretty_url, flow.response.status_code, flush=True)

def error(flow):
    if flow.response is None:
        print("FLOW", flow.request.method, flow.request.pretty_url, "-", flush=True)
`;

/** a flow mitmdump saved: its request, and the status of the target's answer it passed on (undefined: none) */
export interface SavedFlow {
  method: string;
  url: string;
  status?: number;
}

/** the flows a mitmdump saved, each once, in order (read back with `mitmdump -nr flows -s print.py`) */
export function savedFlows(flowsFile: string): SavedFlow[] {
  return savedRequests(flowsFile).map((l) => {
    const [method, url, status] = l.split(' ') as [string, string, string];
    return { method, url, ...(status !== '-' ? { status: Number(status) } : {}) };
  });
}

/** the requests a mitmdump saved ("METHOD URL", in order), read back with `mitmdump -nr flows -s print.py` */
export function savedRequests(flowsFile: string): string[] {
  const addon = `${flowsFile}.print.py`;
  writeFileSync(addon, PRINT_FLOWS);
  const r = spawnSync('mitmdump', ['-q', '-n', '-r', flowsFile, '-s', addon], { encoding: 'utf8', timeout: 60_000 });
  return (r.stdout ?? '')
    .split('\n')
    .filter((l) => l.startsWith('FLOW '))
    .map((l) => l.slice('FLOW '.length));
}
