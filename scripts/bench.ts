/**
 * Benchmark: wall time of a full certification of the embedded mock (both modes) and of the fault matrix.
 * Prints figures; asserts nothing (speed is measured here, never in timed tests).
 *   npm run bench [-- --runs 3] [-- --skip-matrix]
 *   npm run bench -- --latency 100 [--runs 3]   a distant target: the mocks answer 100 ms late; prints run time at
 *                                               0 and 100 ms, and run time ÷ (critical-path round trips × RTT)
 *   npm run bench -- --hang                     a hanging target (accepts, never answers), both modes, default limits
 *   npm run bench -- --load   (only the mock's load figure: sealed validate calls/s vs openssl speed rsa2048)
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { RunResults } from '../lib/engine/results.ts';

export const BENCH_HELP = `Usage: npm run bench -- [options]

Measures wall times (prints figures; asserts nothing). Without an option: a full certification of the embedded
mock (both modes) and the fault matrix, each against its target.

Options:
  --runs <n>         runs per figure (default 3, at most 20); the median is compared with the target
  --skip-matrix      leave the fault matrix out
  --latency <ms>     the mocks answer <ms> late: certify at 0 ms and at <ms>, and the critical-path ratio
  --hang             certify against a hanging target (accepts, never answers), both modes, default limits
  --load             only the mock's load figure: sealed validate calls/s against openssl speed rsa2048
  --help             print this help
`;

function parseBenchArgs(): {
  runs: string;
  'skip-matrix': boolean;
  latency?: string;
  hang: boolean;
  load: boolean;
  help: boolean;
} {
  try {
    return parseArgs({
      options: {
        runs: { type: 'string', default: '3' },
        'skip-matrix': { type: 'boolean', default: false },
        latency: { type: 'string' },
        hang: { type: 'boolean', default: false },
        /** only the mock's load figure (scripts/bench/load.ts) */
        load: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }).values;
  } catch (e) {
    process.stderr.write(`bench: ${(e as Error).message}\n\n${BENCH_HELP}`);
    process.exit(2);
  }
}
const values = parseBenchArgs();
if (values.help) {
  process.stdout.write(BENCH_HELP);
  process.exit(0);
}
if (values.load) {
  const { benchLoad } = await import('./bench/load.ts');
  process.stdout.write(
    `machine: ${cpus().length} cores, ${cpus()[0]?.model ?? 'unknown cpu'}, node ${process.version}\n`,
  );
  process.stdout.write(`${(await benchLoad()).join('\n')}\n`);
  process.exit(0);
}
const runs = Math.max(1, Math.min(20, Number(values.runs) || 3));

function time(label: string, cmd: string, args: string[], expectExit = [0]): number[] {
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const r = spawnSync(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, CI: '1' } });
    const s = (performance.now() - t0) / 1000;
    if (!expectExit.includes(r.status ?? -1)) {
      process.stderr.write(`${label}: run ${i + 1} exited ${r.status}\n${r.stderr.toString().slice(-2000)}\n`);
    }
    out.push(s);
    process.stdout.write(`${label}: run ${i + 1}/${runs}: ${s.toFixed(2)} s (exit ${r.status})\n`);
  }
  return out;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
function stats(xs: number[]): string {
  const s = [...xs].sort((a, b) => a - b);
  return `min ${s[0]!.toFixed(2)} s, median ${median(xs).toFixed(2)} s, max ${s[s.length - 1]!.toFixed(2)} s`;
}

/** embedded mock profiles (both modes) whose mocks answer `latencyMs` late (and their test clock `clockMs` late) */
function mockProfiles(dir: string, latencyMs: number, clockMs = 0): string[] {
  return (['sandbox', 'uat'] as const).map((mode) => {
    const base = JSON.parse(readFileSync(`profiles/mock-${mode}.json`, 'utf8')) as Record<string, unknown>;
    const path = join(dir, `mock-${mode}-${latencyMs}-${clockMs}.json`);
    const embedded = { ...(base.embedded as object), latencyMs, ...(clockMs ? { clockLatencyMs: clockMs } : {}) };
    writeFileSync(path, JSON.stringify({ ...base, embedded }));
    return path;
  });
}

/** round trips one after another in a list of exchanges: the most that do not overlap (calls in flight together
 * count once) */
function depth(exchanges: { startedAt: string; durationMs: number }[]): number {
  const spans = exchanges
    .map((e) => [Date.parse(e.startedAt), Date.parse(e.startedAt) + e.durationMs] as const)
    .sort((x, y) => x[1] - y[1]);
  let n = 0;
  let last = -Infinity;
  for (const [start, end] of spans) {
    if (start >= last - 2) {
      n++;
      last = end;
    }
  }
  return n;
}

/**
 * Round trips on the critical path of a profile's run, from its results: the prerequisites stage by stage, the
 * deepest shared check (they run side by side), and the exclusive units one after another (a check alone, or a
 * clock group whose checks run side by side: its deepest), each check counted by its round trips one after
 * another. With the profile's run.concurrency the shared checks cannot take fewer than their total ÷ concurrency.
 */
async function criticalPath(run: RunResults['profiles'][number]): Promise<{ critical: number; bound: number }> {
  const { allChecks } = await import('../suites/index.ts');
  const defs = new Map(allChecks.map((c) => [c.id, c]));
  const n = (id: string): number => depth(run.prerequisites?.find((p) => p.id === id)?.evidence.exchanges ?? []);
  const prereq = n('reach-api') + Math.max(n('client-credentials-token'), n('code-grant'));
  const shared = run.results.filter((r) => !defs.get(r.checkId)?.exclusive).map((r) => depth(r.evidence.exchanges));
  const units = new Map<string, number>();
  for (const r of run.results) {
    const def = defs.get(r.checkId);
    if (!def?.exclusive) continue;
    const unit = def.clockGroup ? `group ${def.clockGroup}` : r.checkId;
    units.set(unit, Math.max(units.get(unit) ?? 0, depth(r.evidence.exchanges)));
  }
  const excl = [...units.values()].reduce((a, b) => a + b, 0);
  const concurrency = profileConcurrency(run.profile);
  const sum = shared.reduce((a, b) => a + b, 0);
  const longest = Math.max(0, ...shared);
  return {
    critical: prereq + longest + excl,
    bound: prereq + Math.max(longest, Math.ceil(sum / concurrency)) + excl,
  };
}

/** run.concurrency of a bench profile (named after profiles/mock-<mode>.json) */
function profileConcurrency(name: string): number {
  const mode = name.includes('uat') ? 'uat' : 'sandbox';
  const p = JSON.parse(readFileSync(`profiles/mock-${mode}.json`, 'utf8')) as { run?: { concurrency?: number } };
  return p.run?.concurrency ?? 4;
}

/**
 * certify against the mocks 0 ms away, `ms` away (their API answers late: the measure), and `ms` away with
 * their test clock as far (a real target's clock control is where the target is)
 */
async function latencyMode(ms: number, out: string): Promise<string[]> {
  const lines: string[] = [];
  const runs = [
    { key: '0', label: '0 ms away', api: 0, clock: 0 },
    { key: 'api', label: `${ms} ms away`, api: ms, clock: 0 },
    { key: 'clock', label: `${ms} ms away, their test clock too`, api: ms, clock: ms },
  ];
  const times: Record<string, number[]> = {};
  for (const r of runs) {
    const profiles = mockProfiles(out, r.api, r.clock).flatMap((p) => ['--profile', p]);
    times[r.key] = time(`certify, mocks ${r.label}`, 'npm', ['run', '-s', 'certify', '--', ...profiles, '--out', out]);
    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as RunResults;
    for (const p of results.profiles) {
      const cp = await criticalPath(p);
      const exchanges = p.results.reduce((a, x) => a + x.evidence.exchanges.length, 0);
      const ratio =
        r.api > 0 ? `, run time ÷ (critical path × RTT) = ${(p.durationMs / (cp.critical * r.api)).toFixed(2)}` : '';
      lines.push(
        `  ${r.label}: ${p.profile}: ${(p.durationMs / 1000).toFixed(2)} s, ${exchanges} exchanges, critical path ${cp.critical} round trips (${cp.bound} with its concurrency)${ratio}`,
      );
    }
  }
  const t0 = median(times['0']!);
  const target = 1.5 * t0 + 2;
  const verdict = (key: string): string => (median(times[key]!) <= target ? 'met' : 'NOT met');
  lines.unshift(
    `certify at 0 ms: ${stats(times['0']!)}`,
    `certify at ${ms} ms: ${stats(times.api!)}; target ≤ 1.5 × ${t0.toFixed(2)} + 2 = ${target.toFixed(2)} s: ${verdict('api')}`,
    `certify at ${ms} ms, test clock ${ms} ms away too: ${stats(times.clock!)}; same target: ${verdict('clock')}`,
  );
  return lines;
}

/** a hanging target (accepts, never answers) in both modes, default limits, through the command */
async function hangMode(out: string): Promise<string[]> {
  const { testPki } = await import('../lib/pki/index.ts');
  const { startMockBank } = await import('../lib/mock/index.ts');
  const pki = await testPki();
  const sockets = new Set<net.Socket>();
  const server = net.createServer((s) => {
    sockets.add(s);
    s.on('error', () => {});
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  const args: string[] = [];
  for (const mode of ['sandbox', 'uat'] as const) {
    const mock = await startMockBank({ mode, pki });
    const p = mock.profile(`hang-${mode}`);
    await mock.close();
    const { clock: _clock, ...target } = p.target;
    const url = `${mode === 'uat' ? 'https' : 'http'}://127.0.0.1:${port}`;
    const path = join(out, `hang-${mode}.json`);
    writeFileSync(path, JSON.stringify({ ...p, target: { ...target, baseUrl: url } }));
    args.push('--profile', path);
  }
  try {
    const t = time(
      'certify, hanging target (both modes)',
      'npm',
      ['run', '-s', 'certify', '--', ...args, '--out', out],
      [4],
    );
    return [
      `hanging target (both modes, default 10 s limits): ${stats(t)} (issue 10: 200 s sandbox, 242 s UAT before)`,
    ];
  } finally {
    for (const s of sockets) s.destroy();
    server.close();
  }
}

/** RSA-2048 signs per second on this machine (openssl speed), undefined when openssl is missing */
process.stdout.write(
  `machine: ${cpus().length} cores, ${cpus()[0]?.model ?? 'unknown cpu'}, node ${process.version}\n`,
);
const out = mkdtempSync(join(tmpdir(), 'bench-reports-'));
try {
  const lines: string[] = [];
  if (values.latency !== undefined) {
    lines.push(...(await latencyMode(Math.max(1, Math.min(2000, Number(values.latency) || 100)), out)));
  } else if (values.hang) {
    lines.push(...(await hangMode(out)));
  } else {
    const certify = time('npm run certify (mock sandbox + uat)', 'npm', ['run', '-s', 'certify', '--', '--out', out]);
    lines.push(`npm run certify: ${stats(certify)} (target < 10 s: ${median(certify) < 10 ? 'met' : 'NOT met'})`);
    if (!values['skip-matrix']) {
      const matrix = time('fault matrix', 'npx', ['vitest', 'run', '--project', 'matrix']);
      lines.push(`fault matrix: ${stats(matrix)} (target < 120 s: ${median(matrix) < 120 ? 'met' : 'NOT met'})`);
    }
  }
  process.stdout.write(`\n${lines.join('\n')}\n`);
} finally {
  rmSync(out, { recursive: true, force: true });
}
