/**
 * The check-then-act gaps of the race faults (RACE-01..04): with the fault on, a store awaits between reading its
 * state (the check) and writing it (the act), so that concurrent requests all pass the check before any of them
 * acts. With the fault off the store reads and writes in one synchronous step (no await in between), which is
 * what makes the clean mock safe under concurrency on one event loop.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { FaultSet } from './fault-set.ts';

/** long enough for the other requests of a burst to reach the same check, even on a loaded machine */
export const RACE_GAP_MS = 50;

export type RaceFault = 'race-put-check-then-act' | 'race-code-exchange' | 'race-refresh' | 'race-quota';

/** true when the fault's gap applies; the caller then awaits `raceGap()` between its check and its act */
export function raceGapOn(faults: FaultSet, id: RaceFault): boolean {
  return faults.on(id);
}

export function raceGap(): Promise<void> {
  return sleep(RACE_GAP_MS);
}
