/**
 * docs/requirements.md lists, for each id, every file whose code decides a verdict of its checks: for each check, the
 * functions reachable from its definition are found by TypeScript's type checker (each identifier resolved to its
 * declaration, followed from file to file: an oracle apart from the generator's reading by name,
 * scripts/docs/requirement-sources.ts), and every reached file of the suites that fails a check (`CheckFailed`,
 * `ensure(`, `fail(`), and every reached file of lib/negative (where the JOSE ids' cases are built), must be on the
 * check's row. Left out, as the page says: the suites' common
 * expectations (suites/shared.ts) and the engine (lib/engine).
 */
import { readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';
import { ROOT } from '../../lib/root.ts';
import { checkSources } from '../../scripts/docs/requirement-sources.ts';
import { allChecks } from '../../suites/index.ts';

/** code that fails a check */
const DECIDES = /\bCheckFailed\b|\bensure\(|\bfail\(/;
/** where a check's own code may live: the suites (but their common expectations) and the JOSE negative catalogue */
const inScope = (path: string): boolean =>
  (path.startsWith('suites/') && path !== 'suites/shared.ts') || path.startsWith('lib/negative/');

function program(): ts.Program {
  const config = ts.readConfigFile(join(ROOT, 'tsconfig.json'), (f) => ts.sys.readFile(f));
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT);
  return ts.createProgram([join(ROOT, 'suites', 'index.ts')], parsed.options);
}

const pathOf = (file: ts.SourceFile): string => relative(ROOT, file.fileName).split(sep).join('/');

/** the node that defines check `name` in its file: the object whose `name` it is, or the call that takes it */
function definitionIn(file: ts.SourceFile, name: string): ts.Node | undefined {
  let found: ts.Node | undefined;
  const visit = (n: ts.Node): void => {
    if (found) return;
    if (ts.isStringLiteral(n) && n.text === name) {
      const up = n.parent;
      if (ts.isPropertyAssignment(up) && up.name.getText() === 'name') found = up.parent;
      else if (ts.isCallExpression(up)) found = up;
    }
    ts.forEachChild(n, visit);
  };
  visit(file);
  return found;
}

/** a declaration of a type's member or of a type (no code): `r.verdict` read through a type declares nothing run */
function inType(d: ts.Node): boolean {
  for (let at: ts.Node | undefined = d; at; at = at.parent)
    if (ts.isTypeNode(at) || ts.isInterfaceDeclaration(at) || ts.isTypeAliasDeclaration(at)) return true;
  return false;
}

/** the files in scope whose declarations the definition reaches, through the checker's symbols (types left out) */
function reachedFiles(checker: ts.TypeChecker, def: ts.Node): Set<string> {
  const files = new Set<string>([pathOf(def.getSourceFile())]);
  const seen = new Set<ts.Node>();
  const visit = (n: ts.Node): void => {
    if (ts.isTypeNode(n) || ts.isInterfaceDeclaration(n) || ts.isTypeAliasDeclaration(n)) return;
    if (ts.isIdentifier(n)) {
      let symbol = checker.getSymbolAtLocation(n);
      if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
      for (const d of symbol?.declarations ?? []) {
        const path = pathOf(d.getSourceFile());
        if (!inScope(path) || seen.has(d) || inType(d)) continue;
        seen.add(d);
        files.add(path);
        visit(d);
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(def);
  return files;
}

describe('the map lists every file that decides a verdict', () => {
  const sources = checkSources(ROOT, allChecks);
  const page = readFileSync(join(ROOT, 'docs/requirements.md'), 'utf8');
  const rowOf = (id: string): string => page.split('\n').find((l) => l.startsWith(`| ${id} |`)) ?? '';
  const decides = new Map<string, boolean>();
  const decisive = (path: string): boolean => {
    if (!decides.has(path)) decides.set(path, DECIDES.test(readFileSync(join(ROOT, path), 'utf8')));
    return decides.get(path)!;
  };

  test("for each check, its reached files that fail a check, and its cases' files in lib/negative, are on its sources and each of its ids' rows", () => {
    const p = program();
    const checker = p.getTypeChecker();
    const missing: string[] = [];
    let decisiveSeen = 0;
    for (const s of sources) {
      const check = allChecks.find((c) => c.id === s.id)!;
      const file = p.getSourceFile(join(ROOT, s.files[0]!));
      const def = file && definitionIn(file, s.id.slice(check.suite.length + 1));
      expect(def, s.id).toBeDefined();
      // lib/negative fails nothing itself, but builds the cases a JOSE check judges: each one reached is listed too
      const needed = [...reachedFiles(checker, def!)].filter((f) => decisive(f) || f.startsWith('lib/negative/'));
      decisiveSeen += needed.length;
      for (const f of needed) {
        if (!s.files.includes(f)) missing.push(`${s.id}: ${f} not in its sources`);
        for (const id of s.requirements)
          if (!rowOf(id).includes(`\`${f}\``)) missing.push(`${id} (${s.id}): ${f} not on its row`);
      }
    }
    expect(missing).toEqual([]);
    // the oracle found something to demand: every check but those whose verdict the engine alone decides
    expect(decisiveSeen).toBeGreaterThan(sources.length / 2);
  }, 120_000);

  test('the oracle follows a call into another file: RACE-04 reaches burst.ts (repeatBursts) through quota.ts', () => {
    const p = program();
    // the checker binds the files (their nodes' parents) before they are read
    const checker = p.getTypeChecker();
    const s = sources.find((x) => x.id === 'race.concurrent-calls-past-quota')!;
    const def = definitionIn(p.getSourceFile(join(ROOT, s.files[0]!))!, 'concurrent-calls-past-quota')!;
    const reached = reachedFiles(checker, def);
    expect([...reached].sort()).toEqual(
      ['suites/race/burst.ts', 'suites/race/checks.ts', 'suites/race/common.ts', 'suites/race/quota.ts'].sort(),
    );
  }, 120_000);
  test("the oracle follows a JOSE family into its cases and its judge: JOSE-08's file reaches catalogue.ts and negatives.ts", () => {
    const p = program();
    const checker = p.getTypeChecker();
    const file = p.getSourceFile(join(ROOT, 'suites/jose/families/tampering-refused.ts'))!;
    const reached = reachedFiles(checker, definitionIn(file, 'tampering-refused')!);
    expect([...reached]).toEqual(
      expect.arrayContaining(['lib/negative/catalogue.ts', 'lib/negative/families.ts', 'suites/jose/negatives.ts']),
    );
  }, 120_000);
});
