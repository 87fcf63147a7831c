/**
 * Live progress for `certify`. On a terminal: one line per suite that updates in place as checks finish,
 * problems printed above it as they happen. Elsewhere (CI logs, pipes): plain lines only, one per
 * check and per suite, no control characters. At the end of each profile, its one-line summary
 * (lib/report/summary.ts summaryLine). Reasons printed here come from results, which are redacted.
 */
import type { CheckResult, Verdict } from '../engine/results.ts';
import { VERDICT_LABEL } from '../report/summary.ts';

export interface ProgressStream {
  write(chunk: string): unknown;
}
export interface Progress {
  suiteStarted(profile: string, suite: string, total?: number): void;
  checkDone(profile: string, result: CheckResult): void;
  profileDone(summaryLine: string): void;
}

const PROBLEM: ReadonlySet<Verdict> = new Set(['fail', 'error', 'unexpected-pass', 'warn', 'inconclusive']);
const COLOR: Partial<Record<Verdict, string>> = { pass: '32', fail: '31', error: '31', 'unexpected-pass': '31', warn: '33', inconclusive: '35' };

/** Remove control characters so that a target cannot drive the terminal through a reason string. */
const clean = (s: string): string => s.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ');

export function createProgress(stream: ProgressStream, opts: { tty: boolean; color?: boolean }): Progress {
  const tty = opts.tty;
  const color = tty && (opts.color ?? !process.env.NO_COLOR);
  const paint = (v: Verdict, s: string): string => (color && COLOR[v] ? `\u001b[${COLOR[v]}m${s}\u001b[0m` : s);
  let current: { profile: string; suite: string; total?: number; done: number; counts: Partial<Record<Verdict, number>> } | undefined;

  const status = (): string => {
    if (!current) return '';
    const c = current.counts;
    const of = current.total !== undefined ? `/${current.total}` : '';
    const parts = (['pass', 'fail', 'warn', 'not-run', 'not-applicable'] as Verdict[]).filter((v) => c[v]).map((v) => `${c[v]} ${VERDICT_LABEL[v]}`);
    const other = Object.entries(c).filter(([v]) => !['pass', 'fail', 'warn', 'not-run', 'not-applicable'].includes(v)).reduce((s, [, n]) => s + (n ?? 0), 0);
    if (other) parts.push(`${other} other`);
    return `${current.profile} / ${current.suite}: ${current.done}${of} checks${parts.length ? ` (${parts.join(', ')})` : ''}`;
  };
  const redraw = (): void => {
    if (tty && current) stream.write(`\r\u001b[2K${status()}`);
  };
  const endSuite = (): void => {
    if (!current) return;
    stream.write(tty ? `\r\u001b[2K${status()}\n` : `${status()}\n`);
    current = undefined;
  };

  return {
    suiteStarted(profile, suite, total) {
      endSuite();
      current = { profile, suite, done: 0, counts: {}, ...(total !== undefined ? { total } : {}) };
      if (tty) redraw();
      else stream.write(`${profile} / ${suite}: started${total !== undefined ? ` (${total} checks)` : ''}\n`);
    },
    checkDone(profile, r) {
      const mine = current !== undefined && current.profile === profile && current.suite === r.suite;
      if (mine && current) {
        current.done++;
        current.counts[r.verdict] = (current.counts[r.verdict] ?? 0) + 1;
      }
      // a check from another suite (checks run concurrently) names where it comes from
      const where = mine ? '' : `[${clean(profile)} / ${clean(r.suite)}] `;
      const line = `  ${where}${paint(r.verdict, VERDICT_LABEL[r.verdict].padEnd(16))} ${clean(`${r.requirements.join(' ')} ${r.title}`)}${r.reason && r.verdict !== 'pass' ? ` — ${clean(r.reason)}` : ''}`;
      if (tty) {
        // problems stay on screen above the live line; passes only move the counter
        if (PROBLEM.has(r.verdict)) stream.write(`\r\u001b[2K${line}\n`);
        redraw();
      } else {
        stream.write(`${line}\n`);
      }
    },
    profileDone(summaryLine) {
      endSuite();
      stream.write(`${clean(summaryLine)}\n`);
    },
  };
}
