/**
 * JUnit XML for CI (Jenkins, GitLab, GitHub reporters), valid against the Jenkins xUnit junit-10.xsd
 * (test/fixtures/junit-10.xsd). One <testsuite> per profile × suite, one <testcase> per check result;
 * the testcase name starts with the requirement ids so that a CI page is searchable by id.
 *
 *   fail, unexpected-pass (and warn with --fail-on should)         -> <failure message type=verdict>
 *   error (the harness failed while checking: not the target)      -> <error message type="error">, counted in errors
 *   warn                                                          -> passes, <system-out> with the warning
 *   not-applicable, not-run, inconclusive, expected-fail          -> <skipped message="verdict: reason">
 *   profile run errors (configuration/harness)                    -> a "<profile> / run" suite with <error>
 *
 * The schema refuses <properties> inside <testcase>, so none are written there.
 *
 * GitLab's parser (lib/gitlab/ci/parsers/test/junit.rb) reads a testcase's `name`, `classname`, `time` and `file`,
 * and shows the TEXT of its <failure>, <error> or <skipped> (never the message attribute; a passed case's
 * <system-out> is not shown): so that text starts with the reason, then the details. No `file` is written: a
 * check's source is not in the repository of the bank's pipeline.
 */
import { breaksRule } from '../engine/verdict.ts';
import type { CheckResult, RecordedExchange, RunResults } from '../engine/results.ts';
import { VERDICT_LABEL, bySuite } from './summary.ts';
import { escapeAttr, escapeText, truncate } from './text.ts';
import { junitProperties } from './openapi.ts';
import { failureLines } from '../engine/failure.ts';

const seconds = (ms: number): string => (Math.max(0, ms) / 1000).toFixed(3);

function exchangeLine(x: RecordedExchange): string {
  const outcome = x.response ? `HTTP ${x.response.status}` : `no response${x.error ? ` (${x.error})` : ''}`;
  return `${x.label ? `${x.label}: ` : ''}${x.method} ${x.url} -> ${outcome} (${Math.round(x.durationMs)} ms)`;
}

/**
 * Plain-text account of a result: the headline (its reason) first, then expected, observed, its failure records (one
 * line each: kind, title, the ids it breaks, the message, the exchange it came from), the evidence in brief.
 */
function details(r: CheckResult, headline: string): string {
  const lines: string[] = [headline, ''];
  lines.push(`check: ${r.checkId} (${r.level}; ${r.requirements.join(', ')})`);
  lines.push(`verdict: ${VERDICT_LABEL[r.verdict]}`);
  if (r.waived !== undefined) lines.push(`waived by the profile: ${r.waived}`);
  if (r.expected !== undefined) lines.push(`expected: ${r.expected}`);
  if (r.observed !== undefined) lines.push(`observed: ${r.observed}`);
  lines.push(...failureLines(r));
  for (const x of r.evidence.exchanges) lines.push(`exchange: ${exchangeLine(x)}`);
  for (const t of r.evidence.tls) lines.push(`tls: ${t.label}: ${t.outcome}`);
  for (const n of r.evidence.notes) lines.push(`note: ${n}`);
  return lines.join('\n');
}

function testcase(r: CheckResult, classname: string, failOn: 'must' | 'should'): string {
  const name = `${r.requirements.join(' ')} ${r.title}`.trim();
  const open = `    <testcase name="${escapeAttr(name)}" classname="${escapeAttr(classname)}" time="${seconds(r.durationMs)}">`;
  const label = VERDICT_LABEL[r.verdict];
  let body: string;
  if (breaksRule(r, failOn) || r.verdict === 'error') {
    const message = truncate(
      r.reason ?? (r.expected !== undefined ? `expected ${r.expected}, observed ${r.observed ?? '(nothing)'}` : label),
      500,
    );
    const tag = r.verdict === 'error' ? 'error' : 'failure';
    body = `      <${tag} message="${escapeAttr(message)}" type="${escapeAttr(r.verdict)}">${escapeText(details(r, r.reason ?? message))}</${tag}>`;
  } else if (r.verdict === 'warn') {
    body = `      <system-out>${escapeText(details(r, `WARNING (${r.level}, does not fail the run): ${r.reason ?? ''}`))}</system-out>`;
  } else if (r.verdict === 'pass') {
    return `    <testcase name="${escapeAttr(name)}" classname="${escapeAttr(classname)}" time="${seconds(r.durationMs)}"/>`;
  } else {
    const waived = r.waived !== undefined ? ` (waived: ${r.waived})` : '';
    const headline = `${label}: ${r.reason ?? 'no reason given'}${waived}`;
    body = `      <skipped message="${escapeAttr(truncate(headline, 500))}" type="${escapeAttr(r.verdict)}">${escapeText(details(r, headline))}</skipped>`;
  }
  return `${open}\n${body}\n    </testcase>`;
}

export function toJunitXml(results: RunResults): string {
  const { failOn } = results.options;
  const suites: string[] = [];
  let tests = 0;
  let failures = 0;
  let errors = 0;
  let totalMs = 0;
  for (const run of results.profiles) {
    totalMs += run.durationMs;
    for (const [suite, list] of bySuite(run.results)) {
      const f = list.filter((r) => breaksRule(r, failOn)).length;
      const e = list.filter((r) => r.verdict === 'error').length;
      const skipped = list.filter((r) =>
        ['not-applicable', 'not-run', 'inconclusive', 'expected-fail'].includes(r.verdict),
      ).length;
      const ms = list.reduce((s, r) => s + r.durationMs, 0);
      tests += list.length;
      failures += f;
      errors += e;
      const classname = `${run.profile}.${suite}`;
      suites.push(
        `  <testsuite name="${escapeAttr(`${run.profile} / ${suite}`)}" tests="${list.length}" failures="${f}" errors="${e}" skipped="${skipped}" time="${seconds(ms)}" timestamp="${escapeAttr(run.startedAt)}">\n` +
          // the OpenAPI coverage table as the openapi suite's properties (lib/report/openapi.ts)
          (suite === 'openapi' ? junitProperties(run) : '') +
          list.map((r) => testcase(r, classname, failOn)).join('\n') +
          '\n  </testsuite>',
      );
    }
    if (run.errors.length > 0) {
      // A configuration or harness error that stopped part of a run must not look green in CI.
      tests += run.errors.length;
      errors += run.errors.length;
      suites.push(
        `  <testsuite name="${escapeAttr(`${run.profile} / run`)}" tests="${run.errors.length}" failures="0" errors="${run.errors.length}" skipped="0" time="0.000" timestamp="${escapeAttr(run.startedAt)}">\n` +
          run.errors
            .map(
              (e, i) =>
                `    <testcase name="${escapeAttr(`run error ${i + 1}`)}" classname="${escapeAttr(`${run.profile}.run`)}" time="0.000">\n` +
                `      <error message="${escapeAttr(truncate(e, 500))}" type="run-error">${escapeText(e)}</error>\n    </testcase>`,
            )
            .join('\n') +
          '\n  </testsuite>',
      );
    }
  }
  const head = `<testsuites name="${escapeAttr(results.harness.name)}" tests="${tests}" failures="${failures}" errors="${errors}" time="${seconds(totalMs)}">`;
  return `<?xml version="1.0" encoding="UTF-8"?>\n${head}\n${suites.join('\n')}${suites.length ? '\n' : ''}</testsuites>\n`;
}
