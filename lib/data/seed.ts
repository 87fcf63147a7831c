/**
 * The seed of a run's generated test data (lib/data): a module of its own, without faker, so that a session reports
 * its seed without loading the generator (the checks that build realistic bodies load it, lib/engine/session/session.ts).
 */
import { randomInt } from 'node:crypto';

/** a seed for a run: the profile's run.dataSeed, or a fresh one (to be printed in the report) */
export function runSeed(fixed?: number): number {
  return fixed ?? randomInt(0, 2 ** 31 - 1);
}

/** mulberry32: a seeded draw in [0, 1), the same sequence for the same seed (a wait's jitter replays with the run) */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * `length` hex digits drawn from a seed: test data that needs no secrecy (an id the target must not know, a value it
 * must ignore) is the same every run of one seed, so two such runs compare field by field
 */
export function seededHex(seed: number, length: number): string {
  const draw = seeded(seed);
  return Array.from({ length }, () => Math.floor(draw() * 16).toString(16)).join('');
}
