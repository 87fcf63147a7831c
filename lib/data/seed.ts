/**
 * The seed of a run's generated test data (lib/data): a module of its own, without faker, so that a session reports
 * its seed without loading the generator (the checks that build realistic bodies load it, lib/engine/session.ts).
 */
import { randomInt } from 'node:crypto';

/** a seed for a run: the profile's run.dataSeed, or a fresh one (to be printed in the report) */
export function runSeed(fixed?: number): number {
  return fixed ?? randomInt(0, 2 ** 31 - 1);
}
