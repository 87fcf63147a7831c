/**
 * What a certify run's main thread loads before its first check (scripts/startup.ts: its run modules, the profiles' loading, the
 * profile peek, the PKI's process-wide handle, the mocks' thread's client side) leaves out what the run's start does
 * not use (the fixed cost of a run, docs/performance.md):
 * - the certificate builder (node-forge), which lib/pki/issue.ts alone imports: a run with an embedded mock makes its
 *   test PKI on the mocks' worker thread (lib/mock/server/thread.ts testPki); forge's load and the certificates' issuing
 *   were ~70 ms of the main thread's critical path, the worker thread waiting idle meanwhile;
 * - the test data generator (faker, ~20 ms to load), loaded by the first check that asks for data (ctx.data());
 * - the property checks' search and generators (fast-check, ~10 ms), loaded by those checks when they run
 *   (lib/engine/property/property.ts, errors/documents.ts, the suites' *-arb.ts).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, it } from 'vitest';
import { tempDirs } from '../fixtures/tmp.ts';
import { ROOT } from './run-certify.ts';

const tmp = tempDirs('run-loads-');

it(
  "a run's main-thread modules load no certificate builder (node-forge), no data generator (faker), no fast-check",
  { timeout: 60_000 },
  () => {
    const dir = tmp();
    const url = (p: string): string => pathToFileURL(join(ROOT, p)).href;
    const modules = [
      'scripts/startup.ts',
      'lib/profile/peek.ts',
      'lib/mock/server/thread.ts',
      'lib/pki/index.ts',
      'lib/report/write.ts',
      'lib/engine/run/preflight.ts',
      'lib/engine/run/certify.ts',
      'lib/profile/errors.ts',
      'lib/report/summary.ts',
      'lib/report/json.ts',
      'lib/cli/progress.ts',
      'suites/index.ts',
      'lib/engine/run/select.ts',
    ];
    // every module resolved (ES modules have no cache to list): a resolve hook writes each URL to a file
    const log = join(dir, 'resolved.txt');
    writeFileSync(
      join(dir, 'hooks.mjs'),
      [
        "import { appendFileSync } from 'node:fs';",
        'export async function resolve(specifier, context, next) {',
        '  const r = await next(specifier, context);',
        `  appendFileSync(${JSON.stringify(log)}, r.url + '\\n');`,
        '  return r;',
        '}',
      ].join('\n'),
    );
    writeFileSync(
      join(dir, 'load.mts'),
      [
        "import { register } from 'node:module';",
        `register(${JSON.stringify(pathToFileURL(join(dir, 'hooks.mjs')).href)});`,
        ...modules.map((p) => `await import('${url(p)}');`),
      ].join('\n'),
    );
    execFileSync(process.execPath, ['--import', 'tsx', join(dir, 'load.mts')], { cwd: ROOT, encoding: 'utf8' });
    const resolved = readFileSync(log, 'utf8').split('\n');
    const of = (pkg: RegExp): string[] => resolved.filter((u) => pkg.test(u));
    // the probe sees packages: undici is one, and a run loads it
    expect(of(/[\\/]undici[\\/]/).length).toBeGreaterThan(0);
    expect(of(/[\\/]node-forge[\\/]/)).toEqual([]);
    expect(of(/[\\/]@faker-js[\\/]/)).toEqual([]);
    expect(of(/[\\/]fast-check[\\/]/)).toEqual([]);
  },
);
