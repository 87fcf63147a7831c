/**
 * Release-to-release comparison of two results files, keyed by profile + checkId.
 * The categories are disjoint:
 *   newFailures  failing in b, and absent or not failing in a (a new check that fails counts here)
 *   fixed        failing in a, present and not failing in b
 *   changed      present in both, verdict differs, neither of the above (e.g. pass -> not-run)
 *   added        only in b, not failing
 *   removed      only in a
 * "Failing" follows isFailing with b's --fail-on (or the one given).
 */
import { isFailing } from '../../engine/results.ts';
import type { CheckResult, RunResults, Verdict } from '../../engine/results.ts';
import { VERDICT_LABEL } from '../summary.ts';

export interface ComparedCheck {
  profile: string;
  checkId: string;
  title: string;
  requirements: string[];
  before?: Verdict;
  after?: Verdict;
  /** b's reason when present, else a's */
  reason?: string;
}
export interface Comparison {
  newFailures: ComparedCheck[];
  fixed: ComparedCheck[];
  changed: ComparedCheck[];
  added: ComparedCheck[];
  removed: ComparedCheck[];
  /** the two runs are not like for like (other profiles, targets, environments, catalogue, filters): said first */
  warnings: string[];
}

const same = (x: unknown, y: unknown): boolean => JSON.stringify(x) === JSON.stringify(y);

/** why the two runs may not compare like for like */
export function mismatches(a: RunResults, b: RunResults): string[] {
  const out: string[] = [];
  const names = (r: RunResults): string[] => r.profiles.map((p) => p.profile);
  const onlyA = names(a).filter((n) => !names(b).includes(n));
  const onlyB = names(b).filter((n) => !names(a).includes(n));
  if (onlyA.length || onlyB.length)
    out.push(
      `the runs certified different profiles (before: ${names(a).join(', ') || 'none'}; after: ${names(b).join(', ') || 'none'}): the checks of ${[...onlyA, ...onlyB].join(', ')} show as removed or added, not as changes`,
    );
  for (const pb of b.profiles) {
    const pa = a.profiles.find((p) => p.profile === pb.profile);
    if (!pa) continue;
    if (pa.environment !== pb.environment)
      out.push(`profile ${pb.profile}: environment ${pa.environment} before, ${pb.environment} after`);
    if (pa.target.baseUrl !== pb.target.baseUrl)
      out.push(`profile ${pb.profile}: target ${pa.target.baseUrl} before, ${pb.target.baseUrl} after`);
    if (!same(pa.target.faults, pb.target.faults))
      out.push(
        `profile ${pb.profile}: mock faults [${pa.target.faults.join(', ')}] before, [${pb.target.faults.join(', ')}] after`,
      );
  }
  if (a.catalogueVersion !== b.catalogueVersion)
    out.push(`requirement catalogue ${a.catalogueVersion} before, ${b.catalogueVersion} after`);
  if (!same(a.options.filters, b.options.filters))
    out.push(
      `the runs used different filters (before ${JSON.stringify(a.options.filters)}, after ${JSON.stringify(b.options.filters)})`,
    );
  if (a.options.destructive !== b.options.destructive || a.options.long !== b.options.long)
    out.push('the runs used different --long / --destructive options');
  return out;
}

function index(r: RunResults): Map<string, { profile: string; result: CheckResult }> {
  const m = new Map<string, { profile: string; result: CheckResult }>();
  for (const p of r.profiles)
    for (const result of p.results) m.set(`${p.profile}\u0000${result.checkId}`, { profile: p.profile, result });
  return m;
}

export function compareResults(a: RunResults, b: RunResults, opts: { failOn?: 'must' | 'should' } = {}): Comparison {
  const failOn = opts.failOn ?? b.options.failOn;
  const ia = index(a);
  const ib = index(b);
  const out: Comparison = {
    newFailures: [],
    fixed: [],
    changed: [],
    added: [],
    removed: [],
    warnings: mismatches(a, b),
  };
  for (const [key, { profile, result: rb }] of ib) {
    const ra = ia.get(key)?.result;
    const entry: ComparedCheck = {
      profile,
      checkId: rb.checkId,
      title: rb.title,
      requirements: rb.requirements,
      after: rb.verdict,
    };
    if (ra) entry.before = ra.verdict;
    const reason = rb.reason ?? ra?.reason;
    if (reason !== undefined) entry.reason = reason;
    const failsB = isFailing(rb.verdict, failOn);
    const failsA = ra ? isFailing(ra.verdict, failOn) : false;
    if (failsB && !failsA) out.newFailures.push(entry);
    else if (!ra) out.added.push(entry);
    else if (failsA && !failsB) out.fixed.push(entry);
    else if (ra.verdict !== rb.verdict) out.changed.push(entry);
  }
  for (const [key, { profile, result: ra }] of ia) {
    if (ib.has(key)) continue;
    const entry: ComparedCheck = {
      profile,
      checkId: ra.checkId,
      title: ra.title,
      requirements: ra.requirements,
      before: ra.verdict,
    };
    if (ra.reason !== undefined) entry.reason = ra.reason;
    out.removed.push(entry);
  }
  return out;
}

const v = (x?: Verdict): string => (x ? VERDICT_LABEL[x] : 'absent');

export function renderComparison(c: Comparison): string {
  const sections: [string, ComparedCheck[]][] = [
    ['New failures', c.newFailures],
    ['Fixed', c.fixed],
    ['Changed verdicts', c.changed],
    ['Added checks', c.added],
    ['Removed checks', c.removed],
  ];
  const lines: string[] = c.warnings.map((w) => `Warning: ${w}`);
  for (const [name, list] of sections) {
    lines.push(`${name}: ${list.length}`);
    for (const e of list) {
      lines.push(
        `  ${e.profile} ${e.checkId} [${e.requirements.join(' ')}] ${v(e.before)} -> ${v(e.after)}: ${e.title}`,
      );
      if (e.reason && (name === 'New failures' || name === 'Changed verdicts')) lines.push(`      ${e.reason}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
