/**
 * Comments, test names and docs cite only what is in the repository: the specification's sections, docs/ pages,
 * requirement ids. A reader of a fresh clone cannot follow an issue number, a path on a developer's machine, a notes
 * file kept beside the repository, nor "the seed" meaning the specification (`--seed` is the data seed). This test
 * scans the tracked text files of the folders a reader walks and names every line that points outside.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../lib/root.ts';

const SCANNED = ['lib', 'suites', 'scripts', 'test', 'docs', 'examples', 'load', 'profiles', '.ci'];
/** the files at the top: the pages and the tools' configuration */
const FILES = [
  'README.md',
  'ARCHITECTURE.md',
  'eslint.config.js',
  'vitest.config.ts',
  '.dependency-cruiser.cjs',
  'package.json',
];
const TEXT = /\.(ts|mjs|cjs|js|md|json|jsonc|yml|yaml|sh)$|(^|\/)(Jenkinsfile|run)$/;

/** what points outside the repository, each with the reason a reader cannot follow it */
const PATTERNS: readonly { what: string; re: RegExp }[] = [
  { what: 'an issue number (cite a docs/ page, a spec section or a requirement id)', re: /\bissues? #?\d+/i },
  { what: "a path on a developer's machine", re: /\/work\// },
  { what: 'a folder beside the repository', re: /(\.\.\/)+shared\/|\bshared\/(notes|spec|seed|data|hooks)\b/ },
  { what: 'a notes file that is not in the repository', re: /\bnotes\/[\w-]+\.md\b/ },
  { what: "an issue's text, which is not in the repository", re: /\bthe issue's\b/i },
  { what: '"the seed" for the specification (say "the specification")', re: /\bseed\s*§/i },
  {
    what: '"the seed" for the specification (say "the specification")',
    re: /\bthe seed(?:'s)? (?:says|names|requires|lists|calls|writes|puts|allows|defines|is silent|own examples|rule|examples)\b/i,
  },
];

/**
 * What must stay, and why: this file spells the patterns it looks for; the wording test checks that the example
 * profiles do NOT mention the outside folder, so it spells it.
 */
const ALLOWED: ReadonlyMap<string, RegExp> = new Map([
  ['test/architecture/no-outside-refs.test.ts', /./],
  ['test/cli/wording.test.ts', /shared\/spec/],
]);

function walk(dir: string, out: string[], depth = 0): void {
  if (depth > 12) return;
  for (const name of readdirSync(join(ROOT, dir))) {
    if (name === 'node_modules') continue;
    const rel = `${dir}/${name}`;
    if (statSync(join(ROOT, rel)).isDirectory()) walk(rel, out, depth + 1);
    else out.push(rel);
  }
}

/** the tracked files (git), or every file of the scanned folders when this is no git checkout */
function scannedFiles(): string[] {
  try {
    const listed = execFileSync('git', ['ls-files', '-z', '--', ...SCANNED, ...FILES], { cwd: ROOT, encoding: 'utf8' });
    const files = listed.split('\0').filter((f) => f.length > 0);
    if (files.length > 0) return files;
  } catch {
    // not a git checkout (an unpacked archive): walk the folders instead
  }
  const out = [...FILES];
  for (const dir of SCANNED) walk(dir, out);
  return out;
}

function findings(path: string, text: string): string[] {
  const allowed = ALLOWED.get(path);
  return text
    .split('\n')
    .flatMap((line, i) =>
      PATTERNS.filter((p) => p.re.test(line) && !(allowed && allowed.test(line))).map(
        (p) => `${path}:${i + 1}: ${p.what}: ${line.trim().slice(0, 120)}`,
      ),
    );
}

describe('nothing points outside the repository', () => {
  const files = scannedFiles().filter((f) => TEXT.test(f));

  it('scans the tracked sources, tests and docs', () => {
    expect(files.length).toBeGreaterThan(300);
    expect(files).toContain('lib/tls/connect.ts');
  });

  it('no issue number, outside path, notes file or "seed" for the specification', () => {
    const found = files.flatMap((f) => findings(f, readFileSync(join(ROOT, f), 'utf8')));
    expect(found).toEqual([]);
  });

  it('the patterns find what they are for', () => {
    // built from parts, so that this file holds none of what it looks for
    const at = (...parts: string[]): string => parts.join('/');
    const issue = ['iss', 'ue'].join('');
    const lines = [
      `// see ${issue} 21 for the figures`,
      ` * See ${at('', 'work', 'shared', 'notes', 'tls-facts.md')}`,
      `(${at('shared', 'spec', 'contract.md')} "Tokens")`,
      `see ${at('notes', 'style.md')}`,
      `the ${issue}'s goal of at most twice`,
      'UAT network rules (seed §5.2)',
      "a 13-character id has 6 `x` (the seed's own examples)",
    ];
    for (const l of lines) expect(findings('lib/x.ts', l), l).not.toEqual([]);
    for (const l of ["import { clip } from '../shared.ts';", 'the run is replayable from its seed', '--seed 42'])
      expect(findings('lib/x.ts', l), l).toEqual([]);
  });
});
