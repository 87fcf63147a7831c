/** certify's traffic line (lib/report/traffic.ts): each figure of an origin's in-flight window says what it is */
import { describe, expect, it } from 'vitest';
import type { ProfileRun } from '../../lib/engine/results.ts';
import { trafficLine } from '../../lib/report/traffic.ts';
import { fixtureResults } from '../fixtures/results.ts';

const run = (traffic: ProfileRun['traffic']): ProfileRun => ({ ...fixtureResults().profiles[0]!, traffic });

describe('trafficLine', () => {
  it('names the window at the start and at the end, and the most calls in flight, apart', () => {
    const line = trafficLine(
      run({
        calls: { validate: 950, token: 180 },
        concurrency: {
          'https://127.0.0.1:41847': {
            initial: 8,
            final: 512,
            largest: 203,
            smallest: 8,
            lateAnswers: 0,
            timeouts: 0,
          },
          'http://127.0.0.1:36469': { initial: 8, final: 8, largest: 1, smallest: 8, lateAnswers: 0, timeouts: 0 },
          // an origin no call went to is left out
          'http://127.0.0.1:1': { initial: 8, final: 8, largest: 0, smallest: 8, lateAnswers: 0, timeouts: 0 },
        },
      }),
    );
    expect(line).toBe(
      'mock-sandbox: calls validate 950, token 180; https://127.0.0.1:41847: window 8 → 512, 203 in flight at most; ' +
        'http://127.0.0.1:36469: window 8 → 8, 1 in flight at most',
    );
  });

  it('says what cut the window, the bursts the target took and the connects tried again', () => {
    const line = trafficLine(
      run({
        calls: { get: 3 },
        concurrency: {
          'https://127.0.0.1:2': {
            initial: 8,
            final: 12,
            largest: 9,
            smallest: 4,
            lateAnswers: 3,
            timeouts: 1,
            resets: 2,
            burstLimit: 5,
            connectRetries: 6,
          },
        },
      }),
    );
    expect(line).toBe(
      'mock-sandbox: calls get 3; https://127.0.0.1:2: window 8 → 12, 9 in flight at most, window cut to 4 ' +
        '(3 late answers, 1 timeouts, 2 resets), bursts of 5 at most, 6 connects tried again (SYN not answered)',
    );
  });

  it('says when nothing was in flight, and nothing without traffic', () => {
    expect(trafficLine(run({ calls: {}, concurrency: {} }))).toBe('mock-sandbox: calls none; nothing in flight');
    expect(trafficLine(run(undefined))).toBeUndefined();
  });
});
