/**
 * `npm run bench -- --openapi`: certify of both embedded mocks with their OpenAPI document (profiles/mock-*-openapi.json:
 * every answer judged, docs/openapi.md) against the same run without it (profiles/mock-*.json), the runs interleaved
 * (the machine's load falls on both alike), and with a whole-bank document (test/fixtures/openapi/bank: 24
 * operations, external files; the profiles written beside the output); prints the ratios of the medians (target ≤ 1.15).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { median, stats } from './latency.ts';

const TARGET_RATIO = 1.15;

function certifyOnce(profiles: string[], out: string): { seconds: number; exit: number | null } {
  const args = ['scripts/bin/certify.mjs', ...profiles.flatMap((p) => ['--profile', p]), '--out', out];
  const t0 = performance.now();
  const r = spawnSync(process.execPath, args, {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, CI: '1' },
  });
  return { seconds: (performance.now() - t0) / 1000, exit: r.status };
}

export function benchOpenApi(out: string, runs: number): string[] {
  const plain = ['profiles/mock-sandbox.json', 'profiles/mock-uat.json'];
  const withDoc = ['profiles/mock-sandbox-openapi.json', 'profiles/mock-uat-openapi.json'];
  const bankDoc = resolve('test/fixtures/openapi/bank/bank.yaml');
  mkdirSync(out, { recursive: true });
  const withBank = (['sandbox', 'uat'] as const).map((env) => {
    const path = join(out, `bank-${env}.json`);
    writeFileSync(
      path,
      // the run settings of the profiles without the document (profiles/mock-*.json): only the document differs
      JSON.stringify({
        name: `bank-${env}`,
        environment: env,
        embedded: { openapi: `file:${bankDoc}` },
        run: (JSON.parse(readFileSync(`profiles/mock-${env}.json`, 'utf8')) as { run?: unknown }).run,
      }),
    );
    return path;
  });
  const without: number[] = [];
  const judged: number[] = [];
  const bank: number[] = [];
  for (let i = 0; i < runs; i++) {
    for (const [label, profiles, into] of [
      ['without the document', plain, without],
      ['with the document', withDoc, judged],
      ['with the whole-bank document', withBank, bank],
    ] as const) {
      const r = certifyOnce(profiles, join(out, `openapi-${i}`));
      into.push(r.seconds);
      process.stdout.write(`certify ${label}: run ${i + 1}/${runs}: ${r.seconds.toFixed(2)} s (exit ${r.exit})\n`);
    }
  }
  const ratio = median(judged) / median(without);
  const bankRatio = median(bank) / median(without);
  const met = (r: number): string => (r <= TARGET_RATIO ? 'met' : 'NOT met');
  return [
    `certify of both mocks without the OpenAPI document: ${stats(without)}`,
    `certify of both mocks with it (every answer judged): ${stats(judged)}`,
    `certify of both mocks with the whole-bank document (24 operations): ${stats(bank)}`,
    `ratio of the medians: ${ratio.toFixed(3)} (target ≤ ${TARGET_RATIO}: ${met(ratio)})`,
    `ratio of the medians, whole-bank document: ${bankRatio.toFixed(3)} (target ≤ ${TARGET_RATIO}: ${met(bankRatio)})`,
    // on a shared machine the fastest runs are the least disturbed: their ratio is the steadier figure
    `ratio of the fastest runs: ${(Math.min(...judged) / Math.min(...without)).toFixed(3)}`,
  ];
}
