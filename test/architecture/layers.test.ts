/**
 * The layering of ARCHITECTURE.md, enforced: dependency-cruiser with .dependency-cruiser.cjs (rules made from
 * architecture/layers.cjs) finds no upward import and no cycle in the tree; the same rules catch a deliberate
 * upward import, a mock importing the engine, a type-only cycle and lib/ importing suites/ in a fixture tree; and
 * ARCHITECTURE.md's table names the layers and folders of architecture/layers.cjs, in the same order. And the folders: no folder under lib/
 * holds more than 16 files of its own (a bigger one is split into subfolders by concern), and every folder under lib/
 * has its header, a README.md saying what lives there and what it may use.
 */
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../lib/root.ts';

const { LAYERS } = createRequire(import.meta.url)(join(ROOT, 'architecture', 'layers.cjs')) as {
  LAYERS: { name: string; paths: string[] }[];
};

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

function cruise(cwd: string, targets: string[]): Violation[] {
  const bin = join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
  const r = spawnSync(
    process.execPath,
    [bin, ...targets, '--config', '.dependency-cruiser.cjs', '--output-type', 'json'],
    // the JSON report of the whole tree is over spawnSync's default 1 MiB of output
    { cwd, encoding: 'utf8', timeout: 60_000, maxBuffer: 64 * 1024 * 1024 },
  );
  if (r.error) throw r.error;
  const out = JSON.parse(r.stdout) as { summary: { violations: Violation[] } };
  return out.summary.violations;
}

const temps: string[] = [];
afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true });
});

describe('layering', () => {
  it('the tree has no upward import and no import cycle', () => {
    const v = cruise(ROOT, ['lib', 'suites', 'scripts']);
    expect(v.map((x) => `${x.rule.name}: ${x.from} → ${x.to}`)).toEqual([]);
  });

  it('catches an upward import, a mock importing the engine, a type-only cycle, an import of test/ and lib/ importing suites/', () => {
    const dir = mkdtempSync(join(tmpdir(), 'obc-layers-'));
    temps.push(dir);
    const file = (path: string, text: string): void => {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    };
    copyFileSync(join(ROOT, '.dependency-cruiser.cjs'), join(dir, '.dependency-cruiser.cjs'));
    mkdirSync(join(dir, 'architecture'));
    copyFileSync(join(ROOT, 'architecture', 'layers.cjs'), join(dir, 'architecture', 'layers.cjs'));
    file('tsconfig.json', JSON.stringify({ compilerOptions: { allowImportingTsExtensions: true, noEmit: true } }));
    file('lib/engine/sample-results.ts', 'export interface Result { ok: boolean }\n');
    file(
      'lib/http/sample-client.ts',
      "import type { Result } from '../engine/sample-results.ts';\nexport const r: Result[] = [];\n",
    );
    file('lib/mock/sample-server.ts', "import { x } from '../engine/sample-run.ts';\nexport const y = x;\n");
    file('lib/engine/sample-run.ts', 'export const x = 1;\n');
    file('lib/jose/a.ts', "import type { B } from './b.ts';\nexport interface A { b?: B }\n");
    file('lib/jose/b.ts', "import type { A } from './a.ts';\nexport interface B { a?: A }\n");
    file('lib/pki/index.ts', "import { helper } from '../../test/helper.ts';\nexport const h = helper;\n");
    file('test/helper.ts', 'export const helper = 1;\n');
    file(
      'lib/workbench/sample-forge.ts',
      "import { c } from '../../suites/jose/sample-case.ts';\nexport const d = c;\n",
    );
    file('suites/jose/sample-case.ts', 'export const c = 1;\n');
    const v = cruise(dir, ['lib']).map((x) => `${x.rule.name}: ${x.from} → ${x.to}`);
    expect(v).toContain('layer-transport: lib/http/sample-client.ts → lib/engine/sample-results.ts');
    expect(v).toContain('layer-mock bank: lib/mock/sample-server.ts → lib/engine/sample-run.ts');
    expect(v.some((x) => x.startsWith('no-circular: lib/jose/'))).toBe(true);
    expect(v).toContain('not-to-test: lib/pki/index.ts → test/helper.ts');
    expect(v).toContain('lib-not-suites: lib/workbench/sample-forge.ts → suites/jose/sample-case.ts');
  });

  it("ARCHITECTURE.md's table names the layers and folders of architecture/layers.cjs, lowest first", () => {
    const text = readFileSync(join(ROOT, 'ARCHITECTURE.md'), 'utf8');
    const rows = text
      .split('\n')
      .filter((l) => l.startsWith('|') && !/^\|\s*(layer|-+)\s*\|/.test(l))
      .map((l) => l.split('|').map((c) => c.trim()))
      .map((cells) => ({ name: cells[1] ?? '', paths: [...(cells[2] ?? '').matchAll(/`([^`]+)`/g)].map((m) => m[1]) }));
    const normalise = (p: string | undefined): string => (p ?? '').replace(/\/$/, '').replace(/ \(.*\)$/, '');
    expect(rows.map((r) => r.name)).toEqual(LAYERS.map((l) => l.name));
    for (const [i, layer] of LAYERS.entries()) {
      expect(rows[i]?.paths.map(normalise), `folders of layer ${layer.name}`).toEqual(layer.paths.map(normalise));
    }
  });
});

/** every folder under lib/ (lib/ included), relative to the root */
function libFolders(dir = 'lib'): string[] {
  const subs = readdirSync(join(ROOT, dir), { withFileTypes: true }).filter((e) => e.isDirectory());
  return [dir, ...subs.flatMap((e) => libFolders(`${dir}/${e.name}`))];
}

/** the files directly inside a folder, its README.md aside */
const ownFiles = (dir: string): string[] =>
  readdirSync(join(ROOT, dir), { withFileTypes: true })
    .filter((e) => e.isFile() && e.name !== 'README.md')
    .map((e) => e.name);

/** the .ts files under a folder, recursively, relative to the root */
const tsFiles = (dir: string): string[] =>
  readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(`${dir}/${e.name}`) : e.name.endsWith('.ts') ? [`${dir}/${e.name}`] : [],
  );

describe('folders', () => {
  it("in lib/, only the engine's Vitest glue (lib/engine/vitest*) imports vitest", () => {
    const importers = tsFiles('lib')
      .filter((f) => !f.startsWith('lib/engine/vitest'))
      .filter((f) => /from '(vitest|@vitest\/[^']*)'|import\('vitest'\)/.test(readFileSync(join(ROOT, f), 'utf8')));
    expect(importers).toEqual([]);
  });

  it('no folder under lib/ holds more than 16 files of its own', () => {
    const crowded = libFolders()
      .map((dir) => ({ dir, files: ownFiles(dir).length }))
      .filter((f) => f.files > 16)
      .map((f) => `${f.dir}: ${f.files} files`);
    expect(crowded).toEqual([]);
  });

  it('every folder under lib/ has its header: README.md naming the folder, what lives there and what it may use', () => {
    const missing = libFolders().flatMap((dir) => {
      const path = join(ROOT, dir, 'README.md');
      if (!existsSync(path)) return [`${dir}: no README.md`];
      const lines = readFileSync(path, 'utf8').split('\n');
      const problems = [
        lines[0] === `# ${dir}` ? '' : `its first line is not "# ${dir}"`,
        lines.some((l) => /^Lives here: \S/.test(l)) ? '' : 'no "Lives here:" line',
        lines.some((l) => /^May use: \S/.test(l)) ? '' : 'no "May use:" line',
      ].filter(Boolean);
      return problems.map((p) => `${dir}/README.md: ${p}`);
    });
    expect(missing).toEqual([]);
  });
});
