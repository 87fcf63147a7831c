/** The log line of what a profile run spent at the target (results.json `traffic`): calls per operation, concurrency. */
import type { ProfileRun } from '../engine/results.ts';

/**
 * "mock-uat: calls validate 107, get 48, …; https://127.0.0.1:1234: window 8 → 64, 128 in flight at most, window cut
 * to 7 (3 late answers, 0 timeouts), bursts of 8 at most"; each figure says what it is: the in-flight window (the
 * calls the harness lets be in flight at once) at the start and at the end, the most calls that were in flight at
 * once; undefined without traffic
 */
export function trafficLine(run: ProfileRun): string | undefined {
  const t = run.traffic;
  if (!t) return undefined;
  const calls = Object.entries(t.calls)
    .map(([op, n]) => `${op} ${n}`)
    .join(', ');
  const windows = Object.entries(t.concurrency)
    .filter(([, w]) => w.largest > 0)
    .map(([origin, w]) => {
      const cut =
        w.lateAnswers || w.timeouts || w.connectRetries || w.resets
          ? `, window cut to ${w.smallest} (${w.lateAnswers} late answers, ${w.timeouts} timeouts${w.resets ? `, ${w.resets} resets` : ''})`
          : '';
      const burst = w.burstLimit !== undefined ? `, bursts of ${w.burstLimit} at most` : '';
      const syn = w.connectRetries ? `, ${w.connectRetries} connects tried again (SYN not answered)` : '';
      return `${origin}: window ${w.initial} → ${w.final}, ${w.largest} in flight at most${cut}${burst}${syn}`;
    });
  return `${run.profile}: calls ${calls || 'none'}; ${windows.join('; ') || 'nothing in flight'}${throttleText(t.throttle)}`;
}

/**
 * "; throttled by a gateway: 40 answers (429 ×40), 38 calls sent again after 9.1 s of waiting, 2 gave up
 * (inconclusive), 19 burst replies took no part, calls spaced up to 8 ms apart" (lib/engine/session/throttle/throttle.ts)
 */
export function throttleText(t: NonNullable<ProfileRun['traffic']>['throttle']): string {
  if (!t) return '';
  const statuses = Object.entries(t.statuses)
    .map(([s, n]) => `${s} ×${n}`)
    .join(', ');
  const gaveUp = t.gaveUp ? `, ${t.gaveUp} gave up (inconclusive)` : '';
  const bursts = t.burstReplies ? `, ${t.burstReplies} burst replies took no part` : '';
  const spacing = t.spacingMs ? `, calls spaced up to ${t.spacingMs} ms apart` : '';
  return `; throttled by a gateway: ${t.throttled} answers (${statuses}), ${t.retries} calls sent again after ${(t.waitedMs / 1000).toFixed(1)} s of waiting${gaveUp}${bursts}${spacing}`;
}
