/** What a profile run hands to the checks (serialisable: it crosses into Vitest workers via `provide`). */
import type { FullProfile } from '../../profile/schema.ts';
import type { RunOptions } from './runner.ts';
import type { CheckResult } from '../results.ts';
import type { EntryPrerequisites } from '../vitest/vitest-verdict.ts';
import type { Selection } from './select.ts';
import type { OpenApiModel } from '../../openapi/types.ts';
import type { Transport } from '../../http/transport.ts';

export interface HarnessRuntime {
  profile: FullProfile;
  options: RunOptions;
  /** mock faults switched on (embedded mock only) */
  faults: string[];
  /** the bank's OpenAPI document, when the profile names one (target.openapi, embedded.openapi; docs/openapi.md) */
  openapi?: OpenApiModel;
  /** the checks this run selects (all when absent) */
  selection?: Selection;
  /** the run's transport (lib/http/transport.ts: --har's wire tap): certify's own runs only, never serialised */
  transport?: Transport;
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
    /** the run's prerequisites once all were established (the Vitest entry's verdict: vitest-verdict.ts) */
    prerequisites?: EntryPrerequisites;
  }
}
