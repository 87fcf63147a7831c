/**
 * npm run bench's CPU profile by module (scripts/bench/modules.ts): a bundle chunk's lines mapped to their source
 * modules, self and total time by module, and the side-by-side arithmetic of `--before` (scripts/bench/before.ts)
 */
import { describe, expect, it } from 'vitest';
import { beforeAfterLines, sideFigures } from '../../scripts/bench/before.ts';
import type { CpuProfile } from '../../scripts/bench/floor.ts';
import { byModule, frameModule, moduleLines, moduleStarts, type ModuleStarts } from '../../scripts/bench/modules.ts';

const CHUNK = [
  "import { createRequire as __bundleRequire } from 'node:module';",
  '// lib/http/client.ts',
  'function send() {}',
  '',
  '// ../../../elsewhere/checkout/node_modules/undici/lib/core/request.js',
  'function Request() {}',
  '// node_modules/@scope/pkg/index.mjs',
  'function scoped() {}',
  '// lib/mock/server/http.ts',
  'function sendRaw() {}',
].join('\n');
const URL_OF_CHUNK = 'file:///x/node_modules/.cache/openbank-conformance/certify/build-1/chunk-A.mjs';
const starts = (url: string): ModuleStarts | undefined => (url === URL_OF_CHUNK ? moduleStarts(CHUNK) : undefined);

describe('a bundle chunk mapped to its modules', () => {
  it("reads esbuild's module comments, a package linked from another checkout by its node_modules path", () => {
    expect(moduleStarts(CHUNK)).toEqual([
      [1, 'lib/http/client.ts'],
      [4, 'node_modules/undici/lib/core/request.js'],
      [6, 'node_modules/@scope/pkg/index.mjs'],
      [8, 'lib/mock/server/http.ts'],
    ]);
  });
  it('names the module of a frame by the last comment above its line (0-based), a package by its name', () => {
    const at = (lineNumber: number) => frameModule({ functionName: 'f', url: URL_OF_CHUNK, lineNumber }, starts);
    expect(at(2)).toBe('lib/http/client.ts');
    expect(at(5)).toBe('pkg:undici');
    expect(at(7)).toBe('pkg:@scope/pkg');
    expect(at(9)).toBe('lib/mock/server/http.ts');
    expect(at(0)).toBe('(bundle helpers)');
  });
  it("names Node's modules by their url and frames without one by their name", () => {
    expect(frameModule({ functionName: 'connect', url: 'node:net', lineNumber: 3 }, starts)).toBe('node:net');
    expect(frameModule({ functionName: '(garbage collector)', url: '' }, starts)).toBe('(garbage collector)');
    expect(frameModule({ functionName: 'writev', url: '' }, starts)).toBe('(native writev)');
    expect(frameModule({ functionName: 'f', url: 'file:///repo/lib/jose/seal.ts', lineNumber: 4 }, starts)).toBe(
      'lib/jose/seal.ts',
    );
  });
});

describe('time by module', () => {
  // root -> send (client.ts) -> Request (undici) ; root -> (garbage collector) ; root -> (idle)
  const profile: CpuProfile = {
    nodes: [
      { id: 1, callFrame: { functionName: '(root)', url: '' }, children: [2, 4, 5] },
      { id: 2, callFrame: { functionName: 'send', url: URL_OF_CHUNK, lineNumber: 2 }, children: [3] },
      { id: 3, callFrame: { functionName: 'Request', url: URL_OF_CHUNK, lineNumber: 5 } },
      { id: 4, callFrame: { functionName: '(garbage collector)', url: '' } },
      { id: 5, callFrame: { functionName: '(idle)', url: '' } },
    ],
    samples: [2, 3, 3, 4, 5, 2],
    timeDeltas: [1000, 2000, 2000, 1000, 50_000, 1000],
  };

  it("adds self time to the sampled frame's module and total time once to every module on its stack; idle left out", () => {
    const t = byModule([profile], starts);
    expect(t.sampledMs).toBe(7);
    expect(t.modules).toEqual([
      { module: 'pkg:undici', selfMs: 4, totalMs: 4 },
      { module: 'lib/http/client.ts', selfMs: 2, totalMs: 6 },
      { module: '(garbage collector)', selfMs: 1, totalMs: 1 },
    ]);
    expect(moduleLines(t, 2)).toEqual([
      "  by module, self time (all threads; a bundle chunk's lines mapped to their source): pkg:undici 57.1%, lib/http/client.ts 28.6%",
      "  the harness's own modules (lib/, scripts/, suites/): 28.6% self in all; by total time:",
      '    lib/http/client.ts 2 ms self (28.6%), 6 ms total (85.7%)',
    ]);
  });
});

describe('--before: the two sides', () => {
  const run = (wall: number, cpuSeconds: number) => ({
    wall,
    calls: 1000,
    counted: { counts: { sign: 500, decrypt: 300, tlsServer: 100, tlsClient: 100, keygen: 0 }, cpuSeconds, files: 2 },
  });

  it('charges each side its RSA operations at the rate and the yardstick per call, and divides after by before', () => {
    // 1000 ops at 1000 signs/s = 1 CPU-s; transport 0.2 ms a call = 0.2 CPU-s; bound (1 + 0.2) / 2 = 0.6 s
    const before = sideFigures(run(3, 4.2), 1000, 2, 0.0002)!;
    expect(before.rsaCpu).toBe(1);
    expect(before.bound).toBeCloseTo(0.6, 9);
    expect(before.beyondMsPerCall).toBeCloseTo(3, 9); // 4.2 - 1 - 0.2 = 3 s over 1000 calls
    expect(before.wallPerBound).toBeCloseTo(5, 9);
    const after = sideFigures(run(1.8, 2.7), 1000, 2, 0.0002)!;
    const lines = beforeAfterLines(
      { label: 'before (main)', runs: [before] },
      { label: 'after (cpu)', runs: [after] },
      { wallSeconds: 1, cpuSeconds: 0.2, calls: 1000 },
    );
    expect(lines[1]).toBe(
      '  before (main): wall 3.00 s, cpu 4.20 s, RSA 1.00 CPU-s, 1000 calls; beyond RSA and bare transport 3.00 ms per call (runs: 3.00); bound 0.60 s, wall/bound 5.0 (medians of 1 runs)',
    );
    expect(lines[3]).toBe(
      '  after/before: cpu 0.64, beyond RSA and bare transport per call 0.50, wall 0.60, wall/bound 0.60',
    );
  });
  it("says each side's CPU per call by thread when the runs wrote it", () => {
    const withThreads = (wall: number, cpuSeconds: number, main: number, workers: number) => ({
      ...run(wall, cpuSeconds),
      counted: { ...run(wall, cpuSeconds).counted, threads: { main, workers } },
    });
    const before = sideFigures(withThreads(3, 4.2, 2.4, 1.2), 1000, 2, 0.0002)!;
    const after = sideFigures(withThreads(2, 3.6, 1.8, 1.2), 1000, 2, 0.0002)!;
    expect([before.mainMsPerCall, before.mocksMsPerCall]).toEqual([2.4, 1.2]);
    const lines = beforeAfterLines(
      { label: 'before', runs: [before] },
      { label: 'after', runs: [after] },
      { wallSeconds: 1, cpuSeconds: 0.2, calls: 1000 },
    );
    expect(lines[2]).toContain("CPU per call of the main thread 1.80 ms, of the mocks' thread 1.20 ms");
    expect(lines[3]).toContain("main thread per call 0.75, mocks' thread per call 1.00");
  });

  it('has no figures for a run that wrote no counts', () => {
    expect(sideFigures({ wall: 1, counted: { counts: run(1, 1).counted.counts, files: 0 } }, 1000, 2, 0)).toBe(
      undefined,
    );
  });
});
