/**
 * A first look at profile files before they are loaded and validated (lib/profile/load.ts, lib/engine/run/preflight.ts): whether one
 * names the embedded mock, so that certify can start the mocks' worker thread while this thread checks the profiles.
 * Only a guess that saves time: a file that cannot be read or parsed is no embedded profile here, and the profiles
 * are judged by their loader alone.
 */
import { readFileSync, statSync } from 'node:fs';
import { parse } from 'jsonc-parser';

/** far larger than a profile: not looked at */
const MAX_PEEK_BYTES = 1024 * 1024;

/**
 * whether one of the files is an object with `embedded` (the loader's test for an embedded profile); only regular
 * files are read (a pipe such as /dev/stdin is left whole for the loader)
 */
export function namesEmbeddedMock(paths: readonly string[]): boolean {
  return paths.some((path) => {
    try {
      const stat = statSync(path);
      if (!stat.isFile() || stat.size > MAX_PEEK_BYTES) return false;
      const doc: unknown = parse(readFileSync(path, 'utf8'));
      return typeof doc === 'object' && doc !== null && !Array.isArray(doc) && 'embedded' in doc;
    } catch {
      return false;
    }
  });
}
