/**
 * The faults of the quotas: the refusal, its window per operation, its reopening, its side effects (QUOTA-01..04).
 */
import type { FaultDefinition } from '../types.ts';
import { f, ALL } from './define.ts';

export const QUOTA_FAULTS: readonly FaultDefinition[] = [
  f('quota-off', ['QUOTA-01'], ALL, 'no quota is enforced'),
  f('quota-no-retry-after', ['QUOTA-01'], ALL, 'the 429 answer carries no Retry-After header'),
  // the quota's refusals as bare answers a throttling gateway might also give (no body): the harness must not take
  // them for a gateway's throttle (lib/engine/session/throttle/throttle.ts)
  f('quota-refusal-bare', ['QUOTA-01'], ALL, 'the quota refusal is a bare 429: no Retry-After, no body'),
  f(
    'quota-early-long-wait',
    ['QUOTA-01'],
    ALL,
    'from the 51st call of a window, a bare 429 (no body) with a Retry-After of the rest of the hour',
  ),
  f(
    'quota-shared-window',
    ['QUOTA-02'],
    ALL,
    "once one operation's quota is exhausted, the client's other operations are refused too",
  ),
  f(
    'quota-window-reopens-late',
    ['QUOTA-03'],
    ALL,
    'an exhausted quota window (one that refuses, from whichever count) reopens only after two hours, not after one',
  ),
  f('quota-refusal-side-effect', ['QUOTA-04'], ALL, 'a PUT refused for the quota still creates the transfer'),
];
