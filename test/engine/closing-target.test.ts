/**
 * A target that closes the connection after every answer (`Connection: close`, as Python's http.server, many WSGI
 * servers and some gateways do; the embedded mock's `connectionClose`, its test clock included) gets the verdicts
 * of the normal mock in both modes: no MUST failed, none unverified, no harness error. It is served at full width
 * (lib/http/connections/window.ts: a close after a complete answer is no capacity signal): its in-flight window is never cut and
 * grows past its start as against the normal mock. Its time is a figure of `npm run bench -- --latency 100
 * --connection-close` (docs/design.md, "A small or slow target"), never asserted here.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import type { ProfileRun } from '../../lib/engine/results.ts';
import { breaksRule, unverified } from '../../lib/engine/verdict.ts';
import { INITIAL } from '../../lib/http/connections/window.ts';
import { tempDirs } from '../fixtures/tmp.ts';
import { certifyBoth, verdictsDiffer } from '../fixtures/certify-both.ts';

const tmp = tempDirs('closing-target-');

const wrong = (runs: ProfileRun[]): string[] =>
  runs.flatMap((p) =>
    p.results
      .filter((r) => breaksRule(r, 'must') || unverified(r, 'must'))
      .map((r) => `${p.profile} ${r.checkId} ${r.verdict}: ${r.reason ?? ''}`),
  );

describe('a target that closes the connection after every answer', { timeout: 300_000 }, () => {
  let normal: ProfileRun[];
  let closing: ProfileRun[];
  beforeAll(async () => {
    normal = (await certifyBoth(tmp(), (env) => ({ name: env, embedded: {}, run: { concurrency: 128 } }))).runs;
    closing = (
      await certifyBoth(tmp(), (env) => ({ name: env, embedded: { connectionClose: true }, run: { concurrency: 128 } }))
    ).runs;
  }, 300_000);

  test('full certify in both modes: the normal verdicts, no MUST failed or unverified, no harness error', () => {
    expect(wrong(closing)).toEqual([]);
    expect(closing.flatMap((p) => p.errors)).toEqual([]);
    // each check whose verdict differs, with both reasons (a difference names its cause in the test's output)
    expect(verdictsDiffer(normal, closing, ['normal', 'closing'])).toEqual([]);
  });

  test('served at full width: every answer closed its connection, the window was never cut and grew', () => {
    for (const p of closing) {
      const windows = Object.values(p.traffic?.concurrency ?? {});
      // the API and the test clock both closed after their answers
      expect(windows.filter((w) => (w.closedByTarget ?? 0) > 0).length).toBeGreaterThanOrEqual(2);
      // never cut for a close: a cut only for a late answer, a timeout or a lost connect (a busy machine has them)
      const unexplained = windows.filter(
        (w) => w.smallest < INITIAL && w.lateAnswers + w.timeouts + (w.connectRetries ?? 0) === 0,
      );
      expect(unexplained).toEqual([]);
      expect(Math.max(...windows.map((w) => w.largest))).toBeGreaterThan(INITIAL);
    }
  });
});
