/**
 * A Vitest reporter that collects the CheckResult of every check (from the test's meta) into the one results
 * stream; a test that died before its check produced a result becomes an `error` verdict, never a silent gap.
 */
import type { Reporter, TestCase, TestModule } from 'vitest/node';
import { levelOf } from '../catalogue/index.ts';
import './runtime.ts';
import type { CheckResult } from './results.ts';

export class ResultCollector implements Reporter {
  readonly results: CheckResult[] = [];
  readonly errors: string[] = [];
  constructor(private readonly onResult?: (r: CheckResult) => void) {}

  onTestCaseResult(testCase: TestCase): void {
    const meta = testCase.meta();
    const state = testCase.result();
    let r = meta.result;
    if (!r) {
      const ids = meta.requirements ?? [];
      const errs = state.state === 'failed' ? state.errors.map((e) => e.message).join('; ') : `test ended ${state.state} without a verdict`;
      r = {
        checkId: meta.checkId ?? testCase.fullName,
        suite: testCase.module.relativeModuleId.split('/')[1] ?? 'unknown',
        title: testCase.name,
        requirements: ids,
        level: ids.length ? levelOf(ids) : 'MUST',
        verdict: 'error',
        reason: errs,
        evidence: { exchanges: [], notes: [], tls: [] },
        durationMs: Math.round(testCase.diagnostic()?.duration ?? 0),
      };
    }
    this.results.push(r);
    this.onResult?.(r);
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandled: ReadonlyArray<{ message: string }>): void {
    for (const e of unhandled) this.errors.push(`unhandled error: ${e.message}`);
    for (const m of modules) {
      for (const e of m.errors()) this.errors.push(`${m.relativeModuleId}: ${e.message}`);
    }
  }
}
