/**
 * The bank's OpenAPI document (docs/openapi.md), read once per file (read.ts does the reading): the profile loader
 * checks it before any traffic, prepare takes the same model.
 */
import { resolve } from 'node:path';
import type { LoadOptions } from './read.ts';
import type { OpenApiModel } from './types.ts';

export { OpenApiError } from './errors.ts';
export type { LoadOptions } from './read.ts';

const cache = new Map<string, Promise<OpenApiModel>>();

/**
 * the model of `file` (relative to `baseDir`, or absolute): loaded once per file and options, later calls share it
 * (the profile loader checks the document before any traffic, prepare takes the same model)
 */
export function loadOpenApi(file: string, baseDir: string, opts: LoadOptions = {}): Promise<OpenApiModel> {
  const abs = resolve(baseDir, file);
  // a text given in place of the file's is read once, never cached under the file's name
  if (opts.text !== undefined) return import('./read.ts').then(({ load }) => load(abs, file, opts));
  const key = `${abs}\u0000${opts.requireOperations !== false}\u0000${JSON.stringify(opts.paths ?? {})}`;
  let p = cache.get(key);
  if (!p) {
    // the parsers load with the first document (read.ts): a run whose profiles name none never loads them
    p = import('./read.ts').then(({ load }) => load(abs, file, opts));
    cache.set(key, p);
    p.catch(() => cache.delete(key));
  }
  return p;
}
