/**
 * Leaf types of the engine (no imports from the engine's other modules), so that check, context and runner form no
 * import cycle.
 */

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
}
