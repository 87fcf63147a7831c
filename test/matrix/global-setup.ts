/** The matrix project's global setup: clears the per-case records; its teardown enforces per-check coverage. */
import {
  FULL_MATRIX_CASES,
  COVERAGE_TABLE,
  otherReasons,
  propertyCatches,
  readCases,
  resetCoverage,
  writeCoverageTable,
} from './coverage.ts';

export default function setup(): () => void {
  resetCoverage();
  return () => {
    const cases = readCases();
    const full = cases.length === FULL_MATRIX_CASES;
    const uncovered = writeCoverageTable(cases, full);
    console.log(`fault coverage per check: ${COVERAGE_TABLE}`);
    // the faults only a property check finds (docs/properties.md), beside the fixed-input checks that passed under them
    for (const r of propertyCatches(cases))
      console.log(
        `${r.fault}: caught by ${r.property.map((k) => k.check).join(', ')}; missed by ${r.missed.join(', ')}`,
      );
    // the faults a check of their ids caught otherwise than expected.ts expects (a finding each, not a failure)
    for (const r of otherReasons(cases))
      console.log(`${r.fault}: caught for another reason by ${r.catch.check} (${r.catch.verdict}: ${r.catch.reason})`);
    if (full && uncovered.length > 0) {
      // a teardown's exception does not fail a Vitest run; the exit code does
      console.error(
        `checks no fault makes fail as expected (add a fault for each, and its expectation to test/matrix/expected.ts): ${uncovered.join(', ')}`,
      );
      process.exitCode = 1;
    }
  };
}
