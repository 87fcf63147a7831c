/**
 * The harness threads of a run (harness-thread.ts), some started ahead: certify's start-up (scripts/startup.ts)
 * starts one for each profile but the first when the command line names two or more, so that a thread loads its
 * modules (about 0.1 CPU-s) while the main thread loads its own and checks the profiles. Light on purpose (nothing
 * but node:worker_threads): the start-up loads it before the command line is checked.
 */
import { Worker } from 'node:worker_threads';

export interface HarnessThreads {
  /** the fewest checks a run selects for its profiles to go on threads (harness-thread.ts: THREADED_FROM_CHECKS) */
  readonly fromChecks?: number;
  /** a thread for a profile: one started ahead when one is left (and still alive), otherwise a new one */
  take(): Worker;
  /** ends the threads started ahead that no profile took (a run that did not need them) */
  close(): Promise<void>;
}

/** the run's harness threads from `entry` (scripts/harness-thread.ts or its bundle), `ahead` of them started now */
export function harnessThreads(entry: URL, ahead = 0, fromChecks?: number): HarnessThreads {
  const ready = Array.from({ length: ahead }, () => started(entry, true));
  return {
    ...(fromChecks !== undefined ? { fromChecks } : {}),
    take() {
      let next;
      while ((next = ready.shift()))
        if (!next.ended) {
          // it keeps the process alive from now on, as a thread started now would
          next.worker.ref();
          return next.worker;
        }
      return started(entry, false).worker;
    },
    async close() {
      await Promise.all(ready.splice(0).map(({ worker }) => worker.terminate()));
    },
  };
}

function started(entry: URL, ahead: boolean): { worker: Worker; ended: boolean } {
  // workerData names the thread's role (the bench's CPU counter reads it: scripts/bench/count-crypto-ops.mjs)
  const worker = new Worker(entry, { workerData: { thread: 'harness' } });
  const thread = { worker, ended: false };
  if (ahead) {
    // not taken yet: it does not keep the process alive, and if it fails meanwhile a new one is started instead
    worker.unref();
    worker.once('error', () => (thread.ended = true));
    worker.once('exit', () => (thread.ended = true));
  }
  return thread;
}
