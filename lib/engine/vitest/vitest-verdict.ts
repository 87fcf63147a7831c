/**
 * The Vitest entry's reading of a whole run (lib/engine/vitest/vitest-global-setup.ts): certify's NOTHING RAN (every
 * selected check not applicable or not run, or waived: verdict.ts ranAny) is a failed run, never a green.
 */
import type { CheckResult } from '../results.ts';
import { ranAny } from '../verdict.ts';

/** why the run verified nothing (certify: NOTHING RAN, exit 3), or undefined when some check ran */
export function nothingRan(results: readonly (CheckResult | undefined)[]): string | undefined {
  const known = results.filter((r): r is CheckResult => r !== undefined);
  if (ranAny(known)) return undefined;
  const first = known[0];
  const example = first ? `; e.g. ${first.checkId}: ${first.verdict}: ${first.reason ?? ''}` : '';
  return (
    `NOTHING RAN: none of the ${results.length} selected checks applies to this target or was run` +
    ` (certify says NOTHING RAN, exit 3)${example}`
  );
}
