/**
 * `npm run bench -- --before <git-ref>`: the code before beside this one, in one bench (docs/performance.md). The ref
 * is checked out in a temporary git worktree (os.tmpdir()) whose node_modules links every package of this checkout
 * but keeps a cache folder of its own (its certify bundle: scripts/bin/bundle.mjs), the test keys shared
 * (HARNESS_KEY_CACHE_DIR: both sides warm, the same keys). certify runs alternate, before then after, under the same
 * load; each side's line says its wall and CPU time, its private RSA operations' CPU, its CPU per call beyond RSA and
 * the bare transport (the yardstick measured once, per call), the bound and wall ÷ bound; then after ÷ before. The
 * worktree is removed at the end, also on an error. The arithmetic is pure (test/bench/modules.test.ts).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../../lib/root.ts';
import { cryptoFloor } from './floor.ts';
import type { Run } from './floor-run.ts';
import { median } from './latency.ts';
import { phasesText } from './phases.ts';
import type { TransportMeasure } from './transport.ts';

/** a temporary worktree of the code before */
export interface BeforeTree {
  root: string;
  /** the ref as given, and the commit it names */
  ref: string;
  commit: string;
  /** what certify needs in its environment there (the shared test keys) */
  env: Record<string, string>;
  remove(): void;
}

const git = (args: string[], cwd = ROOT): string => {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${(r.stderr || r.stdout).trim().split('\n')[0]}`);
  return r.stdout.trim();
};

/** the test key cache this checkout uses (lib/pki/key-cache.ts), shared with the worktree before */
const KEYS =
  process.env.HARNESS_KEY_CACHE_DIR || join(ROOT, 'node_modules', '.cache', 'openbank-conformance', 'test-keys');

/**
 * `ref` checked out (detached) in a new worktree under os.tmpdir(), node_modules linked package by package but for
 * `.cache`; throws with git's one line when the ref is unknown. The caller removes it (`remove`, safe to call twice).
 */
export function beforeTree(ref: string): BeforeTree {
  const commit = git(['rev-parse', '--verify', `${ref}^{commit}`]);
  const root = join(mkdtempSync(join(tmpdir(), 'bench-before-')), 'tree');
  let removed = false;
  const remove = (): void => {
    if (removed) return;
    removed = true;
    spawnSync('git', ['worktree', 'remove', '--force', root], { cwd: ROOT });
    rmSync(join(root, '..'), { recursive: true, force: true });
    spawnSync('git', ['worktree', 'prune'], { cwd: ROOT });
  };
  try {
    git(['worktree', 'add', '--detach', '--quiet', root, commit]);
    const modules = join(root, 'node_modules');
    mkdirSync(join(modules, '.cache'), { recursive: true });
    for (const entry of readdirSync(join(ROOT, 'node_modules')))
      if (entry !== '.cache' && !existsSync(join(modules, entry)))
        symlinkSync(join(ROOT, 'node_modules', entry), join(modules, entry));
    return { root, ref, commit, env: { HARNESS_KEY_CACHE_DIR: KEYS }, remove };
  } catch (e) {
    remove();
    throw e;
  }
}

/** one side's figures from one run: what the line prints */
export interface SideFigures {
  wall: number;
  cpu: number;
  rsaCpu: number;
  calls: number;
  /** CPU beyond RSA and the bare transport, per call (ms) */
  beyondMsPerCall: number;
  bound: number;
  wallPerBound: number;
  /** the CPU per call (ms) of the main thread (the harness) and of the other counted threads (the mocks), on Linux */
  mainMsPerCall?: number;
  mocksMsPerCall?: number;
  /** seconds from the spawn to the first call, and from the last check's end to the exit (scripts/bench/phases.ts) */
  startupSeconds?: number;
  endSeconds?: number;
}

/**
 * a run's figures at `signPerSecond` over `cores`, the transport's CPU per call from the yardstick; undefined when the
 * run wrote no counts or no calls
 */
export function sideFigures(
  run: Run,
  signPerSecond: number,
  cores: number,
  transportPerCall: number,
): SideFigures | undefined {
  const cpu = run.counted.cpuSeconds;
  if (cpu === undefined || !run.calls) return undefined;
  // key generations are left out: the runs share the warm key cache
  const rsaCpu = cryptoFloor({ ...run.counted.counts, keygen: 0 }, signPerSecond, cores, 0).ops / signPerSecond;
  const transport = transportPerCall * run.calls;
  const bound = (rsaCpu + transport) / cores;
  return {
    wall: run.wall,
    cpu,
    rsaCpu,
    calls: run.calls,
    beyondMsPerCall: (1000 * (cpu - rsaCpu - transport)) / run.calls,
    bound,
    wallPerBound: run.wall / bound,
    ...(run.counted.threads
      ? {
          mainMsPerCall: (1000 * run.counted.threads.main) / run.calls,
          mocksMsPerCall: (1000 * run.counted.threads.workers) / run.calls,
        }
      : {}),
    ...(run.phases ? { startupSeconds: run.phases.startupSeconds, endSeconds: run.phases.endSeconds } : {}),
  };
}

const KEYS_OF = ['wall', 'cpu', 'rsaCpu', 'calls', 'beyondMsPerCall', 'bound', 'wallPerBound'] as const;

const THREAD_KEYS = ['mainMsPerCall', 'mocksMsPerCall', 'startupSeconds', 'endSeconds'] as const;

/** each figure's median over the runs (a thread's figure when every run has it) */
export function medianFigures(all: readonly SideFigures[]): SideFigures {
  const m = Object.fromEntries(KEYS_OF.map((k) => [k, median(all.map((f) => f[k]!))])) as unknown as SideFigures;
  for (const k of THREAD_KEYS) {
    const xs = all.map((f) => f[k]);
    if (xs.every((x) => x !== undefined)) m[k] = median(xs);
  }
  return m;
}

/** the side-by-side lines: each side's medians (and every run's beyond-per-call), then after ÷ before */
export function beforeAfterLines(
  before: { label: string; runs: readonly SideFigures[] },
  after: { label: string; runs: readonly SideFigures[] },
  t: TransportMeasure & { calls: number },
): string[] {
  const line = (label: string, runs: readonly SideFigures[]): string => {
    const m = medianFigures(runs);
    return (
      `${label}: wall ${m.wall.toFixed(2)} s, cpu ${m.cpu.toFixed(2)} s, RSA ${m.rsaCpu.toFixed(2)} CPU-s, ` +
      `${m.calls.toFixed(0)} calls; beyond RSA and bare transport ${m.beyondMsPerCall.toFixed(2)} ms per call ` +
      `(runs: ${runs.map((r) => r.beyondMsPerCall.toFixed(2)).join(', ')})` +
      (m.mainMsPerCall !== undefined && m.mocksMsPerCall !== undefined
        ? `; CPU per call of the main thread ${m.mainMsPerCall.toFixed(2)} ms, of the mocks' thread ${m.mocksMsPerCall.toFixed(2)} ms`
        : '') +
      (m.startupSeconds !== undefined && m.endSeconds !== undefined
        ? `; ${phasesText({ startupSeconds: m.startupSeconds, endSeconds: m.endSeconds })}`
        : '') +
      `; bound ${m.bound.toFixed(2)} s, ` +
      `wall/bound ${m.wallPerBound.toFixed(1)} (medians of ${runs.length} runs)`
    );
  };
  const b = medianFigures(before.runs);
  const a = medianFigures(after.runs);
  const ratio = (k: keyof SideFigures): string => (a[k]! / b[k]!).toFixed(2);
  const threads =
    a.mainMsPerCall !== undefined && b.mainMsPerCall !== undefined
      ? `, main thread per call ${ratio('mainMsPerCall')}, mocks' thread per call ${ratio('mocksMsPerCall')}`
      : '';
  const phases =
    a.startupSeconds !== undefined && b.startupSeconds !== undefined
      ? `, start-up ${ratio('startupSeconds')}, end ${ratio('endSeconds')}`
      : '';
  return [
    `side by side, alternated (the transport yardstick once: ${t.calls} calls, ` +
      `${((1000 * t.cpuSeconds) / t.calls).toFixed(2)} CPU-ms per call, charged per call to each side):`,
    `  ${line(before.label, before.runs)}`,
    `  ${line(after.label, after.runs)}`,
    `  after/before: cpu ${ratio('cpu')}, beyond RSA and bare transport per call ${ratio('beyondMsPerCall')}, ` +
      `wall ${ratio('wall')}, wall/bound ${ratio('wallPerBound')}${threads}${phases}`,
  ];
}

/** the cores the bound divides by */
export const cores = (): number => availableParallelism();
