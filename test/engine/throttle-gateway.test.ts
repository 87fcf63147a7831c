/**
 * Behind a gateway that throttles (the mock's throttle option: nginx `limit_req`, a token bucket per source, 429 or 503
 * with no Retry-After and an HTML page, the bank never seeing the call), a conformant bank gets no FAIL and every
 * check it runs verified: the throttled calls are sent again after a wait, a check never judges a rule on a throttle
 * answer, no quota is filled through one, and the report names the throttle. Each mock shape is run on the checks a
 * throttle could fool (--only): QUOTA-01 (a quota filled through the throttle), TOK-14 and XFER-08 (a 429 taken for the
 * rule's refusal), ERR-05 and the documents property (a gateway page read as a leak), in both modes side by side.
 * Before throttle.ts a 200/s sandbox run failed TOK-14 ("expected HTTP 401, observed 429").
 * The quota's own answer stays the API's: a bank whose quota answer lacks Retry-After still fails QUOTA-01 there.
 * The waits are the test's (TestWaits, handed to the run and to the mocks' gateways): each is recorded, not spent.
 */
import { afterEach, describe, expect, test } from 'vitest';
import type { ProfileRun } from '../../lib/engine/results.ts';
import { defaultRunOptions } from '../../lib/engine/run/runner.ts';
import { startMockBank, type MockBank } from '../../lib/mock/index.ts';
import { testPki } from '../../lib/pki/index.ts';
import { FullProfile } from '../../lib/profile/schema.ts';
import { summaryLine } from '../../lib/report/summary.ts';
import { trafficLine } from '../../lib/report/traffic.ts';
import { allChecks } from '../../suites/index.ts';
import { runOn } from '../fixtures/run.ts';
import { tempDirs } from '../fixtures/tmp.ts';
import { certifyBoth } from '../fixtures/certify-both.ts';
import { THROTTLE_FOOLED } from '../fixtures/throttle-fooled.ts';
import { TestWaits } from '../fixtures/waits.ts';

const tmp = tempDirs('throttle-gateway-');

/** the requirement ids whose checks a throttle answer could fool */
const FOOLED = THROTTLE_FOOLED;

/** the verdicts that must never come of a throttle: a FAIL, an error, or a check left unverified */
function wrong(runs: ProfileRun[]): string[] {
  return runs.flatMap((p) =>
    p.results
      .filter((r) => r.verdict !== 'pass' && r.verdict !== 'not-applicable')
      .map((r) => `${p.profile} ${r.checkId} ${r.verdict}: ${r.reason ?? ''}`),
  );
}

describe('behind a gateway that throttles', { timeout: 180_000 }, () => {
  // nginx's default (burst 0: one call at a time) at a slow rate, and a gateway that answers 503
  for (const throttle of [{ perSecond: 50 }, { perSecond: 200, status: 503 as const }]) {
    const status = throttle.status ?? 429;
    test(`${throttle.perSecond} calls/s, ${status}: every check of ${FOOLED.join(', ')} verified, none failed`, async () => {
      const waits = new TestWaits();
      const { runs, exitCode } = await certifyBoth(
        tmp(),
        (env) => ({ name: `${env}-${throttle.perSecond}`, embedded: { throttle } }),
        FOOLED,
        waits,
      );
      expect(wrong(runs)).toEqual([]);
      expect(exitCode).toBe(0);
      // every back-off the reports count was asked of the test's clock (and none spent)
      const backoffs = runs.reduce((n, p) => n + (p.traffic?.throttle?.retries ?? 0), 0);
      expect(backoffs).toBeGreaterThan(0);
      expect(waits.asked.length).toBeGreaterThanOrEqual(backoffs);
      for (const p of runs) {
        expect(p.results.filter((r) => r.requirements.some((id) => FOOLED.includes(id))).length).toBeGreaterThan(4);
        // the run met the throttle and says so: results.json traffic.throttle, the log lines
        expect(p.traffic?.throttle?.throttled).toBeGreaterThan(0);
        expect(Object.keys(p.traffic?.throttle?.statuses ?? {})).toEqual([String(status)]);
        expect(trafficLine(p)).toMatch(new RegExp(`throttled by a gateway: \\d+ answers \\(${status} ×\\d+\\)`));
        expect(summaryLine(p, 'must')).toMatch(/throttled by a gateway \d+ times/);
      }
    });
  }
});

let mock: MockBank | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

test(
  "the quota's answer without Retry-After is the bank's: QUOTA-01 fails behind the throttle",
  { timeout: 120_000 },
  async () => {
    const waits = new TestWaits();
    mock = await startMockBank({
      mode: 'sandbox',
      pki: await testPki(),
      throttle: { perSecond: 200 },
      faults: ['quota-no-retry-after'],
      waits,
    });
    const profile = FullProfile.parse(mock.profile('throttled-no-retry-after'));
    const checks = allChecks.filter((c) => c.id === 'quota.per-operation-limit');
    const [r] = await runOn(profile, { ...defaultRunOptions, embedded: true, waits }, checks);
    expect([r!.verdict, r!.reason]).toEqual(['fail', 'the 429 answer carries no Retry-After header']);
  },
);
