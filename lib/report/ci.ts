/**
 * Where CI users look, without opening an artifact:
 *  - GitHub Actions' step summary (GITHUB_STEP_SUMMARY, Markdown appended to the job's page): the overall verdict,
 *    per-profile counts, what failed and what was not verified, each with its reason (the HTML report's first
 *    screen);
 *  - GitHub Actions' workflow commands (GITHUB_ACTIONS=true): one `::error title=<id>::<reason>` per broken MUST
 *    (and unexpected pass), one `::warning` per broken SHOULD, listed on the run's page.
 * Where a result carries failure records (lib/engine/failure.ts) worth showing, both read their fields: the summary
 * lists each under its entry (kind, title, ids, message, expected and observed, exchange), and each record is an
 * annotation of its own, titled with the ids it breaks (at most MAX_RECORDS a result, the rest counted).
 * Everything here comes from results, which are redacted; a target's text is escaped for Markdown and for the
 * workflow-command syntax (a reason cannot start a command of its own).
 */
import { breaksRule, profileVerdict, runVerdict, unverified } from '../engine/verdict.ts';
import type { CheckResult, RunResults } from '../engine/results.ts';
import { failureLine, shownFailures, type Failure } from '../engine/failure.ts';
import { VERDICT_LABEL, countVerdicts } from './summary.ts';

/** the records shown per result, in the summary and as annotations */
const MAX_RECORDS = 5;

/** one line of Markdown text: no line breaks, no markup a target could inject (tables, links, HTML) */
export function mdText(s: string): string {
  return s
    .replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/([\\`*_{}[\]()#+!|~])/g, '\\$1');
}

const reasonOf = (r: CheckResult): string =>
  r.reason ??
  (r.expected !== undefined ? `expected ${r.expected}, observed ${r.observed ?? '(nothing)'}` : 'no reason recorded');

interface Entry {
  profile: string;
  r: CheckResult;
}

function entries(results: RunResults): { failed: Entry[]; open: Entry[]; waived: Entry[] } {
  const { failOn } = results.options;
  const all = results.profiles.flatMap((p) => p.results.map((r) => ({ profile: p.profile, r })));
  return {
    failed: all.filter(({ r }) => breaksRule(r, failOn)),
    open: all.filter(({ r }) => unverified(r, failOn)),
    waived: all.filter(({ r }) => r.waived !== undefined),
  };
}

/** a record in one line with what was expected and observed: "[kind] title {ids}: message (exchange n) (expected E, observed O)" */
export function recordText(f: Failure): string {
  return `${failureLine(f)}${eoOf(f)}`;
}

/** the records shown of a result, at most MAX_RECORDS, and how many more there are */
function recordsOf(r: CheckResult): { shown: readonly Failure[]; more: number } {
  const all = shownFailures(r);
  return { shown: all.slice(0, MAX_RECORDS), more: Math.max(0, all.length - MAX_RECORDS) };
}

const item = ({ profile, r }: Entry): string => {
  const head =
    `- **${mdText((r.failed ?? r.requirements).join(' ') || r.checkId)}** ${mdText(VERDICT_LABEL[r.verdict])} (${mdText(profile)}): ` +
    `${mdText(reasonOf(r))}${r.waived !== undefined ? ` — waived: ${mdText(r.waived)}` : ''} — _${mdText(r.title)}_ ` +
    `\`${r.checkId.replace(/`/g, "'")}\``;
  const { shown, more } = recordsOf(r);
  const lines = shown.map((f) => `  - ${mdText(recordText(f))}`);
  if (more > 0) lines.push(`  - ${more} more failure record${more > 1 ? 's' : ''} in results.json`);
  return [head, ...lines].join('\n');
};

/** the step summary: Markdown, the same content as the HTML report's first screen */
export function stepSummary(results: RunResults): string {
  const { failOn } = results.options;
  const out = [`## Conformance certification: ${runVerdict(results)}`, ''];
  if (results.interrupted)
    out.push(`Interrupted by ${results.interrupted.signal}: these results are what was verified until then.`, '');
  out.push(
    '| profile | environment | verdict | passed | failed | warnings | not run | inconclusive | harness errors | n/a |',
    '| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  );
  for (const p of results.profiles) {
    const c = countVerdicts(p.results);
    out.push(
      `| ${mdText(p.profile)} | ${p.environment} | **${profileVerdict(p, failOn)}** | ${c.pass} | ${c.fail + c['unexpected-pass']} | ${c.warn} | ${c['not-run']} | ${c.inconclusive} | ${c.error} | ${c['not-applicable']} |`,
    );
  }
  const problems: string[] = [];
  for (const p of results.profiles) {
    if (p.unreachable) problems.push(`- **${mdText(p.profile)}**: target unreachable: ${mdText(p.unreachable)}`);
    for (const q of p.prerequisites ?? [])
      if (q.verdict === 'fail')
        problems.push(`- **${mdText(p.profile)}**: fix first: prerequisite ${q.id} failed: ${mdText(q.reason ?? '')}`);
    for (const e of p.errors) problems.push(`- **${mdText(p.profile)}**: run error: ${mdText(e)}`);
  }
  if (problems.length) out.push('', '### Fix first', '', ...problems);
  const { failed, open, waived } = entries(results);
  if (failed.length) out.push('', `### What failed (${failed.length})`, '', ...failed.map(item));
  if (open.length) out.push('', `### Not verified (${open.length}): the verdict cannot be PASS`, '', ...open.map(item));
  if (waived.length) out.push('', `### Waived by the profile (${waived.length})`, '', ...waived.map(item));
  return `${out.join('\n')}\n\n`;
}

/** a record's expected and observed, when it states them */
function eoOf(f: Failure): string {
  if (f.expected === undefined && f.observed === undefined) return '';
  return ` (expected ${f.expected ?? '(not stated)'}, observed ${f.observed ?? '(not stated)'})`;
}

/** workflow-command escaping (GitHub's toolkit): the message, and a property value (also ':' and ',') */
const escapeData = (s: string): string => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const escapeProperty = (s: string): string => escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

/** one annotation per broken rule: ::error for a MUST (or an unexpected pass), ::warning for a SHOULD */
export function annotations(results: RunResults): string[] {
  const lines: string[] = [];
  for (const p of results.profiles)
    for (const r of p.results) {
      const broken = breaksRule(r, results.options.failOn) || r.verdict === 'warn';
      if (!broken) continue;
      const kind = r.level === 'MUST' || r.verdict === 'unexpected-pass' ? 'error' : 'warning';
      const id = (r.failed ?? r.requirements).join(' ') || r.checkId;
      const where = ` (${p.profile}, ${r.checkId}: ${r.title})`;
      const { shown, more } = recordsOf(r);
      if (shown.length === 0) lines.push(`::${kind} title=${escapeProperty(id)}::${escapeData(reasonOf(r) + where)}`);
      for (const [i, f] of shown.entries()) {
        const rest = i === shown.length - 1 && more > 0 ? ` (and ${more} more in results.json)` : '';
        const ids = f.requirements?.join(' ') ?? id;
        const message = `${f.title}: ${f.message}${eoOf(f)}${rest}${where}`;
        lines.push(`::${kind} title=${escapeProperty(ids)}::${escapeData(message)}`);
      }
    }
  return lines;
}
