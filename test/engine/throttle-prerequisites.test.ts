/**
 * A prerequisite whose calls a gateway keeps throttling (every try answered with its page) is not established, and
 * not failed by the target: inconclusive, its checks blocked, the profile INCOMPLETE, never FAIL (a failed
 * prerequisite fails the profile: lib/engine/verdict.ts).
 */
import { afterEach, expect, test } from 'vitest';
import { establishPrerequisites } from '../../lib/engine/session/prerequisites.ts';
import { defaultRunOptions } from '../../lib/engine/run/runner.ts';
import { createSession } from '../../lib/engine/session/session.ts';
import { gatewayPage } from '../../lib/mock/server/gateway.ts';
import { startMockBank, type MockBank, type MockIntercept } from '../../lib/mock/index.ts';
import { testPki } from '../../lib/pki/index.ts';
import { FullProfile } from '../../lib/profile/schema.ts';

let mock: MockBank | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

test(
  'a partner token endpoint always throttled: its prerequisite is inconclusive, not failed',
  { timeout: 60_000 },
  async () => {
    // the gateway throttles every call of the partner's token endpoint (the bank never sees one)
    const intercept: MockIntercept = async ({ req, res }, next) => {
      if (!(req.url ?? '').startsWith('/oauth/partner_auth/token')) return next();
      res.writeHead(429, { 'content-type': 'text/html', server: 'nginx/1.22.1' });
      res.end(gatewayPage(429));
    };
    mock = await startMockBank({ mode: 'sandbox', pki: await testPki(), intercept });
    const profile = FullProfile.parse(mock.profile('always-throttled'));
    const session = await createSession({ profile, options: { ...defaultRunOptions, embedded: true }, faults: [] });
    try {
      const est = await establishPrerequisites(session, session.prerequisites);
      const cc = est.results.find((r) => r.id === 'client-credentials-token')!;
      expect([cc.verdict, cc.reason]).toEqual(['inconclusive', expect.any(String)]);
      expect(cc.reason).toMatch(/^throttled by the gateway: 6 tries over [\d.]+ s/);
      expect(session.traffic().throttle).toMatchObject({ throttled: 6, retries: 5, gaveUp: 1, statuses: { '429': 6 } });
    } finally {
      await session.close();
    }
  },
);
