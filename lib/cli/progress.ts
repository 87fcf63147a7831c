/**
 * Live progress for `certify`. Checks of several suites, and of several profiles, finish interleaved (they run
 * concurrently), so every line names its profile and suite, and a suite's summary line is printed when its last
 * check is done.
 *  - On a terminal: one status line (checks done per profile) rewritten in place; problems and finished suites
 *    are printed above it as they happen; passes only move the counters.
 *  - Elsewhere (CI logs, pipes): plain lines only, one per check and one per finished suite, no control characters.
 * At the end of each profile, its one-line summary (lib/report/summary.ts summaryLine). Reasons printed here come
 * from results, which are redacted.
 */
import type { CheckResult, Verdict } from '../engine/results.ts';
import { VERDICT_LABEL } from '../report/summary.ts';

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
const MAIN: readonly Verdict[] = ['pass', 'fail', 'warn', 'not-run', 'not-applicable'];

/** Remove control characters so that a target cannot drive the terminal through a reason string. */
const clean = (s: string): string => s.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ');

interface SuiteCount {
  total: number;
  done: number;
  counts: Partial<Record<Verdict, number>>;
}

export function createProgress(stream: ProgressStream, opts: { tty: boolean; color?: boolean }): Progress {
  const tty = opts.tty;
  const color = tty && (opts.color ?? !process.env.NO_COLOR);
  const paint = (v: Verdict, s: string): string => (color && COLOR[v] ? `\u001b[${COLOR[v]}m${s}\u001b[0m` : s);
  /** profile → suite → counts, for the profiles still running */
  const running = new Map<string, Map<string, SuiteCount>>();

  const suiteLine = (profile: string, suite: string, c: SuiteCount): string => {
    const parts = MAIN.filter((v) => c.counts[v]).map((v) => `${c.counts[v]} ${VERDICT_LABEL[v]}`);
    const other = Object.entries(c.counts)
      .filter(([v]) => !MAIN.includes(v as Verdict))
      .reduce((s, [, n]) => s + (n ?? 0), 0);
    if (other) parts.push(`${other} other`);
    return `${clean(profile)} / ${clean(suite)}: ${c.done}/${c.total} checks${parts.length ? ` (${parts.join(', ')})` : ''}`;
  };
  const status = (): string =>
    [...running]
      .map(([profile, suites]) => {
        const all = [...suites.values()];
        return `${clean(profile)}: ${all.reduce((s, c) => s + c.done, 0)}/${all.reduce((s, c) => s + c.total, 0)} checks`;
      })
      .join(' · ');
  /** prints lines above the live status line (on a terminal) or as they are (elsewhere) */
  const print = (lines: string[]): void => {
    if (tty) {
      const live = status();
      stream.write(`\r\u001b[2K${lines.map((l) => `${l}\n`).join('')}${live}`);
    } else {
      stream.write(lines.map((l) => `${l}\n`).join(''));
    }
  };

  return {
    profileStarted(profile, perSuite) {
      running.set(
        profile,
        new Map(
          Object.entries(perSuite)
            .filter(([, n]) => n > 0)
            .map(([suite, total]) => [suite, { total, done: 0, counts: {} }]),
        ),
      );
      if (tty) print([]);
      else stream.write(`${clean(profile)}: started (${Object.values(perSuite).reduce((s, n) => s + n, 0)} checks)\n`);
    },
    checkDone(profile, r) {
      const suites = running.get(profile) ?? new Map<string, SuiteCount>();
      const c = suites.get(r.suite) ?? { total: 0, done: 0, counts: {} };
      c.done++;
      c.counts[r.verdict] = (c.counts[r.verdict] ?? 0) + 1;
      suites.set(r.suite, c);
      running.set(profile, suites);
      const lines: string[] = [];
      const line = `  ${clean(profile)} / ${clean(r.suite)}  ${paint(r.verdict, VERDICT_LABEL[r.verdict].padEnd(16))} ${clean(`${r.requirements.join(' ')} ${r.title}`)}${r.reason && r.verdict !== 'pass' ? ` — ${clean(r.reason)}` : ''}`;
      // on a terminal, passes only move the counter; problems stay on screen
      if (!tty || PROBLEM.has(r.verdict)) lines.push(line);
      if (c.done >= c.total) lines.push(suiteLine(profile, r.suite, c));
      if (lines.length) print(lines);
      else if (tty) print([]);
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
