/**
 * Where each check and each partner judge lives, read from the sources (TypeScript's parser, no code run): the
 * input of lib/catalogue/requirements-table.ts. A check `<suite>.<name>` is defined in the file of suites/<suite>/
 * that spells its name as a string literal (a spec `{ name: '…' }`, as each of jose's family files holds one, or a
 * builder call); the functions that definition calls, imported from its own suite's files, name the files where its
 * requests are built and its verdict judged. A client-side id is judged in the lib/partner judge-*.ts files that spell it. Folders
 * are read with their subfolders, so that the table follows files that move.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
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

/** relative imports of a source file: local name → the imported file's path from the project root */
function importsOf(path: string, file: ts.SourceFile): Map<string, string> {
  const names = new Map<string, string>();
  for (const st of file.statements) {
    if (!ts.isImportDeclaration(st) || !ts.isStringLiteral(st.moduleSpecifier)) continue;
    const from = st.moduleSpecifier.text;
    if (!from.startsWith('.')) continue;
    const target = posix.join(posix.dirname(path), from);
    const bindings = st.importClause?.namedBindings;
    if (bindings && ts.isNamedImports(bindings)) for (const el of bindings.elements) names.set(el.name.text, target);
  }
  return names;
}

/** top-level functions and constants of a source file, by name */
function declarationsOf(file: ts.SourceFile): Map<string, ts.Node> {
  const decls = new Map<string, ts.Node>();
  for (const st of file.statements) {
    if (ts.isFunctionDeclaration(st) && st.name) decls.set(st.name.text, st);
    if (ts.isVariableStatement(st))
      for (const d of st.declarationList.declarations) if (ts.isIdentifier(d.name)) decls.set(d.name.text, d);
  }
  return decls;
}

/**
 * the imported files whose functions a definition calls, directly or through the file's own top-level functions
 * (each followed once), in order of first use
 */
function calledFiles(def: ts.Node, p: Parsed): string[] {
  const files: string[] = [];
  const followed = new Set<ts.Node>([def]);
  const visit = (n: ts.Node): void => {
    if (ts.isIdentifier(n)) {
      const from = p.imports.get(n.text);
      if (from) files.push(from);
      const local = p.declarations.get(n.text);
      if (local && !followed.has(local)) {
        followed.add(local);
        visit(local);
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(def);
  return files;
}

interface Parsed {
  path: string;
  file: ts.SourceFile;
  imports: Map<string, string>;
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

/** the files of one check: its definition's, then the ones it calls (in order of first use) */
function filesOfCheck(name: string, parsed: readonly Parsed[], dir: string): string[] {
  const inSuite = (f: string): boolean => f.startsWith(`${dir}/`);
  const files: string[] = [];
  for (const p of parsed) {
    for (const lit of p.literals.get(name) ?? []) {
      const def = definitionOf(lit);
      if (!def) continue;
      files.push(p.path, ...calledFiles(def, p).filter(inSuite));
    }
  }
  return [...new Set(files)];
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
  const parsedOf = (suite: string): Parsed[] => {
    const dir = `suites/${suite}`;
    const known = bySuite.get(suite) ?? tsFiles(root, dir).map((f) => parse(root, f));
    bySuite.set(suite, known);
    return known;
  };
  return checks.map((c) => {
    const dir = `suites/${c.suite}`;
    const files = filesOfCheck(c.id.slice(c.suite.length + 1), parsedOf(c.suite), dir);
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
  const judges = tsFiles(root, 'lib/partner')
    .filter(isJudge)
    .map((f) => parse(root, f));
  return ids.flatMap((id) => {
    const files = judges.flatMap((p) =>
      (p.literals.get(id) ?? []).flatMap((lit) => [p.path, ...calledFiles(topLevel(lit), p).filter(isJudge)]),
    );
    return files.length ? [{ requirement: id, files: [...new Set(files)] }] : [];
  });
}
