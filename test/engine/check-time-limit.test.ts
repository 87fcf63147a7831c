/**
 * A check's time limit counts the time the target's session was quiet, not the check's own duration: a check that
 * waits while the others work (as the checks riding the run's timeline wait for the others' windows and moves, for
 * longer on a busy machine) is not stopped as a harness error; a check that hangs while nothing is sent still is.
 * Shown with a per-check limit shorter than the wait, against the embedded sandbox mock.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { startMockBank, type MockBank } from '../../lib/mock/index.ts';
import { testPki } from '../../lib/pki/index.ts';
import { FullProfile } from '../../lib/profile/schema.ts';
import { defaultRunOptions } from '../../lib/engine/run/runner.ts';
import type { CheckDefinition } from '../../lib/engine/check.ts';
import { runOn } from '../fixtures/run.ts';

const LIMIT_MS = 2_000;
const options = { ...defaultRunOptions, embedded: true, checkTimeoutMs: LIMIT_MS };

let mock: MockBank;
let profile: FullProfile;
beforeAll(async () => {
  mock = await startMockBank({ mode: 'sandbox', pki: await testPki() });
  profile = FullProfile.parse(mock.profile('time-limit'));
});
afterAll(async () => {
  await mock.close();
});

const check = (name: string, run: CheckDefinition['run']): CheckDefinition => ({
  id: `test.${name}`,
  suite: 'test',
  requirements: ['XFER-04'],
  title: name,
  run,
});

describe("a check's time limit", () => {
  test('a check that waits 2.5 limits while another check of the session sends is not stopped', async () => {
    let waited = false;
    const waits = check('waits', async () => {
      await sleep(LIMIT_MS * 2.5);
      waited = true;
    });
    // a read without a token every 50 ms (HTTP 401), until the other check has waited: the session is never quiet
    const sends = check('sends', async (ctx) => {
      for (let i = 0; i < 400 && !waited; i++) {
        await ctx.send({ method: 'GET', url: ctx.url('/transfers/x'), label: `read #${i + 1}` });
        await sleep(50);
      }
    });
    const results = await runOn(profile, options, [waits, sends]);
    expect(results.map((r) => [r.checkId, r.verdict, r.reason ?? ''])).toEqual([
      ['test.waits', 'pass', ''],
      ['test.sends', 'pass', ''],
    ]);
  }, 30_000);

  test('a check that hangs while nothing is sent ends as a harness error once the session was quiet for its limit', async () => {
    const t0 = performance.now();
    const results = await runOn(profile, options, [check('hangs', () => new Promise<void>(() => {}))]);
    expect(results.map((r) => [r.checkId, r.verdict])).toEqual([['test.hangs', 'error']]);
    expect(results[0]!.reason).toMatch(/HarnessTimeout: .*nothing was sent to the target nor answered for 2000 ms/);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(LIMIT_MS);
  }, 30_000);
});
