/**
 * The documents already found valid OpenAPI (read.ts): @readme/openapi-parser's validate() compiles the OpenAPI
 * meta-schema with a new Ajv on every call (0.1–0.3 s, the bulk of a load) and dereferences the document again. A
 * document whose content validated once is not validated again, in this process nor in the next (an empty marker
 * file per content hash, beside the test keys' cache; HARNESS_OPENAPI_CACHE_DIR moves it). The hash covers the
 * content the parser validates, its version and the reading options. Only a valid verdict is kept: a document with
 * errors is validated every time, and says them as the parser does.
 */
import { createHash } from 'node:crypto';
import { access, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PACKAGE_NAME, ROOT } from '../root.ts';

/** bump when what a key covers changes */
const FORMAT = 1;

const known = new Set<string>();
let version: Promise<string | undefined> | undefined;

export function validCacheDir(): string {
  return process.env.HARNESS_OPENAPI_CACHE_DIR || join(ROOT, 'node_modules', '.cache', PACKAGE_NAME, 'openapi-valid');
}

/** the parser's version (its package.json): unknown, no verdict is kept on disk */
function parserVersion(): Promise<string | undefined> {
  version ??= readFile(join(ROOT, 'node_modules', '@readme', 'openapi-parser', 'package.json'), 'utf8').then(
    (t) => {
      const v = (JSON.parse(t) as { version?: unknown }).version;
      return typeof v === 'string' ? v : undefined;
    },
    () => undefined,
  );
  return version;
}

/** the key of `content` (what the parser validates, as text) read with `options` */
export function validKey(content: string, options: string): string {
  return createHash('sha256').update(`${FORMAT}\u0000${options}\u0000${content}`).digest('hex');
}

async function markerOf(key: string): Promise<string | undefined> {
  const v = await parserVersion();
  return v === undefined ? undefined : join(validCacheDir(), `${key}.${v}`);
}

/** whether the content of `key` was found valid before (this process, or a marker of an earlier run) */
export async function knownValid(key: string): Promise<boolean> {
  if (known.has(key)) return true;
  const marker = await markerOf(key);
  if (marker === undefined) return false;
  try {
    await access(marker);
    known.add(key);
    return true;
  } catch {
    return false;
  }
}

/** remembers that the content of `key` is valid (a marker that cannot be written: this process only) */
export async function rememberValid(key: string): Promise<void> {
  known.add(key);
  const marker = await markerOf(key);
  if (marker === undefined) return;
  try {
    await mkdir(validCacheDir(), { recursive: true });
    await writeFile(marker, '');
  } catch {
    // a read-only tree: the next run validates again
  }
}
