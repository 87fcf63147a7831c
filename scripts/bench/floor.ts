/**
 * The crypto floor of a certify run (docs/performance.md): what its RSA private-key operations cost at this machine's
 * `openssl speed rsa2048` rate, over the cores in use; the run's wall and CPU time as ratios of it; and the top
 * frames of a CPU profile of the run (harness and mock threads together). The parsing and the arithmetic are pure
 * (test/bench/floor.test.ts); the measuring is at the end.
 */
import { spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** the kinds of RSA private-key operation counted (scripts/bench/count-crypto-ops.mjs) */
export interface CryptoOpCounts {
  /** an RSA signature (JWS, certificate, report) */
  sign: number;
  /** an RSA decryption (a JWE content key unwrapped) */
  decrypt: number;
  /** a full TLS handshake the server completed with its certificate's private key */
  tlsServer: number;
  /** a full TLS handshake where the client proved its certificate (CertificateVerify) */
  tlsClient: number;
  /** an RSA key pair generated (hundreds of signatures' worth each: the bench weighs them) */
  keygen: number;
}

/**
 * what a thread writes at exit: its counts, from the main thread the process's CPU time in microseconds, and where
 * the system tells it (Linux) the thread's own CPU time
 */
export type CryptoOpsFile = CryptoOpCounts & { cpuMicros?: number; threadCpuMicros?: number };

/** the CPU seconds of the main thread (the harness: engine, client, reports) and of the other counted threads (the mocks) */
export interface ThreadCpu {
  main: number;
  workers: number;
}

/** sign/s of RSA-2048 from `openssl speed rsa2048` output (OpenSSL 1.1 to 3.x columns), undefined when absent */
export function parseOpensslSpeed(text: string): number | undefined {
  const lines = text.split('\n');
  const header = lines.find((l) => /\bsign\/s\b/.test(l));
  const row = lines.find((l) => /^rsa\s*2048 bits\s/.test(l));
  if (!header || !row) return undefined;
  const column = header.trim().split(/\s+/).indexOf('sign/s');
  const value = Number(row.replace(/^rsa\s*2048 bits\s+/, '').split(/\s+/)[column]);
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

/** the counts of every thread of one run added up, and the process's CPU seconds (from the main thread's file) */
export function addCounts(files: readonly CryptoOpsFile[]): {
  counts: CryptoOpCounts;
  cpuSeconds?: number;
  threads?: ThreadCpu;
} {
  const counts: CryptoOpCounts = { sign: 0, decrypt: 0, tlsServer: 0, tlsClient: 0, keygen: 0 };
  let cpuMicros: number | undefined;
  let main: number | undefined;
  let workers = 0;
  let everyThread = files.length > 0;
  for (const f of files) {
    for (const k of Object.keys(counts) as (keyof CryptoOpCounts)[]) counts[k] += f[k];
    if (f.cpuMicros !== undefined) cpuMicros = f.cpuMicros;
    if (f.threadCpuMicros === undefined) everyThread = false;
    else if (f.cpuMicros !== undefined) main = f.threadCpuMicros;
    else workers += f.threadCpuMicros;
  }
  return {
    counts,
    ...(cpuMicros !== undefined ? { cpuSeconds: cpuMicros / 1e6 } : {}),
    ...(everyThread && main !== undefined ? { threads: { main: main / 1e6, workers: workers / 1e6 } } : {}),
  };
}

export interface Floor {
  /** private operations in signature-equivalents (a key generation weighs `keygenSigns`) */
  ops: number;
  seconds: number;
  signPerSecond: number;
  cores: number;
}

/** the floor: the operations (key generations weighed as `keygenSigns` signatures each) ÷ (sign/s × cores) */
export function cryptoFloor(counts: CryptoOpCounts, signPerSecond: number, cores: number, keygenSigns: number): Floor {
  const ops = counts.sign + counts.decrypt + counts.tlsServer + counts.tlsClient + counts.keygen * keygenSigns;
  return { ops, seconds: ops / (signPerSecond * cores), signPerSecond, cores };
}

/** the bench's one line: the floor and the median run's wall ÷ floor and CPU ÷ floor (docs/performance.md) */
export function floorLine(f: Floor, wallSeconds: number, cpuSeconds: number): string {
  return (
    `crypto floor: ${f.seconds.toFixed(2)} s (${Math.round(f.ops)} private RSA ops at ${Math.round(f.signPerSecond)} ` +
    `sign/s x ${f.cores} cores); wall/floor ${(wallSeconds / f.seconds).toFixed(1)}; ` +
    `cpu/floor ${(cpuSeconds / f.seconds).toFixed(1)}`
  );
}

/**
 * A second figure beside that line's (not a replacement): the run's CPU over the CPU its counted RSA operations cost
 * on one core (ops ÷ sign/s), and what is left beyond them per HTTP call. cpu/floor is this ratio times the cores: on 2
 * cores the goal cpu/floor ≤ 2 (docs/performance.md, "The crypto floor") would leave no CPU at all for anything but
 * RSA (not even starting Node), so this figure, and the CPU per call beyond RSA, are what a change to the run's own
 * work moves.
 */
export function beyondRsaLine(f: Floor, cpuSeconds: number, calls: number | undefined): string {
  const rsaCpu = f.ops / f.signPerSecond;
  const beyond = cpuSeconds - rsaCpu;
  const perCall = calls ? `, ${((1000 * beyond) / calls).toFixed(2)} ms per HTTP call (${calls} calls)` : '';
  return (
    `  beyond RSA: cpu/rsa-cpu ${(cpuSeconds / rsaCpu).toFixed(1)} (the RSA ops' own CPU ${rsaCpu.toFixed(2)} s on one core; ` +
    `cpu/floor = this x ${f.cores} cores, so cpu/floor ${f.cores} is RSA and nothing else); ` +
    `CPU beyond RSA ${beyond.toFixed(2)} s${perCall}`
  );
}

/** the HTTP calls a run made (results.json: every profile's traffic.calls), undefined when not readable */
export function callsOf(resultsJson: string): number | undefined {
  try {
    const r = JSON.parse(resultsJson) as { profiles?: { traffic?: { calls?: Record<string, number> } }[] };
    let n = 0;
    for (const p of r.profiles ?? []) for (const c of Object.values(p.traffic?.calls ?? {})) n += c;
    return n > 0 ? n : undefined;
  } catch {
    return undefined;
  }
}

/** the part of a .cpuprofile (V8's CPU profile JSON) read here */
export interface CpuProfile {
  nodes: {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber?: number };
    children?: number[];
  }[];
  samples: number[];
  timeDeltas: number[];
}

export interface Frame {
  name: string;
  selfMs: number;
}

/** self time per function (name and url) over the profiles, largest first; idle time is not CPU and is left out */
export function topFrames(profiles: readonly CpuProfile[], n = 5): Frame[] {
  const self = new Map<string, number>();
  for (const p of profiles) {
    const names = new Map(p.nodes.map((x) => [x.id, frameName(x.callFrame)]));
    p.samples.forEach((id, i) => {
      const name = names.get(id);
      if (name === undefined || name === '(idle)') return;
      self.set(name, (self.get(name) ?? 0) + (p.timeDeltas[i] ?? 0) / 1000);
    });
  }
  return [...self]
    .map(([name, selfMs]) => ({ name, selfMs }))
    .sort((a, b) => b.selfMs - a.selfMs)
    .slice(0, n);
}

function frameName(c: CpuProfile['nodes'][number]['callFrame']): string {
  const name = c.functionName || '(anonymous)';
  if (!c.url) return name;
  const at = c.lineNumber !== undefined && c.lineNumber >= 0 ? `:${c.lineNumber + 1}` : '';
  return `${name} ${c.url.replace(/^file:\/\/.*?\/node_modules\//, 'node_modules/')}${at}`;
}

/** openssl speed rsa2048: sign/s (one core), undefined when openssl is missing or its output unknown */
export function opensslSignPerSecond(seconds = 1): number | undefined {
  const r = spawnSync('openssl', ['speed', '-seconds', String(seconds), 'rsa2048'], { encoding: 'utf8' });
  return parseOpensslSpeed(r.stdout ?? '');
}

/**
 * what one RSA-2048 key generation costs in signatures at `signPerSecond` (the mean of `n` generations here: prime
 * search varies, so this is rough). CPU time, as openssl speed measures its rate: on a loaded machine wall time
 * would count the time other processes ran.
 */
export function keygenSigns(signPerSecond: number, n = 8): number {
  const t0 = process.cpuUsage();
  for (let i = 0; i < n; i++) generateKeyPairSync('rsa', { modulusLength: 2048 });
  const used = process.cpuUsage(t0);
  return ((used.user + used.system) / 1e6 / n) * signPerSecond;
}

/** the counts files a run left in `dir` */
export function readCounts(dir: string): ReturnType<typeof addCounts> & { files: number } {
  const files = readdirSync(dir)
    .filter((f) => /^ops-\d+-\d+\.json$/.test(f))
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as CryptoOpsFile);
  return { ...addCounts(files), files: files.length };
}

/** the .cpuprofile files in `dir` (one per thread) */
export function readProfiles(dir: string): CpuProfile[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as CpuProfile);
}
