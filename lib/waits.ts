/**
 * The time of the waits a run spends on purpose and of the windows they wait out: the harness's back-off after a
 * gateway's throttle, a quota filling's wait for a spike arrest's Retry-After, and the in-process mock's gateway and
 * spike arrest that count those windows. Real time by default (realWaits); a test hands one clock to both sides
 * (RunOptions.waits, MockOptions.waits) and spends none of it. Time-outs of real I/O (undici's, the connect hedge, a
 * check's time limit) stay on the process's own timers: they guard sockets, not rules.
 */
import { setMaxListeners } from 'node:events';

export interface Waits {
  /** milliseconds on a monotonic clock (only differences mean something) */
  now(): number;
  /**
   * resolves once `ms` have passed on this clock (at once when `ms` ≤ 0); a stop rejects at once with the stop's
   * reason, and no timer is left behind
   */
  sleep(ms: number, stop?: AbortSignal): Promise<void>;
}

/** waits on the process's own timers */
function realSleep(ms: number, stop?: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    if (stop?.aborted) return reject(stop.reason);
    const onStop = (): void => {
      clearTimeout(timer);
      reject(stop!.reason);
    };
    const timer = setTimeout(() => {
      stop?.removeEventListener('abort', onStop);
      resolve();
    }, ms);
    // every call of a quota filling may wait at once on its check's stop: no listener limit there
    if (stop) setMaxListeners(0, stop);
    stop?.addEventListener('abort', onStop, { once: true });
  });
}

/** real time: performance.now() and setTimeout */
export const realWaits: Waits = { now: () => performance.now(), sleep: realSleep };
