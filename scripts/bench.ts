/**
 * Benchmark: wall time of a full certification of the embedded mock (both modes) and of the fault matrix.
 * Prints figures; asserts nothing (speed is measured here, never in timed tests).
 *   npm run bench [-- --runs 3] [-- --skip-matrix]
 *   npm run bench -- --load   (only the mock's load figure: sealed validate calls/s vs openssl speed rsa2048)
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    'skip-matrix': { type: 'boolean', default: false },
    /** only the mock's load figure (scripts/bench/load.ts) */
    load: { type: 'boolean', default: false },
  },
});
if (values.load) {
  const { benchLoad } = await import('./bench/load.ts');
  process.stdout.write(
    `machine: ${cpus().length} cores, ${cpus()[0]?.model ?? 'unknown cpu'}, node ${process.version}\n`,
  );
  process.stdout.write(`${(await benchLoad()).join('\n')}\n`);
  process.exit(0);
}
const runs = Math.max(1, Math.min(20, Number(values.runs) || 3));

function time(label: string, cmd: string, args: string[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const r = spawnSync(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, CI: '1' } });
    const s = (performance.now() - t0) / 1000;
    if (r.status !== 0) {
      process.stderr.write(`${label}: run ${i + 1} exited ${r.status}\n${r.stderr.toString().slice(-2000)}\n`);
    }
    out.push(s);
    process.stdout.write(`${label}: run ${i + 1}/${runs}: ${s.toFixed(2)} s (exit ${r.status})\n`);
  }
  return out;
}

function stats(xs: number[]): string {
  const s = [...xs].sort((a, b) => a - b);
  const median = s[Math.floor(s.length / 2)]!;
  return `min ${s[0]!.toFixed(2)} s, median ${median.toFixed(2)} s, max ${s[s.length - 1]!.toFixed(2)} s`;
}

process.stdout.write(
  `machine: ${cpus().length} cores, ${cpus()[0]?.model ?? 'unknown cpu'}, node ${process.version}\n`,
);
const out = mkdtempSync(join(tmpdir(), 'bench-reports-'));
try {
  const certify = time('npm run certify (mock sandbox + uat)', 'npm', ['run', '-s', 'certify', '--', '--out', out]);
  const lines = [`npm run certify: ${stats(certify)} (target < 10 s)`];
  if (!values['skip-matrix']) {
    const matrix = time('fault matrix', 'npx', ['vitest', 'run', '--project', 'matrix']);
    lines.push(`fault matrix: ${stats(matrix)} (target < 120 s)`);
  }
  process.stdout.write(`\n${lines.join('\n')}\n`);
} finally {
  rmSync(out, { recursive: true, force: true });
}
