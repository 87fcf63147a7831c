/**
 * A target that accepts connections slowly (listen backlog 5, at most 8 connections served at once,
 * the others waiting unread: lib/mock/server/accept-queue.ts) gets the verdicts of the normal mock, without harness
 * errors: the harness adapts its in-flight calls (lib/http/connections/window.ts), sends again
 * the calls that timed out among others, and cuts its race bursts to what the target accepts at once.
 * Both runs are full certify runs of both modes (the two embedded mocks side by side, as `npm run certify`).
 * Their times are not asserted here (a timed test flakes on a busy machine): the goal of at most twice the
 * normal time is a figure for `npm run bench -- --small`, which measures the pairs under the same load
 * (docs/performance.md, "Small targets").
 */
import { beforeAll, describe, expect, test } from 'vitest';
import type { ProfileRun } from '../../lib/engine/results.ts';
import { tempDirs } from '../fixtures/tmp.ts';
import { certifyBoth, verdictsDiffer } from '../fixtures/certify-both.ts';

const tmp = tempDirs('small-target-');

const problems = (runs: ProfileRun[]): string[] =>
  runs.flatMap((p) =>
    p.results
      .filter((r) => r.verdict === 'error' || r.verdict === 'inconclusive')
      .map((r) => `${p.profile} ${r.checkId} ${r.verdict}: ${r.reason ?? ''}`),
  );

describe('a small target (listen backlog 5, at most 8 connections)', { timeout: 400_000 }, () => {
  let normal: { runs: ProfileRun[]; ms: number };
  let small: { runs: ProfileRun[]; ms: number };
  beforeAll(async () => {
    normal = await certifyBoth(tmp(), (env) => ({ name: env, embedded: {}, run: { concurrency: 128 } }));
    small = await certifyBoth(tmp(), (env) => ({
      name: env,
      embedded: { backlog: 5, maxConnections: 8 },
      run: { concurrency: 128 },
    }));
  }, 400_000);

  test('full certify in both modes: the normal verdicts, no harness error', () => {
    expect(problems(small.runs)).toEqual(problems(normal.runs));
    expect(verdictsDiffer(normal.runs, small.runs, ['normal', 'small'])).toEqual([]);
    expect(small.runs.flatMap((p) => p.results).filter((r) => r.verdict === 'error')).toEqual([]);
    // the adapted concurrency is reported (results.json `traffic`), with the calls spent per operation
    for (const p of small.runs) {
      const windows = Object.values(p.traffic?.concurrency ?? {});
      // adapted: a late answer, a timeout, a lost connect or a reset cut the window, idle connections were freed for
      // the target's places, or a burst was cut to what it accepts (a close after an answer is no limit: not counted)
      expect(
        windows.some(
          (w) =>
            w.lateAnswers + w.timeouts + (w.connectRetries ?? 0) + (w.resets ?? 0) + (w.idleFreed ?? 0) > 0 ||
            w.burstLimit !== undefined,
        ),
      ).toBe(true);
      expect(p.traffic?.calls.validate).toBeGreaterThan(0);
    }
  });
});
