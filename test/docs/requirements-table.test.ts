/**
 * The requirement → checks → files table (lib/catalogue/requirements-table.ts) and the sources it is written from
 * (scripts/docs/requirement-sources.ts): every catalogue id gets a row, a check's files start where it is defined,
 * a partner judge names the file where its verdict is judged; docs/requirements.md names, for each JOSE family's id,
 * the family's own file and the judge it calls.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { requirements } from '../../lib/catalogue/index.ts';
import { requirementsTable, type TableInput } from '../../lib/catalogue/requirements-table.ts';
import { ROOT } from '../../lib/root.ts';
import { checkSources, judgeSources } from '../../scripts/docs/requirement-sources.ts';
import { allChecks } from '../../suites/index.ts';

/** a file's name without its folders (the table follows files that move to subfolders) */
const base = (path: string): string => path.slice(path.lastIndexOf('/') + 1);
const rowOf = (page: string, id: string): string | undefined => page.split('\n').find((l) => l.startsWith(`| ${id} |`));
/** ids `prefix-01`..: `range('JOSE', 1, 3)` is JOSE-01, JOSE-02, JOSE-03 */
const range = (prefix: string, from: number, to: number): string[] =>
  Array.from({ length: to - from + 1 }, (_, i) => `${prefix}-${String(from + i).padStart(2, '0')}`);

describe('requirements table', () => {
  const base: TableInput = {
    requirements: requirements.filter((r) => r.id === 'TOK-07' || r.id === 'MASK-05' || r.id === 'QUOTA-02'),
    checks: [{ id: 'tokens.x', requirements: ['TOK-07'], partial: ['TOK-07'], files: ['suites/tokens/a.ts'] }],
    judges: [{ requirement: 'MASK-05', files: ['lib/partner/judge/judge-sealed.ts'] }],
    faults: [{ id: 'f-one', requirements: ['TOK-07'] }],
  };

  test('one row per catalogue id, in its order, with checks, files and faults (or a dash)', () => {
    const page = requirementsTable(base);
    const rows = page.split('\n').filter((l) => /^\| [A-Z]+-\d/.test(l));
    expect(rows.map((r) => r.split(' | ')[0])).toEqual(base.requirements.map((r) => `| ${r.id}`));
    expect(rowOf(page, 'TOK-07')).toContain('`tokens.x` (part) | `suites/tokens/a.ts` | `f-one` |');
    expect(rowOf(page, 'MASK-05')).toContain('partner judge | `lib/partner/judge/judge-sealed.ts` | — |');
    expect(rowOf(page, 'QUOTA-02')).toContain('— (no check) | — | — |');
  });

  test("a pipe in a title does not break the table's columns", () => {
    const r = { ...base.requirements[0]!, title: 'a | b' };
    const row = rowOf(requirementsTable({ ...base, requirements: [r] }), r.id) ?? '';
    expect(row).toContain('a \\| b');
  });
});

describe('requirement sources', () => {
  const sources = checkSources(ROOT, allChecks);
  const of = (id: string) => sources.find((s) => s.id === id)?.files ?? [];

  test('every check is found in the file that spells its name (none falls back to its checks.ts unseen)', () => {
    for (const s of sources) {
      const name = s.id.slice(s.id.indexOf('.') + 1);
      expect(s.files[0], s.id).toMatch(/^suites\/[a-z]+\/([a-z0-9-]+\/)*[a-z0-9-]+\.ts$/);
      expect(readFileSync(join(ROOT, s.files[0] ?? ''), 'utf8'), s.id).toContain(`'${name}'`);
    }
    expect(of('tokens.missing-token-401')[0]).toMatch(/^suites\/tokens\/(.+\/)?access\.ts$/);
  });

  test("a check's files include the same-suite files whose functions it calls", () => {
    const names = of('quota.operations-counted-apart').map(base);
    expect(names).toEqual(expect.arrayContaining(['checks.ts', 'exhaust.ts']));
  });

  test("the map names each JOSE family's own file and the judge it calls (negatives.ts) for its id", () => {
    const page = readFileSync(join(ROOT, 'docs/requirements.md'), 'utf8');
    const families = sources.filter((s) => s.files[0]?.startsWith('suites/jose/families/'));
    const ids = families.flatMap((s) => s.requirements);
    const expected = [...range('JOSE', 1, 9), ...range('HARD', 1, 3)];
    expect([...ids].sort()).toEqual([...expected].sort());
    for (const s of families) {
      const name = s.id.slice('jose.'.length);
      expect(s.files[0], s.id).toBe(`suites/jose/families/${name}.ts`);
      for (const id of s.requirements) {
        const row = rowOf(page, id) ?? '';
        expect(row, id).toContain(`\`suites/jose/families/${name}.ts\``);
        expect(row, id).toContain('`suites/jose/negatives.ts`');
      }
    }
  });

  test("a partner judge's files include the judge file its verdict calls (MASK-05: judge-mask.ts)", () => {
    const judges = judgeSources(ROOT, ['MASK-05', 'CLI-04']);
    expect(judges.map((j) => ({ ...j, files: j.files.map(base) }))).toEqual([
      { requirement: 'MASK-05', files: ['judge-sealed.ts', 'judge-mask.ts'] },
      { requirement: 'CLI-04', files: ['judge-session.ts'] },
    ]);
    for (const j of judges) for (const f of j.files) expect(f.startsWith('lib/partner/')).toBe(true);
  });
});
