/**
 * A certify run with an embedded mock makes its test PKI on the mocks' worker thread (scripts/certify.ts
 * startMocksThread, lib/mock/thread.ts testPki): the modules its main thread loads for the run (scripts/certify.ts
 * loadModules, preflight, the profile peek, the PKI's process-wide handle, the thread's client side) do not reach
 * the certificate builder (node-forge), which lib/pki/issue.ts alone imports (issue 21: forge's load and the
 * certificates' issuing were ~70 ms of the main thread's critical path, the worker thread waiting idle meanwhile).
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, it } from 'vitest';
import { tempDirs } from '../fixtures/tmp.ts';
import { ROOT } from './run-certify.ts';

const tmp = tempDirs('run-loads-');

it("a run's main-thread modules load no certificate builder (node-forge)", { timeout: 60_000 }, () => {
  const script = join(tmp(), 'load.mts');
  const url = (p: string): string => pathToFileURL(join(ROOT, p)).href;
  const modules = [
    'lib/profile/peek.ts',
    'lib/mock/thread.ts',
    'lib/pki/index.ts',
    'lib/report/write.ts',
    'lib/engine/preflight.ts',
    'lib/engine/certify.ts',
    'lib/profile/errors.ts',
    'lib/report/summary.ts',
    'lib/report/json.ts',
    'lib/cli/progress.ts',
    'suites/index.ts',
    'lib/engine/select.ts',
  ];
  writeFileSync(
    script,
    [
      "import { createRequire } from 'node:module';",
      ...modules.map((p) => `await import('${url(p)}');`),
      'const loaded = Object.keys(createRequire(import.meta.url).cache);',
      'process.stdout.write(JSON.stringify({ forge: loaded.filter((f) => /[\\\\/]node-forge[\\\\/]/.test(f)), undici: loaded.some((f) => /[\\\\/]undici[\\\\/]/.test(f)) }));',
    ].join('\n'),
  );
  const out = JSON.parse(
    execFileSync(process.execPath, ['--import', 'tsx', script], { cwd: ROOT, encoding: 'utf8' }),
  ) as {
    forge: string[];
    undici: boolean;
  };
  // the probe sees CommonJS packages: undici is one, and a run loads it
  expect(out.undici).toBe(true);
  expect(out.forge).toEqual([]);
});
