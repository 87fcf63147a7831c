/**
 * The oversized-body probe (conventions.oversize-body-413, HARD-04) sends its call again after a transport error, a
 * few times at most (suites/conventions/checks.ts OVERSIZE_ATTEMPTS): a server that closes at once after its early
 * 413 may have its answer erased by the reset on the way through a relay (RFC 9112 §9.6; a 502 or a reset through
 * mitmproxy). Reproduced by an intercept that drops the connection of the first oversized calls unanswered: the
 * check judges the answer of the next attempt and says it adapted; with every attempt dropped it is inconclusive,
 * never failed nor passed.
 */
import { afterEach, expect, test } from 'vitest';
import { startMockBank, type MockBank } from '../../lib/mock/index.ts';
import type { MockIntercept } from '../../lib/mock/types.ts';
import { testPki } from '../../lib/pki/index.ts';
import { FullProfile } from '../../lib/profile/schema.ts';
import { defaultRunOptions } from '../../lib/engine/run/runner.ts';
import { runOn } from '../fixtures/run.ts';
import { allChecks } from '../../suites/index.ts';
import { OVERSIZE_ATTEMPTS } from '../../suites/conventions/checks.ts';

let mock: MockBank | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

/** drops (no answer, the connection destroyed) the first `count` calls whose body was too large to read */
function dropOversized(count: number): { intercept: MockIntercept; dropped: () => number } {
  let dropped = 0;
  const intercept: MockIntercept = async ({ req, body }, next) => {
    if (body === undefined && req.method === 'POST' && dropped < count) {
      dropped += 1;
      req.socket.destroy();
      return;
    }
    return next();
  };
  return { intercept, dropped: () => dropped };
}

async function oversizeVerdict(
  drop: number,
): Promise<{ verdict: string; reason: string; notes: string[]; dropped: number }> {
  const d = dropOversized(drop);
  mock = await startMockBank({ mode: 'sandbox', pki: await testPki(), intercept: d.intercept });
  const profile = FullProfile.parse(mock.profile('oversize-lost'));
  const checks = allChecks.filter((c) => c.id === 'conventions.oversize-body-413');
  const [r] = await runOn(profile, { ...defaultRunOptions, embedded: true }, checks);
  return { verdict: r!.verdict, reason: r!.reason ?? '', notes: r!.evidence.notes, dropped: d.dropped() };
}

test('an oversized call that got no answer is sent again: the next answer is judged, the adaptation said', async () => {
  const r = await oversizeVerdict(OVERSIZE_ATTEMPTS - 1);
  expect(r.dropped).toBe(OVERSIZE_ATTEMPTS - 1);
  expect(r.verdict, r.reason).toBe('pass');
  expect(r.notes.join('\n')).toMatch(
    new RegExp(`sent ${OVERSIZE_ATTEMPTS} times .*${OVERSIZE_ATTEMPTS - 1} got no HTTP answer`),
  );
});

test('no attempt answered: inconclusive, naming the attempts', async () => {
  const r = await oversizeVerdict(OVERSIZE_ATTEMPTS + 5);
  expect(r.dropped).toBe(OVERSIZE_ATTEMPTS);
  expect(r.verdict).toBe('inconclusive');
  expect(r.reason).toContain(`no HTTP answer in ${OVERSIZE_ATTEMPTS} attempts`);
});
