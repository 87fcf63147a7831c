/**
 * `npm run bench -- --small [--runs n]` (a small target, docs/design.md): full certify of both modes against the normal
 * mocks and against small ones (listen backlog 5, at most 8 connections: lib/mock/server/accept-queue.ts), one after the other
 * in each round (the order alternating), so that each ratio t(small) ÷ t(normal) is taken under the same load. Prints
 * every pair, the medians, the load average, whether the verdicts were the same and the harness errors; the goal
 * is t(small) <= 2 × t(normal). Figures only, nothing asserted.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { RunResults } from '../../lib/engine/results.ts';
import { trafficLine } from '../../lib/report/traffic.ts';
import { median } from './latency.ts';

/** the small target the bench measures (a listen backlog of 5, 8 connections served at once) */
export const SMALL = { backlog: 5, maxConnections: 8 } as const;

interface Run {
  wall: number;
  /** each profile's duration (s), by mode */
  modes: Record<string, number>;
  verdicts: Record<string, string>;
  errors: number;
  traffic: string[];
}

function profiles(dir: string, kind: 'normal' | 'small'): string[] {
  return (['sandbox', 'uat'] as const).map((mode) => {
    const base = JSON.parse(readFileSync(`profiles/mock-${mode}.json`, 'utf8')) as Record<string, unknown>;
    const path = join(dir, `${kind}-${mode}.json`);
    const embedded = { ...(base.embedded as object), ...(kind === 'small' ? SMALL : {}) };
    writeFileSync(path, JSON.stringify({ ...base, name: `${kind}-${mode}`, embedded }));
    return path;
  });
}

function certifyOnce(dir: string, kind: 'normal' | 'small'): Run {
  const out = join(dir, kind);
  const args = profiles(dir, kind).flatMap((p) => ['--profile', p]);
  const t0 = performance.now();
  const r = spawnSync('npm', ['run', '-s', 'certify', '--', ...args, '--out', out], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, CI: '1' },
  });
  const wall = (performance.now() - t0) / 1000;
  if (r.status !== 0) process.stderr.write(`${kind}: exit ${r.status}\n${r.stderr.toString().slice(-1500)}\n`);
  const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as RunResults;
  // BENCH_KEEP=<dir>: each run's results.json kept there (<kind>-<n>.json), for a per-check timeline
  const keep = process.env.BENCH_KEEP;
  if (keep) cpSync(join(out, 'results.json'), join(keep, `${kind}-${Date.now()}.json`));
  const mode = (p: string): string => p.replace(/^(normal|small)-/, '');
  return {
    wall,
    modes: Object.fromEntries(results.profiles.map((p) => [mode(p.profile), p.durationMs / 1000])),
    verdicts: Object.fromEntries(
      results.profiles.flatMap((p) => p.results.map((x, i) => [`${mode(p.profile)} ${x.checkId} #${i}`, x.verdict])),
    ),
    errors: results.profiles.flatMap((p) => p.results).filter((x) => x.verdict === 'error').length,
    traffic: results.profiles.flatMap((p) => trafficLine(p) ?? []),
  };
}

const load = (): string =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(', ');

/** the checks whose verdicts differ between two runs ("uat QUOTA-01 #3: pass → error") */
function differences(a: Run, b: Run): string[] {
  const keys = new Set([...Object.keys(a.verdicts), ...Object.keys(b.verdicts)]);
  return [...keys]
    .filter((k) => a.verdicts[k] !== b.verdicts[k])
    .map((k) => `${k}: ${a.verdicts[k]} → ${b.verdicts[k]}`);
}

export function benchSmall(dir: string, runs: number): string[] {
  const pairs: { normal: Run; small: Run }[] = [];
  const lines: string[] = [`load average before: ${load()}`];
  for (let i = 0; i < runs; i++) {
    const order: ('normal' | 'small')[] = i % 2 === 0 ? ['normal', 'small'] : ['small', 'normal'];
    const got: Partial<Record<'normal' | 'small', Run>> = {};
    for (const kind of order) got[kind] = certifyOnce(dir, kind);
    const pair = { normal: got.normal!, small: got.small! };
    pairs.push(pair);
    const diff = differences(pair.normal, pair.small);
    const perMode = Object.keys(pair.normal.modes)
      .map((m) => `${m} ${(pair.small.modes[m]! / pair.normal.modes[m]!).toFixed(2)}×`)
      .join(', ');
    process.stdout.write(
      `run ${i + 1}/${runs}: normal ${pair.normal.wall.toFixed(2)} s, small ${pair.small.wall.toFixed(2)} s, ratio ${(pair.small.wall / pair.normal.wall).toFixed(2)} (${perMode}); harness errors ${pair.normal.errors} / ${pair.small.errors}; verdicts ${diff.length ? `differ: ${diff.join('; ')}` : 'the same'}; load ${load()}\n`,
    );
    for (const t of [...pair.normal.traffic, ...pair.small.traffic]) process.stdout.write(`  ${t}\n`);
  }
  const ratios = pairs.map((p) => p.small.wall / p.normal.wall);
  const modeRatio = (m: string): string => median(pairs.map((p) => p.small.modes[m]! / p.normal.modes[m]!)).toFixed(2);
  lines.push(
    `small target (backlog ${SMALL.backlog}, at most ${SMALL.maxConnections} connections), full certify of both modes, ${runs} pairs: ` +
      `median normal ${median(pairs.map((p) => p.normal.wall)).toFixed(2)} s, small ${median(pairs.map((p) => p.small.wall)).toFixed(2)} s; ` +
      `t(small) ÷ t(normal): median ${median(ratios).toFixed(2)} (runs ${ratios.map((r) => r.toFixed(2)).join(', ')}; ` +
      `sandbox ${modeRatio('sandbox')}, uat ${modeRatio('uat')}); target <= 2: ${median(ratios) <= 2 ? 'met' : 'NOT met'}`,
    `harness errors (small runs): ${pairs.map((p) => p.small.errors).join(', ')}; verdicts the same in ${pairs.filter((p) => differences(p.normal, p.small).length === 0).length} of ${runs} pairs`,
    `load average after: ${load()}`,
  );
  return lines;
}
