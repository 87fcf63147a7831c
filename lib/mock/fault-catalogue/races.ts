/**
 * The faults only concurrent requests see: check-then-act gaps (lib/mock/race.ts) in PUT, the code exchange, refresh
 * and the quota (RACE-01..04).
 */
import type { FaultDefinition } from '../types.ts';
import { f, ALL } from './define.ts';

export const RACE_FAULTS: readonly FaultDefinition[] = [
  f(
    'race-put-check-then-act',
    ['RACE-01'],
    ALL,
    'a PUT awaits between looking the transfer id up and storing it: concurrent PUTs of one id each create a payment',
  ),
  f(
    'race-code-exchange',
    ['RACE-02'],
    ALL,
    'a code exchange awaits between checking the code is unused and marking it used: concurrent exchanges all get tokens',
  ),
  f(
    'race-refresh',
    ['RACE-03'],
    ALL,
    'a refresh awaits between checking the refresh token and voiding it: concurrent refreshes all get token pairs',
  ),
  f(
    'race-quota',
    ['RACE-04'],
    ALL,
    'a call awaits between checking the quota count and incrementing it: a concurrent burst passes the quota',
  ),
];
