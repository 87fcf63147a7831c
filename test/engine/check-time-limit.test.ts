/**
 * A check's time limit counts the time the target's session was quiet, not the check's own duration: a check that
 * waits while the others work (as the checks riding the run's timeline wait for the others' windows and moves, for
 * longer on a busy machine) is not stopped as a harness error; a check that hangs while nothing is sent still is.
 * Shown with a per-check limit shorter than the wait, against the embedded sandbox mock. The limit's time is the test's:
 * the timers and performance.now of the run are faked and moved by the test (the calls to the mock are real I/O), so
 * the verdicts do not depend on the machine's speed.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
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
afterEach(() => {
  vi.useRealTimers();
});

/** the run's timers and clock (the runner's time limit, the session's activity) on the test's time */
function testTime(): void {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'performance'] });
}

const check = (name: string, run: CheckDefinition['run']): CheckDefinition => ({
  id: `test.${name}`,
  suite: 'test',
  requirements: ['XFER-04'],
  title: name,
  run,
});

describe("a check's time limit", () => {
  test('a check that waits 2.5 limits while another check of the session sends is not stopped', async () => {
    testTime();
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let waited = 0;
    const waits = check('waits', () => released);
    // a read without a token (HTTP 401), then 500 ms of the test's time, ten times: 5 s, 2.5 limits, the session
    // never quiet for a limit; then the other check's wait ends
    const sends = check('sends', async (ctx) => {
      for (let i = 0; i < 10; i++) {
        await ctx.send({ method: 'GET', url: ctx.url('/transfers/x'), label: `read #${i + 1}` });
        await vi.advanceTimersByTimeAsync(LIMIT_MS / 4);
        waited += LIMIT_MS / 4;
      }
      release();
    });
    const results = await runOn(profile, options, [waits, sends]);
    expect(waited).toBe(LIMIT_MS * 2.5);
    expect(results.map((r) => [r.checkId, r.verdict, r.reason ?? ''])).toEqual([
      ['test.waits', 'pass', ''],
      ['test.sends', 'pass', ''],
    ]);
  }, 30_000);

  test('a check that hangs while nothing is sent ends as a harness error once the session was quiet for its limit', async () => {
    testTime();
    let began: number | undefined;
    const hangs = check('hangs', () => {
      began = performance.now();
      return new Promise<void>(() => {});
    });
    const run = runOn(profile, options, [hangs]);
    let settled = false;
    void run.finally(() => (settled = true));
    // the test's time moves 100 ms at a step once the check has begun (its session set up by real I/O meanwhile)
    for (let i = 0; i < 10_000 && !settled; i++) {
      await new Promise((r) => setImmediate(r));
      if (began !== undefined) await vi.advanceTimersByTimeAsync(100);
    }
    // not stopped within 500 limits of the test's time: never
    expect(settled).toBe(true);
    const results = await run;
    expect(results.map((r) => [r.checkId, r.verdict])).toEqual([['test.hangs', 'error']]);
    expect(results[0]!.reason).toMatch(/HarnessTimeout: .*nothing was sent to the target nor answered for 2000 ms/);
    // stopped once the limit had passed on the test's time, not before: the check's duration is read on the faked
    // performance.now when its verdict is given (the session's closing after it, real I/O, is not counted)
    expect(results[0]!.durationMs).toBeGreaterThanOrEqual(LIMIT_MS);
    expect(results[0]!.durationMs).toBeLessThanOrEqual(LIMIT_MS + 100);
  }, 30_000);
});
