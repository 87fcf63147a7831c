/** What a profile run hands to the checks (serialisable: it crosses into Vitest workers via `provide`). */
import type { FullProfile } from '../profile/schema.ts';
import type { RunOptions } from './runner.ts';
import type { CheckResult } from './results.ts';
import type { Selection } from './select.ts';

export interface HarnessRuntime {
  profile: FullProfile;
  options: RunOptions;
  /** mock faults switched on (embedded mock only) */
  faults: string[];
  /** the checks this run selects (all when absent) */
  selection?: Selection;
}

declare module 'vitest' {
  interface ProvidedContext {
    harness: HarnessRuntime;
  }
}

declare module '@vitest/runner' {
  interface TaskMeta {
    checkId?: string;
    requirements?: string[];
    result?: CheckResult;
  }
}
