/**
 * Leaf types of the engine (no imports from the engine's other modules), so that check, context and runner form no
 * import cycle.
 */
import type { Waits } from '../waits.ts';

/** How a run may treat time, quotas and limits. */
export interface RunOptions {
  /** allow real waits for time-based checks when the target has no test clock */
  long: boolean;
  /** allow quota exhaustion on a real target */
  destructive: boolean;
  /** the target is the embedded mock (quota exhaustion is harmless there) */
  embedded: boolean;
  /** longest real wait a check may do with --long */
  maxWaitSeconds: number;
  /** per-check time limit */
  checkTimeoutMs: number;
  /** overall run deadline (epoch ms, --deadline): checks not started by then are not run */
  deadlineAt?: number;
  /** told when a check starts a real wait (--long, no test clock): what it waits for and how long */
  onWait?: (what: string) => void;
  /**
   * the time of the waits the run spends on purpose (a throttle's back-off, a spike arrest's Retry-After; lib/waits.ts):
   * real time when absent; a test hands in its own (and the same to the in-process mock, MockOptions.waits)
   */
  waits?: Waits;
}

/** Things many checks need, established once per run with their own result (lib/engine/session/prerequisites.ts). */
export type PrerequisiteId =
  'tls-handshake' | 'reach-api' | 'client-credentials-token' | 'sealed-response-opens' | 'code-grant';

/** The prerequisites established so far: a failed one blocks the checks that need it. */
export interface PrerequisiteBoard {
  /** why the prerequisite failed (or was blocked itself), undefined when it held or was not established */
  failed(id: PrerequisiteId): string | undefined;
  /** resolves once the prerequisite is established (at once when the run establishes none) */
  settled(id: PrerequisiteId): Promise<void>;
  /**
   * the requirement whose rule the prerequisite's failure broke (TLS-05 for a server certificate that did not
   * verify), undefined when none: the checks of that requirement judge the failure and are not blocked by it
   */
  rule?(id: PrerequisiteId): string | undefined;
}
