/**
 * `certify --list` sends nothing, so it loads no HTTP client: the modules it loads (scripts/startup.ts
 * loadListModules: the listing, the profile errors, the suites as data) do not reach undici (docs/performance.md:
 * `--list` under 0.5 s; undici alone took about a tenth of a second to load).
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, it } from 'vitest';
import { tempDirs } from '../fixtures/tmp.ts';
import { ROOT } from './run-certify.ts';

const tmp = tempDirs('list-loads-');

it("the listing's modules load no HTTP client (undici)", { timeout: 60_000 }, () => {
  const script = join(tmp(), 'load.mts');
  const url = (p: string): string => pathToFileURL(join(ROOT, p)).href;
  writeFileSync(
    script,
    [
      "import { createRequire } from 'node:module';",
      ...['lib/engine/run/list.ts', 'lib/profile/errors.ts', 'suites/index.ts'].map(
        (p) => `await import('${url(p)}');`,
      ),
      'const loaded = Object.keys(createRequire(import.meta.url).cache);',
      'process.stdout.write(JSON.stringify(loaded.filter((f) => /[\\\\/]undici[\\\\/]/.test(f))));',
    ].join('\n'),
  );
  const out = execFileSync(process.execPath, ['--import', 'tsx', script], { cwd: ROOT, encoding: 'utf8' });
  expect(JSON.parse(out)).toEqual([]);
});
