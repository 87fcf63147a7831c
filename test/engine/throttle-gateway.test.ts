/**
 * Behind a gateway that throttles (the mock's throttle option: nginx `limit_req`, a token bucket per source, 429 with
 * no Retry-After and an HTML page, the bank never seeing the call), a conformant bank gets no FAIL: the throttled
 * calls are sent again after a wait, a check never judges a rule on a throttle answer, no quota is filled through
 * one, and what stays unverified makes the run INCOMPLETE, its summary naming the throttle. Full certify runs of both
 * modes at 200 calls/s and at 50 calls/s (burst 0: one call at a time, nginx's default). Before throttle.ts the
 * 200/s sandbox run failed TOK-14 ("expected HTTP 401, observed 429") in 3 s.
 * The quota's own answer stays the API's: a bank whose quota answer lacks Retry-After still fails QUOTA-01 there.
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

const tmp = tempDirs('throttle-gateway-');

/** the verdicts that must never come of a throttle */
function wrong(runs: ProfileRun[]): string[] {
  return runs.flatMap((p) =>
    p.results
      .filter((r) => r.verdict === 'fail' || r.verdict === 'error')
      .map((r) => `${p.profile} ${r.checkId} ${r.verdict}: ${r.reason ?? ''}`),
  );
}

describe('behind a gateway that throttles', { timeout: 300_000 }, () => {
  for (const perSecond of [200, 50]) {
    test(`${perSecond} calls/s: no FAIL, INCOMPLETE at worst naming the throttle`, async () => {
      const { runs, exitCode } = await certifyBoth(tmp(), (env) => ({
        name: `${env}-${perSecond}`,
        embedded: { throttle: { perSecond } },
      }));
      expect(wrong(runs)).toEqual([]);
      expect([0, 5]).toContain(exitCode);
      for (const p of runs) {
        // the run met the throttle and says so: results.json traffic.throttle, the log lines
        expect(p.traffic?.throttle?.throttled).toBeGreaterThan(0);
        expect(trafficLine(p)).toMatch(/throttled by a gateway: \d+ answers \(429 ×\d+\)/);
        expect(summaryLine(p, 'must')).toMatch(/throttled by a gateway \d+ times/);
        // the false failures of a throttle: the quota filled through it, a 429 taken for the rule's answer, a
        // gateway page read as a leak
        for (const id of ['QUOTA-01', 'TOK-14', 'XFER-08', 'ERR-05'])
          for (const r of p.results.filter((x) => x.requirements.includes(id)))
            expect([r.checkId, r.verdict]).not.toEqual([r.checkId, 'fail']);
        const inconclusive = p.results.filter((r) => r.verdict === 'inconclusive');
        for (const r of inconclusive) expect(r.reason ?? '').not.toMatch(/nginx/);
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
    mock = await startMockBank({
      mode: 'sandbox',
      pki: await testPki(),
      throttle: { perSecond: 200 },
      faults: ['quota-no-retry-after'],
    });
    const profile = FullProfile.parse(mock.profile('throttled-no-retry-after'));
    const checks = allChecks.filter((c) => c.id === 'quota.per-operation-limit');
    const [r] = await runOn(profile, { ...defaultRunOptions, embedded: true }, checks);
    expect([r!.verdict, r!.reason]).toEqual(['fail', 'the 429 answer carries no Retry-After header']);
  },
);
