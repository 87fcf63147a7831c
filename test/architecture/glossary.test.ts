/**
 * ARCHITECTURE.md's glossary: every term it defines is used on the pages a reader walks (ARCHITECTURE.md above the
 * glossary, README.md, docs/*.md, profiles/README.md), and the words those pages use in a sense of their own — the
 * key terms below — are defined there; the words retired for plain ones are used nowhere a reader starts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../lib/root.ts';

const KEY_TERMS = [
  'timeline',
  'quota window',
  'in-flight window',
  'lease',
  'gate',
  'control',
  'spoil',
  'prerequisite',
  'rendezvous',
  'coverage class',
  'property',
  'scratch evidence',
  'exclusive check',
  'clock group',
  'throttle',
  'spike arrest',
  'second spelling',
  'sealed',
  'envelope',
  'fault',
  'lenient mock',
  'independent bank',
  'profile',
  'embedded',
  'waiver',
  'known deviation',
  'inconclusive',
  'small target',
  'test clock',
  'filling',
  'place',
  'unisolated',
  'hedge',
  'spend',
  'window',
];

const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8');
const architecture = read('ARCHITECTURE.md');
const at = architecture.indexOf('\n## Glossary\n');
const glossary = at >= 0 ? architecture.slice(at) : '';
/** the defined terms: each entry's bold head, without what its parentheses add */
const terms = [...glossary.matchAll(/^- \*\*([^*]+)\*\*/gm)].map((m) => (m[1] ?? '').trim());

const pages = [
  architecture.slice(0, at),
  read('README.md'),
  read('profiles/README.md'),
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md') && f !== 'requirements.md')
    .map((f) => read(`docs/${f}`)),
].join('\n');

/** the README.md of every folder under lib/, suites/ and scripts/ */
const readmes = (dir: string): string[] =>
  readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? readmes(`${dir}/${e.name}`) : e.name === 'README.md' ? [`${dir}/${e.name}`] : [],
  );

/**
 * words retired for plain ones: a folder is no room, an entry point no door; and meanings a glossary word does not
 * have: a CI job that fails a build is no gate (a gate refuses a call before the rule under test)
 */
const RETIRED = [/\brooms\b/i, /\bdoors?\b/i, /\bCI gates?\b/i];

/** a term as a word of the text, plural or its verb forms allowed (spoil: spoiled, spoils) */
const used = (term: string, text: string): boolean =>
  new RegExp(`\\b${term.replace(/[-]/g, '[- ]').replace(/\s+/g, '\\s+')}(s|es|ed|ing)?\\b`, 'i').test(text);

describe("ARCHITECTURE.md's glossary", () => {
  it('exists, in alphabetical order (hyphens ignored), each term once', () => {
    expect(terms.length).toBeGreaterThan(30);
    const key = (t: string): string => t.toLowerCase().replace(/-/g, '');
    expect(terms).toEqual([...terms].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0)));
    expect(new Set(terms).size).toBe(terms.length);
  });

  it('every term it defines is used on the pages', () => {
    expect(terms.filter((t) => !used(t, pages))).toEqual([]);
  });

  it('defines the key terms the pages use', () => {
    expect(KEY_TERMS.filter((k) => !terms.includes(k))).toEqual([]);
    expect(KEY_TERMS.filter((k) => !used(k, pages))).toEqual([]);
  });

  it("the pages and the folders' READMEs use none of the retired words", () => {
    const texts = [
      ['the pages', pages],
      ...['lib', 'suites', 'scripts'].flatMap(readmes).map((f) => [f, read(f)]),
    ] as const;
    const found = texts.flatMap(([where, text]) =>
      RETIRED.filter((w) => w.test(text)).map((w) => `${where}: ${w.source}`),
    );
    expect(found).toEqual([]);
  });
});
