/**
 * A result's failure records (lib/engine/failure.ts) as the text reports show them: one line each, read from the
 * record's fields. A single generic record that only repeats the reason adds nothing and is left out.
 */
import type { CheckResult, Failure } from '../engine/results.ts';
import { failureLine } from '../engine/failure.ts';

/** the records worth showing beside a result's reason */
export function shownFailures(r: Pick<CheckResult, 'failures' | 'reason'>): readonly Failure[] {
  const list = r.failures ?? [];
  const only = list.length === 1 ? list[0] : undefined;
  if (only && only.kind === 'generic' && only.requirements === undefined && only.exchange === undefined) return [];
  return list;
}

/** "failure: [kind] title {ids}: message (exchange n)", one per record shown */
export function failureLines(r: Pick<CheckResult, 'failures' | 'reason'>): string[] {
  return shownFailures(r).map((f) => `failure: ${failureLine(f)}`);
}
