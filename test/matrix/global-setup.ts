/** The matrix project's global setup: clears the per-case records; its teardown enforces per-check coverage. */
import {
  FULL_MATRIX_CASES,
  COVERAGE_TABLE,
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
    if (full && uncovered.length > 0) {
      // a teardown's exception does not fail a Vitest run; the exit code does
      console.error(`checks no fault makes fail (add a fault for each): ${uncovered.join(', ')}`);
      process.exitCode = 1;
    }
  };
}
