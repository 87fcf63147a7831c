/**
 * QUOTA-02 sends its get control with the validate filling (one round trip less). A control served shows get's
 * window open while validate was not yet exhausted, as one sent alone would; a control refused shows nothing (its
 * own window spent, or counted once validate was exhausted and the counters shared): the check runs again in a
 * fresh window with the control alone first, so a target that shares its counters still fails.
 * The condition: a target whose read path is slow (the mock's intercept holds the first GET of a transfer until
 * the validate filling has been handled), so that the control is counted after the filling.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { startMockBank, type MockBank } from '../../lib/mock/index.ts';
import type { MockIntercept } from '../../lib/mock/types.ts';
import { testPki } from '../../lib/pki/index.ts';
import { FullProfile } from '../../lib/profile/schema.ts';
import { defaultRunOptions } from '../../lib/engine/run/runner.ts';
import { runOn } from '../fixtures/run.ts';
import { allChecks } from '../../suites/index.ts';

const apart = allChecks.filter((c) => c.id === 'quota.operations-counted-apart');

let mock: MockBank | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

/**
 * holds the first GET of a transfer until `count` more validate calls have been handled (at most `boundMs`), and
 * says whether it held one
 */
function slowFirstRead(count: number, boundMs = 20_000): { intercept: MockIntercept; held: () => boolean } {
  let validates = 0;
  let held = false;
  const waiters: { at: number; go: () => void }[] = [];
  const intercept: MockIntercept = async ({ req }, next) => {
    const path = req.url ?? '';
    if (req.method === 'POST' && path.endsWith('/transfers/validate')) {
      await next();
      validates++;
      for (const w of waiters.filter((x) => validates >= x.at)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.go();
      }
      return;
    }
    if (req.method === 'GET' && path.includes('/transfers/') && !held) {
      held = true;
      await new Promise<void>((go) => {
        const timer = setTimeout(go, boundMs);
        waiters.push({
          at: validates + count,
          go: () => {
            clearTimeout(timer);
            go();
          },
        });
      });
    }
    await next();
  };
  return { intercept, held: () => held };
}

async function run(faults: string[]) {
  const slow = slowFirstRead(101);
  mock = await startMockBank({ mode: 'sandbox', pki: await testPki(), faults, intercept: slow.intercept });
  const profile = FullProfile.parse(mock.profile('slow-read'));
  const [r] = await runOn(profile, { ...defaultRunOptions, embedded: true }, apart);
  expect(slow.held()).toBe(true);
  return r!;
}

describe('QUOTA-02: the control sent with the filling', () => {
  test('served after the filling, counters apart: pass in one window', { timeout: 60_000 }, async () => {
    expect(apart).toHaveLength(1);
    const r = await run([]);
    expect([r.verdict, r.reason ?? '']).toEqual(['pass', '']);
    const labels = r.evidence.exchanges.map((e) => e.label ?? '');
    expect(labels.filter((l) => l === 'get sent with the validate filling (control)')).toHaveLength(1);
    expect(labels.filter((l) => l.includes('before validate is exhausted'))).toHaveLength(0);
  });

  test(
    'refused after the filling, counters shared: again with the control first, and fail (warn: a SHOULD)',
    { timeout: 60_000 },
    async () => {
      const r = await run(['quota-shared-window']);
      // a SHOULD: its failure is a warning
      expect(r.verdict).toBe('warn');
      expect(r.reason).toMatch(/the operations share one counter/);
      const notes = r.evidence.notes.join('\n');
      expect(notes).toMatch(/sent with the validate filling \(control\) was refused \(HTTP 429\)/);
      expect(notes).toMatch(/the check ran again in a fresh window, the control before the filling/);
      const labels = r.evidence.exchanges.map((e) => e.label ?? '');
      expect(labels).toContain('get before validate is exhausted (control)');
    },
  );
});
