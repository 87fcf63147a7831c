/**
 * RACE (requirements.md "RACE"): the same rules under concurrency. Each check sends a control request alone
 * (positive control, and the answer time the overlap is measured against), then bursts of N copies of one
 * request released together (profile run.raceBurst, default 20; run.raceRepeats bursts, default 3).
 * A success is judged only on answers that came: a transport error or a 5xx is never evidence that the rule holds.
 * Each rule's check in a file of its own: create.ts (RACE-01), tokens.ts (RACE-02, RACE-03), quota.ts (RACE-04).
 */
import { defineSuite } from '../../lib/engine/check.ts';
import { inFreshWindow } from './common.ts';
import { raceCreate } from './create.ts';
import { raceQuota } from './quota.ts';
import { raceCodeExchange, raceRefresh } from './tokens.ts';

export const suite = defineSuite('race', [
  {
    name: 'concurrent-put-one-payment',
    requirements: ['RACE-01'],
    title: 'N concurrent PUTs of one transfer id with one body create one payment (one payment_reference_id)',
    // N × repeats creates: a quota's worth of calls (a fresh window before and after, with a test clock)
    needs: ['destructive'],
    // the quota less one at most (maxBursts): in a fresh window of a test clock they never exhaust it
    fitsFreshWindow: true,
    exclusive: true,
    run: (ctx) => inFreshWindow(ctx, { spends: ['create'], calls: ['get'] }, () => raceCreate(ctx)),
  },
  {
    name: 'concurrent-code-exchange',
    // a control and bursts one after another: started first among the shared checks
    startEarly: true,
    requirements: ['RACE-02'],
    title: 'N concurrent exchanges of one authorization code issue at most one token',
    run: raceCodeExchange,
  },
  {
    name: 'concurrent-refresh',
    // a control and bursts one after another: started first among the shared checks
    startEarly: true,
    requirements: ['RACE-03'],
    title: 'N concurrent refreshes with one refresh token issue at most one new token pair',
    run: raceRefresh,
  },
  {
    name: 'concurrent-calls-past-quota',
    requirements: ['RACE-04'],
    title: 'N concurrent calls with fewer than N left of the quota: no more than the quota is accepted',
    needs: ['clock', 'destructive'],
    exclusive: true,
    run: raceQuota,
  },
]);
