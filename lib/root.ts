/**
 * The project's root directory: the nearest directory above this module whose package.json is this project's.
 * Found by searching rather than by a fixed number of `..`, so that it holds both for the TypeScript sources and
 * for the bundle `certify` runs from (scripts/bin/certify.mjs builds it under node_modules/.cache).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PACKAGE_NAME = 'openbank-conformance';

function findRoot(from: string): string {
  for (let dir = from, i = 0; i < 64; i++) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: unknown };
      if (pkg.name === PACKAGE_NAME) return dir;
    } catch {
      // no (readable) package.json here: keep going up
    }
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  throw new Error(`cannot find the ${PACKAGE_NAME} project directory above ${from}`);
}

export const ROOT = findRoot(dirname(fileURLToPath(import.meta.url)));
