/**
 * The fixed masking checks count only the identifier's refusal (suites/masking/refusal.ts, as the property does): a
 * gateway in front of the bank that answers a mask written with `X` or `*` with a 403 and no body has refused
 * something, but nothing shows that it was the identifier's rule: the check is inconclusive, where it passed before.
 * A crash (5xx) still fails it.
 */
import { afterEach, expect, test } from 'vitest';
import { startMockBank, type MockBank } from '../../lib/mock/index.ts';
import type { MockIntercept } from '../../lib/mock/types.ts';
import { testPki } from '../../lib/pki/index.ts';
import { FullProfile } from '../../lib/profile/schema.ts';
import { defaultRunOptions } from '../../lib/engine/run/runner.ts';
import { runOn } from '../fixtures/run.ts';
import { allChecks } from '../../suites/index.ts';

let mock: MockBank | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

/** answers a validate whose account id holds `X` or `*` itself, with `status` and no body */
function refuseOtherMasks(status: number): MockIntercept {
  return async ({ req, res, body }, next) => {
    const text = body?.toString('utf8') ?? '';
    if (req.method === 'POST' && req.url?.endsWith('/transfers/validate') && /"account_id":"[^"]*[X*]/.test(text)) {
      res.writeHead(status, { 'content-length': '0' });
      res.end();
      return;
    }
    await next();
  };
}

async function verdictOf(status: number): Promise<{ verdict: string; reason?: string }> {
  mock = await startMockBank({ mode: 'sandbox', pki: await testPki(), intercept: refuseOtherMasks(status) });
  const profile = FullProfile.parse(mock.profile('fixed-attribution'));
  const checks = allChecks.filter((c) => c.id === 'masking.target-refuses-other-mask-characters');
  const [r] = await runOn(profile, { ...defaultRunOptions, embedded: true }, checks);
  return { verdict: r!.verdict, ...(r!.reason ? { reason: r!.reason } : {}) };
}

test('a 403 with no body is no evidence that the mask was refused', { timeout: 60_000 }, async () => {
  const r = await verdictOf(403);
  expect(r.verdict).toBe('inconclusive');
  expect(r.reason).toMatch(/without the API's error answer/);
});

test('a 500 is never a refusal', { timeout: 60_000 }, async () => {
  expect((await verdictOf(500)).verdict).toBe('fail');
});
