/**
 * `npm run bench` (certify of both mocks): the runs with their private RSA operations counted
 * (HARNESS_COUNT_CRYPTO_OPS, lib/crypto-ops.ts) and their CPU time, the machine's openssl rate measured after them,
 * the crypto floor and the ratios, then one more run under `node --cpu-prof` for the top frames.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { median, stats } from './latency.ts';
import {
  cryptoFloor,
  floorLine,
  keygenSigns,
  opensslSignPerSecond,
  readCounts,
  readProfiles,
  topFrames,
} from './floor.ts';

interface Run {
  wall: number;
  counted: ReturnType<typeof readCounts>;
}

function certifyOnce(out: string, label: string): Run {
  const dir = mkdtempSync(join(tmpdir(), 'bench-ops-'));
  try {
    const env = { ...process.env, CI: '1', HARNESS_COUNT_CRYPTO_OPS: dir };
    const t0 = performance.now();
    const r = spawnSync('npm', ['run', '-s', 'certify', '--', '--out', out], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env,
    });
    const wall = (performance.now() - t0) / 1000;
    if (r.status !== 0) process.stderr.write(`${label} exited ${r.status}\n${r.stderr.toString().slice(-2000)}\n`);
    const counted = readCounts(dir);
    const cpu = counted.cpuSeconds === undefined ? 'cpu not recorded' : `cpu ${counted.cpuSeconds.toFixed(2)} s`;
    process.stdout.write(`${label}: ${wall.toFixed(2)} s (exit ${r.status}), ${cpu}\n`);
    return { wall, counted };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** the top five frames of one more certify run under node --cpu-prof (all its threads) */
function profileLines(out: string): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'bench-prof-'));
  try {
    spawnSync(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${dir}`, 'scripts/bin/certify.mjs', '--out', out], {
      stdio: 'ignore',
      env: { ...process.env, CI: '1' },
    });
    const profiles = readProfiles(dir);
    const frames = topFrames(profiles);
    const total = topFrames(profiles, Infinity).reduce((s, f) => s + f.selfMs, 0);
    if (frames.length === 0) return ['CPU profile: none written'];
    return [
      `CPU profile (one more run under node --cpu-prof, ${profiles.length} threads, ${(total / 1000).toFixed(2)} s sampled): top five frames by self time`,
      ...frames.map(
        (f, i) => `  ${i + 1}. ${f.selfMs.toFixed(0)} ms (${((100 * f.selfMs) / total).toFixed(1)}%) ${f.name}`,
      ),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** certify of both mocks `runs` times: wall, the floor line, what was counted, the profile's top frames */
export function certifyWithFloor(out: string, runs: number, target: number): string[] {
  const all: Run[] = [];
  for (let i = 0; i < runs; i++)
    all.push(certifyOnce(out, `npm run certify (mock sandbox + uat): run ${i + 1}/${runs}`));
  const walls = all.map((r) => r.wall);
  const mid = all.find((r) => r.wall === median(walls))!;
  const lines = [
    `npm run certify: ${stats(walls)}; target < ${target} s: ${median(walls) < target ? 'met' : 'NOT met'}`,
  ];
  const sign = opensslSignPerSecond(1);
  if (sign === undefined || mid.counted.cpuSeconds === undefined) {
    lines.push(
      sign === undefined
        ? 'crypto floor: openssl speed rsa2048 not available'
        : 'crypto floor: the run wrote no counts',
    );
  } else {
    const weight = keygenSigns(sign);
    const f = cryptoFloor(mid.counted.counts, sign, availableParallelism(), weight);
    const c = mid.counted.counts;
    lines.push(
      floorLine(f, mid.wall, mid.counted.cpuSeconds),
      `  median run's private ops: ${c.sign} signatures, ${c.decrypt} decryptions, ${c.tlsServer} TLS handshakes as server, ` +
        `${c.tlsClient} as client with a certificate (both counted as completed full handshakes at the mock's listener), ` +
        `${c.keygen} key generations x ${weight.toFixed(0)} signatures each (mean of 4 generations here); ` +
        `wall includes npm's start, cpu is the certify process (all threads)`,
    );
  }
  return [...lines, ...profileLines(out)];
}
