/**
 * Per-check coverage of the fault matrix: every case (clean or fault, per environment) records which checks caught
 * it (and how) and which applied; the matrix project's global teardown (global-setup.ts) gathers the shards' records, writes
 * the table to .tmp/fault-coverage.md and fails the run when, after a full matrix, a check that applies somewhere
 * was never made to fail by any fault. (Per check id, not per requirement id: a requirement with several checks
 * needs a fault for each.)
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { shownFailures, type Failure } from '../../lib/engine/failure.ts';
import { FAULTS } from '../../lib/mock/faults.ts';
import { ROOT as root } from '../../lib/root.ts';
import type { OtherReason } from './judge.ts';

export const COVERAGE_DIR = join(root, '.tmp', 'fault-coverage');
export const COVERAGE_TABLE = join(root, '.tmp', 'fault-coverage.md');

/** how a check caught a fault: its verdict and reason, and the kinds of its failure records (recordTags) */
export interface Catch {
  check: string;
  verdict: string;
  reason: string;
  /** each kind of record shown (lib/engine/failure.ts shownFailures), with the ids it breaks and how many */
  records?: string[];
}

/**
 * a result's failure records in short, one tag per kind and ids: "negative-accepted ×2", "status {JOSE-05}"; none
 * for a lone generic record that only repeats the reason
 */
export function recordTags(r: { failures?: readonly Failure[] | undefined }): string[] {
  const counts = new Map<string, number>();
  for (const f of shownFailures(r)) {
    const tag = `${f.kind}${f.requirements ? ` {${f.requirements.join(' ')}}` : ''}`;
    counts.set(tag, (counts.get(tag) ?? 0) + 1);
  }
  return [...counts].map(([tag, n]) => (n > 1 ? `${tag} ×${n}` : tag));
}

/**
 * The verdicts that catch a fault: a MUST that fails, a SHOULD that warns, a known deviation that now holds. An
 * `error` is the harness's own defect (certify calls it INCOMPLETE, not FAIL), never a catch; nor is inconclusive.
 */
export const CATCHES: ReadonlySet<string> = new Set(['fail', 'warn', 'unexpected-pass']);

/** the checks of a case's results that caught its fault (CATCHES), with their verdict and reason */
export function catchesOf(
  results: readonly {
    checkId: string;
    verdict: string;
    reason?: string | undefined;
    failures?: readonly Failure[] | undefined;
  }[],
): Catch[] {
  return results
    .filter((r) => CATCHES.has(r.verdict))
    .map((r) => {
      const records = recordTags(r);
      return { check: r.checkId, verdict: r.verdict, reason: r.reason ?? '', ...(records.length ? { records } : {}) };
    });
}

export interface CaseRecord {
  /** fault id, or "clean" */
  fault: string;
  env: string;
  /** checks that failed, warned or passed against a known deviation (CATCHES), with how */
  caught: Catch[];
  /** checks that applied (anything but not-applicable) */
  applicable: string[];
  /** property checks (lib/engine/property/property.ts) among those that applied */
  properties?: string[];
  /** checks of the fault's own ids that applied and did not catch it (the fixed-input checks a property outdid) */
  missed?: string[];
  /** the checks that caught the fault as test/matrix/expected.ts expects (judge.ts); none in a clean case */
  matched: string[];
  /** checks of the fault's ids that caught it, but not as expected: another check, or another reason */
  otherReason?: OtherReason[];
}

/** the number of cases a full matrix runs: the clean mock and each fault, per environment */
export const FULL_MATRIX_CASES = 2 + FAULTS.reduce((n, f) => n + f.environments.length, 0);

export function resetCoverage(): void {
  rmSync(COVERAGE_DIR, { recursive: true, force: true });
  mkdirSync(COVERAGE_DIR, { recursive: true });
}

export function recordCase(r: CaseRecord): void {
  mkdirSync(COVERAGE_DIR, { recursive: true });
  writeFileSync(join(COVERAGE_DIR, `${r.fault}--${r.env}.json`), JSON.stringify(r));
}

export function readCases(): CaseRecord[] {
  let names: string[];
  try {
    names = readdirSync(COVERAGE_DIR).filter((n) => n.endsWith('.json'));
  } catch {
    return [];
  }
  return names.map((n) => JSON.parse(readFileSync(join(COVERAGE_DIR, n), 'utf8')) as CaseRecord);
}

/** a catch's verdict, its records' kinds, and its reason, clipped, no table breaks */
function verdictOf(k: Catch): string {
  const reason = k.reason.replace(/\s+/g, ' ').replace(/\|/g, '\\|');
  const records = k.records?.length ? ` [${k.records.join(', ')}]` : '';
  return `${k.verdict}${records}: ${reason.length > 140 ? `${reason.slice(0, 139)}…` : reason}`;
}

/** one line of the table: the fault, its mode, the verdict it gave and why */
function how(c: CaseRecord, k: Catch): string {
  return `${c.fault} (${c.env}): ${verdictOf(k)}`;
}

/**
 * per check: the faults (fault (env): verdict: reason) under which it failed; the checks that applied and that no
 * fault made fail as expected (expected.ts: the check, for the fault's reason)
 */
export function coverage(cases: readonly CaseRecord[]): { table: Map<string, string[]>; uncovered: string[] } {
  const table = new Map<string, string[]>();
  const applicable = new Set<string>();
  const asExpected = new Set<string>();
  for (const c of cases) {
    for (const id of c.applicable) {
      applicable.add(id);
      if (!table.has(id)) table.set(id, []);
    }
    if (c.fault === 'clean') continue;
    for (const k of c.caught) table.set(k.check, [...(table.get(k.check) ?? []), how(c, k)]);
    for (const id of c.matched) asExpected.add(id);
  }
  const uncovered = [...applicable].filter((id) => !asExpected.has(id)).sort();
  return { table, uncovered };
}

export function writeCoverageTable(cases: readonly CaseRecord[], full: boolean): string[] {
  const { table, uncovered } = coverage(cases);
  const rows = [...table.entries()].sort(([a], [b]) => a.localeCompare(b));
  const md = [
    '# Fault coverage per check (generated by the fault matrix)',
    '',
    full
      ? `Full matrix: ${cases.length} cases. Checks never made to fail as expected: ${uncovered.length}.`
      : `Partial run (${cases.length} of ${FULL_MATRIX_CASES} cases): the table is incomplete and not enforced.`,
    '',
    'A fault counts as caught by a check only when the check ends `fail`, `warn` (a SHOULD) or `unexpected-pass`;',
    'an `error` is a defect of the harness, never a catch. Each fault is listed with the verdict and reason it gave,',
    'and in brackets the kinds of its failure records (with the ids a record breaks when fewer than its check names).',
    'A check counts as made to fail when it caught some fault as test/matrix/expected.ts expects (that check, a reason',
    'holding the fragment).',
    '',
    '| check | faults that fail it (fault (mode): verdict: reason) |',
    '|---|---|',
    ...rows.map(([id, faults]) => `| ${id} | ${faults.length ? faults.join('<br>') : '**none**'} |`),
    '',
    ...otherReasonSection(cases),
    ...propertySection(cases),
  ].join('\n');
  mkdirSync(join(root, '.tmp'), { recursive: true });
  writeFileSync(COVERAGE_TABLE, md);
  return uncovered;
}

/**
 * The faults a property check caught while the fixed-input checks of the same ids missed them (docs/properties.md): the
 * reason a property check exists, shown per case.
 */
export function propertyCatches(
  cases: readonly CaseRecord[],
): { fault: string; property: Catch[]; missed: string[] }[] {
  return cases
    .filter((c) => c.fault !== 'clean')
    .map((c) => ({
      fault: `${c.fault} (${c.env})`,
      property: c.caught.filter((k) => c.properties?.includes(k.check)),
      missed: (c.missed ?? []).filter((id) => !c.properties?.includes(id)),
    }))
    .filter((r) => r.property.length > 0 && r.missed.length > 0)
    .sort((a, b) => a.fault.localeCompare(b.fault));
}

function propertySection(cases: readonly CaseRecord[]): string[] {
  const rows = propertyCatches(cases);
  if (rows.length === 0) return [];
  return [
    '## Caught by a property check, missed by the fixed-input checks',
    '',
    '| fault (mode) | property check: verdict: reason | fixed-input checks of the same ids that passed |',
    '|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.fault} | ${r.property.map((k) => `${k.check}: ${verdictOf(k)}`).join('<br>')} | ${r.missed.join('<br>')} |`,
    ),
    '',
  ];
}

/** the fault cases a check of the fault's ids caught otherwise than expected.ts expects, one row per catch */
export function otherReasons(cases: readonly CaseRecord[]): { fault: string; catch: OtherReason }[] {
  return cases
    .filter((c) => c.fault !== 'clean')
    .flatMap((c) => (c.otherReason ?? []).map((k) => ({ fault: `${c.fault} (${c.env})`, catch: k })))
    .sort((a, b) => a.fault.localeCompare(b.fault) || a.catch.check.localeCompare(b.catch.check));
}

function otherReasonSection(cases: readonly CaseRecord[]): string[] {
  const rows = otherReasons(cases);
  return [
    '## Caught for another reason',
    '',
    "A check of the fault's ids failed (or warned) under it, but it is not the check test/matrix/expected.ts names",
    'for the fault, or its reason does not hold the expected fragment.',
    '',
    ...(rows.length === 0
      ? ['None.', '']
      : [
          '| fault (mode) | check: verdict: reason | expected fragment |',
          '|---|---|---|',
          ...rows.map(
            (r) =>
              `| ${r.fault} | ${r.catch.check}: ${verdictOf(r.catch)} | ${r.catch.expected === undefined ? '(not an expected check)' : cell(r.catch.expected)} |`,
          ),
          '',
        ]),
  ];
}

const cell = (s: string): string => s.replace(/\|/g, '\\|');
