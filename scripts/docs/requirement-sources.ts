/**
 * Where each check and each partner judge lives, read from the sources (TypeScript's parser, no code run): the
 * input of lib/catalogue/requirements-table.ts. A check `<suite>.<name>` is defined in the file of suites/<suite>/
 * that spells its name as a string literal (a spec `{ name: '…' }`, as each of jose's family files holds one, or a
 * builder call); the functions that definition calls, and the functions those call in turn, from file to file, name
 * the files where its requests are built and its verdict judged: the suites' files (not the common expectations of
 * suites/shared.ts, which every check uses) and the JOSE negative catalogue's (lib/negative). A client-side id is judged
 * in the lib/partner judge-*.ts files that spell it. Folders are read with their subfolders, so that the table
 * follows files that move.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix } from 'node:path';
import ts from 'typescript';
import type { CheckSource, JudgeSource } from '../../lib/catalogue/requirements-table.ts';

/**
 * a check's definition around its name's literal: the spec object whose `name` it is, or the builder call that takes
 * it as an argument; undefined when the literal is something else
 */
function definitionOf(literal: ts.Node): ts.Node | undefined {
  const up = literal.parent;
  if (ts.isPropertyAssignment(up) && up.name.getText() === 'name' && ts.isObjectLiteralExpression(up.parent))
    return up.parent;
  if (ts.isCallExpression(up) && up.arguments.some((a) => a === literal)) return up;
  return undefined;
}

/** an imported name: the file it comes from (its path from the project root) and its name there */
interface Imported {
  from: string;
  name: string;
}

/** relative imports of a source file: local name → where it comes from */
function importsOf(path: string, file: ts.SourceFile): Map<string, Imported> {
  const names = new Map<string, Imported>();
  for (const st of file.statements) {
    if (!ts.isImportDeclaration(st) || !ts.isStringLiteral(st.moduleSpecifier)) continue;
    const from = st.moduleSpecifier.text;
    if (!from.startsWith('.')) continue;
    const target = posix.join(posix.dirname(path), from);
    const bindings = st.importClause?.namedBindings;
    if (bindings && ts.isNamedImports(bindings))
      for (const el of bindings.elements)
        names.set(el.name.text, { from: target, name: (el.propertyName ?? el.name).getText() });
  }
  return names;
}

/** top-level functions, classes and constants of a source file, by name */
function declarationsOf(file: ts.SourceFile): Map<string, ts.Node> {
  const decls = new Map<string, ts.Node>();
  for (const st of file.statements) {
    if ((ts.isFunctionDeclaration(st) || ts.isClassDeclaration(st)) && st.name) decls.set(st.name.text, st);
    if (ts.isVariableStatement(st))
      for (const d of st.declarationList.declarations) if (ts.isIdentifier(d.name)) decls.set(d.name.text, d);
  }
  return decls;
}

/**
 * the files whose functions a definition calls, directly or through other functions (each followed once, from file to
 * file while `follow` accepts the file), in order of first use
 */
function calledFiles(def: ts.Node, p: Parsed, files: Files, follow: (path: string) => boolean): string[] {
  const called: string[] = [];
  const followed = new Set<ts.Node>([def]);
  const visit = (n: ts.Node, at: Parsed): void => {
    // a type calls nothing: a file only a type comes from holds no code of the check
    if (ts.isTypeNode(n) || ts.isInterfaceDeclaration(n) || ts.isTypeAliasDeclaration(n)) return;
    if (ts.isIdentifier(n)) {
      const imported = at.imports.get(n.text);
      const there = imported && follow(imported.from) ? files.get(imported.from) : undefined;
      if (imported && there) called.push(imported.from);
      const [decl, of] = imported ? [there?.declarations.get(imported.name), there] : [at.declarations.get(n.text), at];
      if (decl && of && !followed.has(decl)) {
        followed.add(decl);
        visit(decl, of);
      }
    }
    ts.forEachChild(n, (c) => visit(c, at));
  };
  visit(def, p);
  return called;
}

/** source files parsed once, by their path from the project root */
interface Files {
  get(path: string): Parsed | undefined;
}

function filesUnder(root: string): Files {
  const cache = new Map<string, Parsed | undefined>();
  return {
    get: (path) => {
      if (!cache.has(path)) cache.set(path, existsSync(join(root, path)) ? parse(root, path) : undefined);
      return cache.get(path);
    },
  };
}

interface Parsed {
  path: string;
  file: ts.SourceFile;
  imports: Map<string, Imported>;
  declarations: Map<string, ts.Node>;
  literals: Map<string, ts.Node[]>;
}

function parse(root: string, path: string): Parsed {
  const file = ts.createSourceFile(path, readFileSync(join(root, path), 'utf8'), ts.ScriptTarget.Latest, true);
  const literals = new Map<string, ts.Node[]>();
  const visit = (n: ts.Node): void => {
    if (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n))
      literals.set(n.text, [...(literals.get(n.text) ?? []), n]);
    ts.forEachChild(n, visit);
  };
  visit(file);
  return { path, file, imports: importsOf(path, file), declarations: declarationsOf(file), literals };
}

/** the TypeScript files under `dir` (its subfolders too, a bounded depth), sorted; Vitest entry files left out */
function tsFiles(root: string, dir: string, depth = 0): string[] {
  if (depth > 6) return [];
  return readdirSync(join(root, dir))
    .sort()
    .flatMap((f) => {
      const rel = `${dir}/${f}`;
      if (statSync(join(root, rel)).isDirectory()) return tsFiles(root, rel, depth + 1);
      return f.endsWith('.ts') && !f.endsWith('.check.ts') ? [rel] : [];
    });
}

/**
 * the files a check's verdict may come from: the suites' (but the common expectations, suites/shared.ts, and the list
 * of suites) and the JOSE negative catalogue's, lib/negative (where the JOSE ids' cases are built)
 */
export function isCheckSource(path: string): boolean {
  if (path === 'suites/shared.ts' || path === 'suites/index.ts') return false;
  return path.startsWith('suites/') || path.startsWith('lib/negative/');
}

/** the files of one check: its definition's, then the ones it calls (in order of first use) */
function filesOfCheck(name: string, parsed: readonly Parsed[], files: Files): string[] {
  const found: string[] = [];
  for (const p of parsed) {
    for (const lit of p.literals.get(name) ?? []) {
      const def = definitionOf(lit);
      if (!def) continue;
      found.push(p.path, ...calledFiles(def, p, files, isCheckSource));
    }
  }
  return [...new Set(found)];
}

export interface CheckLike {
  id: string;
  suite: string;
  requirements: readonly string[];
  partial?: readonly string[];
}

/** every check's sources; a check whose name no file spells is listed under its suite's checks.ts */
export function checkSources(root: string, checks: readonly CheckLike[]): CheckSource[] {
  const bySuite = new Map<string, Parsed[]>();
  const all = filesUnder(root);
  const parsedOf = (suite: string): Parsed[] => {
    const dir = `suites/${suite}`;
    const known = bySuite.get(suite) ?? tsFiles(root, dir).map((f) => all.get(f)!);
    bySuite.set(suite, known);
    return known;
  };
  return checks.map((c) => {
    const dir = `suites/${c.suite}`;
    const files = filesOfCheck(c.id.slice(c.suite.length + 1), parsedOf(c.suite), all);
    return {
      id: c.id,
      requirements: c.requirements,
      partial: c.partial ?? [],
      files: files.length ? files : [`${dir}/checks.ts`],
    };
  });
}

/** the top-level statement around a node */
function topLevel(n: ts.Node): ts.Node {
  let at = n;
  while (at.parent && !ts.isSourceFile(at.parent)) at = at.parent;
  return at;
}

/**
 * the partner judges: each requirement id spelled in a judge-*.ts file under lib/partner (but the shared base), with
 * the judge files the functions that spell it call
 */
export function judgeSources(root: string, ids: readonly string[]): JudgeSource[] {
  const isJudge = (f: string): boolean => /(^|\/)judge-[^/]+\.ts$/.test(f) && !f.endsWith('/judge-base.ts');
  const all = filesUnder(root);
  const judges = tsFiles(root, 'lib/partner')
    .filter(isJudge)
    .map((f) => all.get(f)!);
  return ids.flatMap((id) => {
    const files = judges.flatMap((p) =>
      (p.literals.get(id) ?? []).flatMap((lit) => [p.path, ...calledFiles(topLevel(lit), p, all, isJudge)]),
    );
    return files.length ? [{ requirement: id, files: [...new Set(files)] }] : [];
  });
}
