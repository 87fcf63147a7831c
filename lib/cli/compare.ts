/**
 * `npm run compare -- a.json b.json`: prints the differences; exit 1 when b has new failures, 2 usage/unreadable.
 * With --same: field by field (lib/report/compare/same.ts); exit 1 when any difference remains.
 */
import { parseArgs } from 'node:util';
import { compareResults, renderComparison } from '../report/compare/verdicts.ts';
import { compareSameRun, renderSameRun, SAME_RUN_NORMALISED } from '../report/compare/same.ts';
import { readResults } from '../report/json.ts';
import type { RunResults } from '../engine/results.ts';
import type { ProgressStream } from './progress.ts';

export const COMPARE_HELP = `Usage: npm run compare -- <before/results.json> <after/results.json> [--fail-on must|should] [--same]

Compares two results files by profile and check: new failures, fixed, changed verdicts, added, removed.
--same: are they the same run (the same code, profiles and --seed)? Compares every field, each difference with its
path, except what no two runs share:
${SAME_RUN_NORMALISED.map((l) => `  - ${l}`).join('\n')}
Exit codes: 0 no new failures (--same: no difference), 1 new failures (--same: a difference), 2 usage error or
unreadable file.
`;

export function runCompare(argv: string[], out: ProgressStream, err: ProgressStream): number {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: true,
      options: { 'fail-on': { type: 'string' }, same: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (e) {
    err.write(`compare: ${(e as Error).message.split('\n')[0]}\n${COMPARE_HELP}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    out.write(COMPARE_HELP);
    return 0;
  }
  const failOn = values['fail-on'];
  if (positionals.length !== 2 || (failOn !== undefined && failOn !== 'must' && failOn !== 'should')) {
    err.write(
      `compare: ${positionals.length !== 2 ? 'give two results files' : `--fail-on must be "must" or "should"`}\n${COMPARE_HELP}`,
    );
    return 2;
  }
  let a: RunResults;
  let b: RunResults;
  try {
    a = readResults(positionals[0] as string);
    b = readResults(positionals[1] as string);
  } catch (e) {
    err.write(`compare: ${(e as Error).message}\n`);
    return 2;
  }
  if (values.same) {
    const diffs = compareSameRun(a, b);
    out.write(renderSameRun(diffs));
    return diffs.length > 0 ? 1 : 0;
  }
  const c = compareResults(a, b, failOn === 'must' || failOn === 'should' ? { failOn } : {});
  out.write(renderComparison(c));
  return c.newFailures.length > 0 ? 1 : 0;
}
