/**
 * Live progress for `certify`. Checks of several suites, and of several profiles, finish interleaved (they run
 * concurrently), so every line names its profile and suite, and a suite's summary line is printed when its last
 * check is done.
 *  - On a terminal: one status line (checks done per profile) rewritten in place; problems and finished suites
 *    are printed above it as they happen; passes only move the counters.
 *  - Elsewhere (CI logs, pipes): plain lines only, no control characters, grouped by profile: a profile's checks are
 *    printed together when it is done (by suite, then requirement id, the verdict column aligned, each line at
 *    most LINE_MAX characters), with a "n/N checks done" line at most every HEARTBEAT_MS meanwhile, so that two
 *    profiles running side by side never interleave their lines.
 * At the end of each profile, its one-line summary (lib/report/summary.ts summaryLine). Reasons printed here come
 * from results, which are redacted. failureLines() lists what failed, for the end of the log.
 */
import type { CheckResult, RunResults, Verdict } from '../engine/results.ts';
import { breaksRule, profileVerdict, runVerdict, unverified } from '../engine/verdict.ts';
import { VERDICTS, VERDICT_LABEL } from '../report/summary.ts';

/** no console line is longer (a reason quoting a target's answer is cut, with "…") */
export const LINE_MAX = 160;
const HEARTBEAT_MS = 30_000;
const bound = (s: string): string => (s.length > LINE_MAX ? `${s.slice(0, LINE_MAX - 1)}…` : s);
const byRequirement = (a: CheckResult, b: CheckResult): number =>
  a.suite.localeCompare(b.suite) ||
  (a.requirements[0] ?? '').localeCompare(b.requirements[0] ?? '', 'en', { numeric: true }) ||
  a.checkId.localeCompare(b.checkId);

export interface ProgressStream {
  write(chunk: string): unknown;
}
export interface Progress {
  /** the checks a profile will report, per suite (a suite's line is printed when all of them are done) */
  profileStarted(profile: string, perSuite: Readonly<Record<string, number>>): void;
  checkDone(profile: string, result: CheckResult): void;
  profileDone(profile: string, summaryLine: string): void;
}

const PROBLEM: ReadonlySet<Verdict> = new Set(['fail', 'error', 'unexpected-pass', 'warn', 'inconclusive']);
const COLOR: Partial<Record<Verdict, string>> = {
  pass: '32',
  fail: '31',
  error: '31',
  'unexpected-pass': '31',
  warn: '33',
  inconclusive: '35',
};

/** Remove control characters so that a target cannot drive the terminal through a reason string. */
const clean = (s: string): string => s.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ');

const suitePrefix = (profile: string, suite: string): string => `  ${clean(profile)} / ${clean(suite).padEnd(12)} `;

interface SuiteCount {
  total: number;
  done: number;
  counts: Partial<Record<Verdict, number>>;
}

function suiteLine(profile: string, suite: string, c: SuiteCount): string {
  const parts = VERDICTS.filter((v) => c.counts[v]).map((v) => `${c.counts[v]} ${VERDICT_LABEL[v]}`);
  return `${clean(profile)} / ${clean(suite)}: ${c.done}/${c.total} checks${parts.length ? ` (${parts.join(', ')})` : ''}`;
}

function count(running: Map<string, Map<string, SuiteCount>>, profile: string, r: CheckResult): SuiteCount {
  const suites = running.get(profile) ?? new Map<string, SuiteCount>();
  const c = suites.get(r.suite) ?? { total: 0, done: 0, counts: {} };
  c.done++;
  c.counts[r.verdict] = (c.counts[r.verdict] ?? 0) + 1;
  suites.set(r.suite, c);
  running.set(profile, suites);
  return c;
}

function suitesOf(perSuite: Readonly<Record<string, number>>): Map<string, SuiteCount> {
  return new Map(
    Object.entries(perSuite)
      .filter(([, n]) => n > 0)
      .map(([suite, total]) => [suite, { total, done: 0, counts: {} }]),
  );
}

/**
 * Wrap a line at LINE_MAX on spaces, never cutting it: continuation lines are indented under `indent` (a word longer
 * than a line is broken where it must be).
 */
export function wrap(line: string, indent: number): string[] {
  const pad = ' '.repeat(Math.min(indent, LINE_MAX / 2));
  const out: string[] = [];
  let rest = line;
  while (rest.length > LINE_MAX) {
    const cut = rest.lastIndexOf(' ', LINE_MAX);
    const at = cut > pad.length ? cut : LINE_MAX;
    out.push(rest.slice(0, at).trimEnd());
    rest = pad + rest.slice(at).trimStart();
  }
  out.push(rest);
  return out;
}

const IDS_WIDTH = 18;
const VERDICT_WIDTH = 16;

/**
 * one check as console lines: id (requirement ids), verdict, then for a problem the reason first and the check's
 * title after it, wrapped (never cut); a pass shows its title on one bounded line. The same text on a terminal and
 * in a pipe (a terminal may paint the verdict).
 */
function checkLines(r: CheckResult, prefix: string, paint: (v: Verdict, s: string) => string = (_, s) => s): string[] {
  const ids = clean(r.requirements.join(' ')).padEnd(IDS_WIDTH);
  const label = VERDICT_LABEL[r.verdict].padEnd(VERDICT_WIDTH);
  const head = `${prefix}${ids} ${label} `;
  const painted = `${prefix}${ids} ${paint(r.verdict, label)} `;
  if (r.verdict === 'pass' || r.verdict === 'not-applicable' || r.verdict === 'expected-fail')
    return [painted + bound(head + clean(r.title)).slice(head.length)];
  const reason = r.reason ? clean(r.reason) : 'no reason was recorded';
  const waived = r.waived !== undefined ? ` (waived: ${clean(r.waived)})` : '';
  const [first = '', ...more] = wrap(
    `${head}${reason}${waived} — ${clean(r.title)} [${clean(r.checkId)}]`,
    head.length,
  );
  return [painted + first.slice(head.length), ...more];
}

/** colour only on a terminal, and never when NO_COLOR or CI is set (https://no-color.org) */
export function colorAllowed(env: NodeJS.ProcessEnv = process.env): boolean {
  return !env.NO_COLOR && !env.CI;
}

export function createProgress(stream: ProgressStream, opts: { tty: boolean; color?: boolean }): Progress {
  return opts.tty ? terminalProgress(stream, opts.color ?? colorAllowed()) : plainProgress(stream);
}

/** a terminal: a live status line, problems and finished suites printed above it as they happen */
function terminalProgress(stream: ProgressStream, color: boolean): Progress {
  const paint = (v: Verdict, s: string): string => (color && COLOR[v] ? `\u001b[${COLOR[v]}m${s}\u001b[0m` : s);
  /** profile → suite → counts, for the profiles still running */
  const running = new Map<string, Map<string, SuiteCount>>();
  const status = (): string =>
    [...running]
      .map(([profile, suites]) => {
        const all = [...suites.values()];
        return `${clean(profile)}: ${all.reduce((s, c) => s + c.done, 0)}/${all.reduce((s, c) => s + c.total, 0)} checks`;
      })
      .join(' · ');
  const print = (lines: string[]): void => {
    stream.write(`\r\u001b[2K${lines.map((l) => `${l}\n`).join('')}${status()}`);
  };
  return {
    profileStarted(profile, perSuite) {
      running.set(profile, suitesOf(perSuite));
      print([]);
    },
    checkDone(profile, r) {
      const c = count(running, profile, r);
      const lines: string[] = [];
      // passes only move the counter; problems stay on screen
      if (PROBLEM.has(r.verdict)) lines.push(...checkLines(r, suitePrefix(profile, r.suite), paint));
      if (c.done >= c.total) lines.push(suiteLine(profile, r.suite, c));
      print(lines);
    },
    profileDone(profile, summaryLine) {
      const suites = running.get(profile);
      running.delete(profile);
      // suites whose count fell short (a check that never reported) still get their line
      const unfinished = [...(suites ?? [])]
        .filter(([, c]) => c.done < c.total)
        .map(([suite, c]) => suiteLine(profile, suite, c));
      print([...unfinished, clean(summaryLine)]);
    },
  };
}

/** a CI log or a pipe: a profile's lines together when it is done, a heartbeat meanwhile */
function plainProgress(stream: ProgressStream): Progress {
  const running = new Map<string, Map<string, SuiteCount>>();
  const results = new Map<string, CheckResult[]>();
  let lastBeat = Date.now();
  const print = (lines: string[]): void => void stream.write(lines.map((l) => `${l}\n`).join(''));
  return {
    profileStarted(profile, perSuite) {
      running.set(profile, suitesOf(perSuite));
      results.set(profile, []);
      print([
        `${clean(profile)}: started (${plural(
          Object.values(perSuite).reduce((s, n) => s + n, 0),
          'check',
        )})`,
      ]);
    },
    checkDone(profile, r) {
      count(running, profile, r);
      const list = results.get(profile) ?? [];
      list.push(r);
      results.set(profile, list);
      if (Date.now() - lastBeat < HEARTBEAT_MS) return;
      lastBeat = Date.now();
      print(
        [...running].map(([p, suites]) => {
          const all = [...suites.values()];
          return `${clean(p)}: ${all.reduce((n, c) => n + c.done, 0)}/${all.reduce((n, c) => n + c.total, 0)} checks done`;
        }),
      );
    },
    profileDone(profile, summaryLine) {
      const suites = running.get(profile) ?? new Map<string, SuiteCount>();
      const list = [...(results.get(profile) ?? [])].sort(byRequirement);
      running.delete(profile);
      results.delete(profile);
      const lines: string[] = [];
      for (const suite of [...new Set([...list.map((r) => r.suite), ...suites.keys()])].sort()) {
        for (const r of list.filter((x) => x.suite === suite))
          lines.push(...checkLines(r, suitePrefix(profile, suite)));
        const c = suites.get(suite);
        if (c) lines.push(suiteLine(profile, suite, c));
      }
      print([...lines, clean(summaryLine)]);
    },
  };
}

/** "1 check", "2 checks" */
export const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** after a run of several profiles, or an interrupted one: the run's verdict (the exit code's), with each profile's */
export function overallLine(results: RunResults): string | undefined {
  if (results.profiles.length < 2 && !results.interrupted) return undefined;
  const each = results.profiles.map((p) => `${clean(p.profile)} ${profileVerdict(p, results.options.failOn)}`);
  return `overall: ${runVerdict(results)} (${each.join(', ')})`;
}

/** the end of the log: every check that failed, every rule not verified, every waiver; one bounded line each */
export function failureLines(results: RunResults): string[] {
  const failOn = results.options.failOn;
  const all = results.profiles.flatMap((p) => p.results.map((r) => ({ p: p.profile, r })));
  const width = Math.max(0, ...results.profiles.map((p) => clean(p.profile).length));
  const line = ({ p, r }: { p: string; r: CheckResult }): string[] => checkLines(r, `  ${clean(p).padEnd(width)}  `);
  const failed = all.filter(({ r }) => breaksRule(r, failOn));
  // a check blocked by a failed prerequisite is explained by its 'fix first' line above, not listed again
  const open = all.filter(({ r }) => unverified(r, failOn) && r.blockedBy === undefined);
  const out: string[] = [];
  for (const p of results.profiles) {
    if (p.unreachable) out.push(...wrap(`${clean(p.profile)}: target unreachable: ${clean(p.unreachable)}`, 4));
    for (const e of p.errors) out.push(...wrap(`${clean(p.profile)}: run error: ${clean(e)}`, 4));
    // what to fix first: the failed prerequisites, with the number of checks they blocked
    for (const q of p.prerequisites ?? []) {
      if (q.verdict !== 'fail') continue;
      const blocked = p.results.filter((r) => r.blockedBy === q.id).length;
      out.push(
        ...wrap(
          `${clean(p.profile)}: fix first: prerequisite ${q.id} failed: ${clean(q.reason ?? '')} (${plural(blocked, 'check')} blocked)`,
          4,
        ),
      );
    }
  }
  if (failed.length) out.push(`Failed (${failed.length}):`, ...failed.flatMap(line));
  if (open.length) out.push(`Not verified (${open.length}):`, ...open.flatMap(line));
  const waived = all.filter(({ r }) => r.waived !== undefined);
  if (waived.length)
    out.push(`Waived by the profile (${waived.length}), not verified on purpose:`, ...waived.flatMap(line));
  return out;
}
