/**
 * lib/, suites/ and scripts/ each open with a README.md that lists what is inside: a table row per folder and file
 * directly in it (its README.md aside), none for what is not there; a folder added without its row fails here.
 * suites/README.md's rows name the requirement ids each suite's checks judge, as the suites themselves declare them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../lib/root.ts';
import { suites } from '../../suites/index.ts';

const FOLDERS = ['lib', 'suites', 'scripts'] as const;

/** what a folder holds directly, as its README names it: `name/` for a folder, `name` for a file */
const inside = (dir: string): string[] =>
  readdirSync(join(ROOT, dir), { withFileTypes: true })
    .filter((e) => e.name !== 'README.md')
    .map((e) => (e.isDirectory() ? `${e.name}/` : e.name))
    .sort();

/** the table rows of a README: the first cell's entry (in backticks) and the other cells */
function rows(text: string): { entry: string; cells: string[] }[] {
  return [...text.matchAll(/^\| `([^`]+)` +\|(.*)\|$/gm)].map((m) => ({
    entry: m[1] ?? '',
    cells: (m[2] ?? '').split('|').map((c) => c.trim()),
  }));
}

/** ids as the README writes them ("ERR-01..05, OAS-04") one by one */
function expandIds(cell: string): string[] {
  return [...cell.matchAll(/([A-Z]+)-(\d\d)(?:\.\.(\d\d))?/g)].flatMap(([, prefix, from, to]) => {
    const first = Number(from);
    const last = to === undefined ? first : Number(to);
    return Array.from({ length: last - first + 1 }, (_, i) => `${prefix}-${String(first + i).padStart(2, '0')}`);
  });
}

const readme = (dir: string): string => readFileSync(join(ROOT, dir, 'README.md'), 'utf8');

describe('the READMEs of lib/, suites/ and scripts/', () => {
  it.each(FOLDERS)('%s/README.md opens with its header', (dir) => {
    const lines = readme(dir).split('\n');
    expect(lines[0]).toBe(`# ${dir}`);
    expect(lines.some((l) => /^Lives here: \S/.test(l))).toBe(true);
    expect(lines.some((l) => /^May use: \S/.test(l))).toBe(true);
  });

  it.each(FOLDERS)('%s/README.md lists every folder and file inside, and nothing else', (dir) => {
    const listed = rows(readme(dir)).map((r) => r.entry);
    expect([...listed].sort()).toEqual(inside(dir));
  });

  it("suites/README.md names each suite's requirement ids, as its checks declare them", () => {
    const listed = new Map(rows(readme('suites')).map((r) => [r.entry, expandIds(r.cells.join(' ')).sort()]));
    const declared = suites.map((s) => [`${s.name}/`, [...new Set(s.checks.flatMap((c) => c.requirements))].sort()]);
    expect(declared.map(([name]) => [name, listed.get(name as string)])).toEqual(declared);
  });

  it('a row is read from its table, a range of ids one by one', () => {
    expect(rows('| `a/` | x | B-01..03, C-09 |\n| b | y |')).toEqual([{ entry: 'a/', cells: ['x', 'B-01..03, C-09'] }]);
    expect(expandIds('ERR-01..03, OAS-04')).toEqual(['ERR-01', 'ERR-02', 'ERR-03', 'OAS-04']);
  });
});
