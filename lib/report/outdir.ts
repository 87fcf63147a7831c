/**
 * The reports' folder, made ready before any traffic: every missing folder on the way is created one at a time
 * (node's recursive mkdir loops forever on some paths, e.g. under /proc), a file in the way is named, and the
 * folder is proven writable by writing and removing a probe file. Bounded by the number of path components.
 */
import { mkdirSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, parse, resolve, sep } from 'node:path';
import { ConfigurationError } from '../errors.ts';

export class OutDirError extends ConfigurationError {
  readonly code = 'OUT_DIR_UNUSABLE';
  constructor(message: string) {
    super(message);
    this.name = 'OutDirError';
  }
}

type Kind = 'dir' | 'other' | 'missing';
function kindOf(path: string): Kind {
  try {
    return statSync(path).isDirectory() ? 'dir' : 'other';
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return 'missing';
    // ENOTDIR: a file sits on the way; anything else (EACCES...) is named as it is
    if (code === 'ENOTDIR') return 'other';
    throw new OutDirError(`cannot read ${path} (${code ?? 'error'})`);
  }
}

/** the folder and its missing parents, outermost first */
function componentsOf(dir: string): string[] {
  const { root } = parse(dir);
  const parts = dir.slice(root.length).split(sep).filter(Boolean);
  return parts.map((_, i) => root + parts.slice(0, i + 1).join(sep));
}

/** Creates `dir` (and its parents) and checks it can hold files. Throws OutDirError naming the cause. */
export function ensureOutDir(dir: string): string {
  const abs = resolve(dir);
  for (const path of componentsOf(abs)) {
    const kind = kindOf(path);
    if (kind === 'dir') continue;
    if (kind === 'other')
      throw new OutDirError(
        path === abs ? `${abs} is a file, not a folder` : `${abs} cannot be created: ${path} is a file, not a folder`,
      );
    try {
      mkdirSync(path);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code ?? 'error';
      // created meanwhile by someone else: fine if it is a folder now (checked once, no retry loop)
      if (code === 'EEXIST' && kindOf(path) === 'dir') continue;
      throw new OutDirError(`${abs} cannot be created: mkdir ${path} failed (${code}) in ${dirname(path)}`);
    }
  }
  const probe = resolve(abs, `.certify-write-test-${process.pid}`);
  try {
    writeFileSync(probe, '');
    unlinkSync(probe);
  } catch (e) {
    throw new OutDirError(`${abs} is not writable (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  return abs;
}
