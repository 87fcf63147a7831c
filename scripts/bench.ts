/**
 * Benchmark: wall time of a full certification of the embedded mock (both modes) and of the fault matrix.
 * Prints figures; asserts nothing (speed is measured here, never in timed tests).
 *   npm run bench [-- --runs 3] [-- --skip-matrix]   certify's wall time, its crypto floor (the RSA private-key
 *                                               operations it performed at openssl's rate) and the ratios wall ÷
 *                                               floor and CPU ÷ floor (test key cache warm, then fresh keys), the
 *                                               top frames of a CPU profile; the fault matrix against the same floor
 *   npm run bench -- --latency 100 [--runs 3]   a distant target: the mocks answer 100 ms late; prints run time at
 *                                               0 and 100 ms, and run time ÷ (critical-path round trips × RTT)
 *   npm run bench -- --latency 100 --connection-close   the same against mocks that close after every answer
 *   npm run bench -- --hang                     a hanging target (accepts, never answers), both modes, default limits
 *   npm run bench -- --small [--runs 3]         a small target (backlog 5, at most 8 connections) against the normal
 *                                               mocks, in pairs under the same load: t(small) ÷ t(normal), median
 *   npm run bench -- --openapi [--runs 3]      certify of both mocks with and without their OpenAPI document: the ratio
 *   npm run bench -- --load   (only the mock's load figure: sealed validate calls/s vs openssl speed rsa2048)
 *   npm run bench -- --before <git-ref> [--runs 3]   certify of the code at <git-ref> (a temporary worktree) and of
 *                                               this code, alternated: wall, CPU, CPU per call beyond RSA and bare
 *                                               transport, wall ÷ bound, side by side, and a CPU profile of each
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { RunResults } from '../lib/engine/results.ts';
import { latencyLines, latencyProfile, median, stats, type LatencyRun, type LatencyShape } from './bench/latency.ts';
import type { KeysMode, Run } from './bench/floor-run.ts';

const USAGE = `Usage: npm run bench -- [options]

Wall times of the harness against the embedded mocks (figures only; nothing is asserted); for certify also its
crypto floor (its RSA private-key operations at openssl's sign/s over the cores), wall ÷ floor, CPU ÷ floor and the
top five frames of a CPU profile.

Options:
  --runs <n>         runs of each measure (default 3, at most 20)
  --skip-matrix      certify only, not the fault matrix
  --keys <mode>      the test keys of the certify runs: warm (the per-machine key cache), fresh (new keys each
                     run, HARNESS_FRESH_KEYS=1) or both (default: the runs twice, a floor line each)
  --npm-test         also time npm test (once per run), against the same floor
  --latency <ms>     certify at 0 ms, at <ms> with the test clock near and far, and the critical path in round trips
  --connection-close with --latency: the mocks (API and test clock) close the connection after every answer
                     (Connection: close, as Python's http.server), in all three runs
  --hang             certify against a hanging target (both modes)
  --small            certify against small mocks (backlog 5, at most 8 connections) and the normal ones, in pairs
  --load             the mock's sealed validate calls/s vs openssl speed
  --openapi          certify of both mocks with and without their OpenAPI document, interleaved: the ratio (≤ 1.15)
  --before <ref>     certify of the code at <ref> (a git worktree made in the temporary folder, removed at the end)
                     and of this code, alternated run by run (test key cache warm): each side's wall, CPU, CPU per
                     call beyond RSA and bare transport, bound and wall/bound, the ratios, a CPU profile of each
  --help             this text
`;

function options(): ReturnType<typeof parse> {
  try {
    return parse();
  } catch (e) {
    process.stderr.write(`bench: ${e instanceof Error ? e.message : String(e)}\n\n${USAGE}`);
    process.exit(2);
  }
}
function parse() {
  return parseArgs({
    options: {
      runs: { type: 'string', default: '3' },
      'skip-matrix': { type: 'boolean', default: false },
      keys: { type: 'string', default: 'both' },
      'npm-test': { type: 'boolean', default: false },
      latency: { type: 'string' },
      hang: { type: 'boolean', default: false },
      small: { type: 'boolean', default: false },
      'connection-close': { type: 'boolean', default: false },
      /** only the mock's load figure (scripts/bench/load.ts) */
      load: { type: 'boolean', default: false },
      /** certify with and without the mocks' OpenAPI document, the ratio (scripts/bench/openapi.ts) */
      openapi: { type: 'boolean', default: false },
      /** the code before, side by side (scripts/bench/before.ts) */
      before: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
}
const { values } = options();
if (values.help) {
  process.stdout.write(USAGE);
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

/** whether the median is under the target, said either way */
function met(times: number[], target: number): string {
  const m = median(times);
  return m < target ? 'met' : `NOT met (median over by ${(m - target).toFixed(2)} s)`;
}

/** embedded mock profiles (both modes) whose mocks answer `latencyMs` late (and their test clock `clockMs` late) */
function mockProfiles(dir: string, latencyMs: number, clockMs = 0, shape: LatencyShape = {}): string[] {
  return (['sandbox', 'uat'] as const).map((mode) => {
    const base = JSON.parse(readFileSync(`profiles/mock-${mode}.json`, 'utf8')) as Record<string, unknown>;
    const path = join(dir, `mock-${mode}-${latencyMs}-${clockMs}.json`);
    writeFileSync(path, JSON.stringify(latencyProfile(base, latencyMs, clockMs, shape)));
    return path;
  });
}

/** run.concurrency of a bench profile (named after profiles/mock-<mode>.json) */
function profileConcurrency(name: string): number {
  const mode = name.includes('uat') ? 'uat' : 'sandbox';
  const p = JSON.parse(readFileSync(`profiles/mock-${mode}.json`, 'utf8')) as { run?: { concurrency?: number } };
  return p.run?.concurrency ?? 4;
}

/**
 * certify against the mocks 0 ms away, `ms` away with their test clock near (only the API answers late: the first
 * measure, docs/performance.md "Distant targets") and `ms` away with their test clock as far (a real target's clock
 * control is where the target is)
 */
async function latencyMode(ms: number, out: string, shape: LatencyShape): Promise<string[]> {
  const { allChecks } = await import('../suites/index.ts');
  const configs = [
    { key: 'zero', api: 0, clock: 0 },
    { key: 'near', api: ms, clock: 0 },
    { key: 'far', api: ms, clock: ms },
  ] as const;
  const runs: LatencyRun[] = [];
  for (const c of configs) {
    const profiles = mockProfiles(out, c.api, c.clock, shape).flatMap((p) => ['--profile', p]);
    const label = `certify, mocks ${c.api} ms away, test clock ${c.clock} ms away`;
    const times = time(label, 'npm', ['run', '-s', 'certify', '--', ...profiles, '--out', out]);
    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as RunResults;
    runs.push({ ...c, times, results });
  }
  return latencyLines(ms, runs, new Map(allChecks.map((d) => [d.id, d])), profileConcurrency, shape);
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
      `hanging target (both modes, default 10 s limits): ${stats(t)} (before the time limits: 200 s sandbox, 242 s UAT)`,
    ];
  } finally {
    for (const s of sockets) s.destroy();
    server.close();
  }
}

/** the code at `ref` and this code, alternated (scripts/bench/before.ts) */
async function beforeMode(ref: string, out: string): Promise<string[]> {
  const { beforeTree, sideFigures, beforeAfterLines, cores } = await import('./bench/before.ts');
  const { certifyOnce, profileLines } = await import('./bench/floor-run.ts');
  const { opensslSignPerSecond } = await import('./bench/floor.ts');
  const { measureTransport, YARDSTICK_IN_FLIGHT } = await import('./bench/transport.ts');
  let tree: ReturnType<typeof beforeTree>;
  try {
    tree = beforeTree(ref);
  } catch (e) {
    process.stderr.write(`bench: --before ${ref}: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(2);
  }
  const interrupted = (): void => {
    tree.remove();
    process.exit(130);
  };
  process.once('SIGINT', interrupted);
  try {
    await (await import('../lib/pki/index.ts')).testPki(); // the shared key cache warm
    const here = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).stdout.trim();
    const dirty = spawnSync('git', ['status', '--porcelain', '--untracked-files=no'], {
      encoding: 'utf8',
    }).stdout.trim();
    const labels = {
      before: `before (${ref}, ${tree.commit.slice(0, 7)})`,
      after: `after (${here}${dirty ? ' and the working tree' : ''})`,
    };
    // one run each first, not counted: the bundles built, the caches as a run finds them
    certifyOnce(out, `${labels.before}: warm-up`, 'warm', tree.root, tree.env);
    certifyOnce(out, `${labels.after}: warm-up`, 'warm');
    const load0 = loadavg()[0]!;
    const runsOf: { before: Run[]; after: Run[] } = { before: [], after: [] };
    for (let i = 0; i < runs; i++) {
      runsOf.before.push(certifyOnce(out, `${labels.before}: run ${i + 1}/${runs}`, 'warm', tree.root, tree.env));
      runsOf.after.push(certifyOnce(out, `${labels.after}: run ${i + 1}/${runs}`, 'warm'));
    }
    const load1 = loadavg()[0]!;
    const rates = [opensslSignPerSecond(1), opensslSignPerSecond(1)].filter((r) => r !== undefined);
    if (!rates.length) return ['side by side: openssl speed rsa2048 not available (no floor, no bound)'];
    const sign = Math.max(...rates);
    const split = runsOf.after.find((r) => r.split)?.split;
    const t = split ? await measureTransport(split, YARDSTICK_IN_FLIGHT) : undefined;
    if (!split || !t) return ['side by side: the transport yardstick was not measured (see above)'];
    const calls = split.tls + split.plain;
    const figures = (all: Run[]) =>
      all.map((r) => sideFigures(r, sign, cores(), t.cpuSeconds / calls)).filter((f) => f !== undefined);
    const before = figures(runsOf.before);
    const after = figures(runsOf.after);
    if (!before.length || !after.length) return ['side by side: a side wrote no counts (see above)'];
    return [
      ...beforeAfterLines(
        { label: labels.before, runs: before },
        { label: labels.after, runs: after },
        { ...t, calls },
      ),
      `machine: load ${load0.toFixed(1)} before the runs, ${load1.toFixed(1)} after; openssl speed rsa2048: ` +
        `${Math.round(sign)} signs/s on one core; ${cores()} cores`,
      ...profileLines(out, tree.root, tree.env, ` of ${labels.before}`),
      ...profileLines(out, undefined, {}, ` of ${labels.after}`),
    ];
  } finally {
    process.off('SIGINT', interrupted);
    tree.remove();
  }
}

process.stdout.write(
  `machine: ${cpus().length} cores, ${cpus()[0]?.model ?? 'unknown cpu'}, node ${process.version}\n`,
);
const out = mkdtempSync(join(tmpdir(), 'bench-reports-'));
try {
  const lines: string[] = [];
  if (values.latency !== undefined) {
    const shape: LatencyShape = values['connection-close'] ? { connectionClose: true } : {};
    const before = loadavg()[0]!;
    lines.push(...(await latencyMode(Math.max(1, Math.min(2000, Number(values.latency) || 100)), out, shape)));
    // the machine's load and openssl's yardstick beside the figures (a loaded machine's seconds measure the CPU)
    const { opensslSignPerSecond } = await import('./bench/floor.ts');
    const sign = opensslSignPerSecond(1);
    lines.push(
      `machine: load ${before.toFixed(1)} before, ${loadavg()[0]!.toFixed(1)} after; openssl speed rsa2048: ${sign === undefined ? 'not measured' : `${Math.round(sign)} signs/s`} on one core`,
    );
  } else if (values.before !== undefined) {
    lines.push(...(await beforeMode(values.before, out)));
  } else if (values.openapi) {
    const { benchOpenApi } = await import('./bench/openapi.ts');
    lines.push(...benchOpenApi(out, runs));
  } else if (values.small) {
    const { benchSmall } = await import('./bench/small.ts');
    lines.push(...benchSmall(out, runs));
  } else if (values.hang) {
    lines.push(...(await hangMode(out)));
  } else {
    // certify with its crypto floor (docs/performance.md): the ratios wall ÷ floor and CPU ÷ floor compare between
    // machines
    const { certifyRuns, floorLines, profileLines } = await import('./bench/floor-run.ts');
    const { opensslSignPerSecond } = await import('./bench/floor.ts');
    const keys: KeysMode[] = values.keys === 'warm' || values.keys === 'fresh' ? [values.keys] : ['warm', 'fresh'];
    // the cache warm before the warm runs (this process fills it when it is cold)
    if (keys.includes('warm')) await (await import('../lib/pki/index.ts')).testPki();
    const runsOf = keys.map((k) => ({ keys: k, runs: certifyRuns(out, runs, k) }));
    // openssl's rate right after the runs (as loaded as they were), the higher of two: the floor is not flattered
    const rates = [opensslSignPerSecond(1), opensslSignPerSecond(1)].filter((r) => r !== undefined);
    const sign = rates.length ? Math.max(...rates) : undefined;
    const measured = runsOf.map((r) => ({ keys: r.keys, ...floorLines(r.runs, 10, r.keys, sign) }));
    for (const m of measured) lines.push(...m.lines);
    // the transport yardstick: the warm median run's calls through bare undici and node:http(s), in this bench run
    const warm = measured.find((m) => m.keys === 'warm')?.median ?? measured[0]?.median;
    if (warm?.run.split) {
      const { measureTransport, transportLines, YARDSTICK_IN_FLIGHT } = await import('./bench/transport.ts');
      const t = await measureTransport(warm.run.split, YARDSTICK_IN_FLIGHT);
      if (t)
        lines.push(
          ...transportLines(warm.floor, warm.run.split, YARDSTICK_IN_FLIGHT, t, {
            wallSeconds: warm.run.wall,
            cpuSeconds: warm.cpuSeconds,
          }),
        );
      else lines.push('transport yardstick: not measured (a round failed; see above)');
    }
    lines.push(...profileLines(out));
    // the matrix and npm test against the floor of a certify run as they run it (the key cache warm)
    const floor = measured.find((m) => m.keys === 'warm')?.floorSeconds ?? measured[0]?.floorSeconds;
    const perFloor = (t: number[]): string =>
      floor === undefined
        ? ''
        : `; median/floor ${(median(t) / floor).toFixed(0)} (certify's floor ${floor.toFixed(2)} s)`;
    if (!values['skip-matrix']) {
      const matrix = time('fault matrix', 'npx', ['vitest', 'run', '--project', 'matrix']);
      lines.push(`fault matrix: ${stats(matrix)}; target < 120 s: ${met(matrix, 120)}${perFloor(matrix)}`);
    }
    if (values['npm-test']) {
      const test = time('npm test', 'npm', ['test', '--silent'], [0, 1]);
      lines.push(`npm test: ${stats(test)}${perFloor(test)}`);
    }
  }
  process.stdout.write(`\n${lines.join('\n')}\n`);
} finally {
  rmSync(out, { recursive: true, force: true });
}
