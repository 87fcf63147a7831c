/**
 * The pages a reader walks (ARCHITECTURE.md, README.md, docs/*.md, profiles/README.md) name files of the
 * repository; each named file exists, from the project's root or from the page's own folder. A file that moves
 * (into a subfolder, say) must take its mentions with it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../lib/root.ts';

const PAGES = [
  'ARCHITECTURE.md',
  'README.md',
  'profiles/README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
/** a path of the repository's folders, ending in a file extension; globs and placeholders are not paths */
const PATH =
  /\b(?:lib|suites|scripts|test|examples|load|profiles|docs|architecture)\/[\w./-]+\.(?:ts|md|json|jsonc|mjs|cjs|sh|yml)\b/g;

function missing(page: string, text = readFileSync(join(ROOT, page), 'utf8')): string[] {
  const named = [...new Set(text.match(PATH) ?? [])];
  return named
    .filter((p) => !existsSync(join(ROOT, p)) && !existsSync(join(ROOT, dirname(page), p)))
    .map((p) => `${page}: ${p}`);
}

describe('files named on the pages exist', () => {
  it('every page names only files that exist', () => {
    expect(PAGES.filter((p) => existsSync(join(ROOT, p))).flatMap((p) => missing(p))).toEqual([]);
  });

  it("a path that does not exist is found; one that exists from the page's folder is not", () => {
    expect(missing('docs/x.md', 'see `lib/engine/nowhere.ts` and lib/engine/run/runner.ts')).toEqual([
      'docs/x.md: lib/engine/nowhere.ts',
    ]);
    expect(missing('profiles/README.md', 'copy examples/real-uat.jsonc')).toEqual([]);
  });
});
