/**
 * A property search leaves the quota windows it spent fresh behind it (with a test clock): a run after it against the
 * same bank starts with a ledger that knows nothing of them, and its fixed checks (which run before any property
 * and have no fresh window to move to) must not meet the quota's answer this search caused.
 */
import { describe, expect, test } from 'vitest';
import type { CheckDefinition } from '../../lib/engine/check.ts';
import { defaultRunOptions } from '../../lib/engine/run/runner.ts';
import { startMockBank } from '../../lib/mock/index.ts';
import { testPki } from '../../lib/pki/index.ts';
import { FullProfile } from '../../lib/profile/schema.ts';
import { allChecks } from '../../suites/index.ts';
import { runOn } from '../fixtures/run.ts';

const documents = allChecks.filter((c) => c.id === 'errors.invalid-documents-property');

/** a fixed check of the next run: the partner's validate calls, as many as the quota less one, every one served */
const next: CheckDefinition = {
  id: 'test.next-run-validate',
  suite: 'test',
  requirements: ['QUOTA-01'],
  title: "the next run's validate calls",
  async run(ctx) {
    const c = ctx.customer({ workflow: false });
    const token = await ctx.tokens.partnerToken();
    const statuses: number[] = [];
    for (let i = 0; i < ctx.profile.contract.quota.perHour - 1; i++)
      statuses.push((await ctx.api({ op: 'validate', as: 'partner', token, body: ctx.transferBody(c) })).status);
    const refused = statuses.filter((s) => s !== 200);
    if (refused.length > 0) throw new Error(`validate refused ${refused.length} times: HTTP ${refused.join(', ')}`);
  },
};

describe('after a property search', () => {
  test('the next run against the same bank finds fresh windows', { timeout: 120_000 }, async () => {
    expect(documents).toHaveLength(1);
    const mock = await startMockBank({ mode: 'sandbox', pki: await testPki(), faults: [] });
    try {
      const profile = FullProfile.parse(mock.profile('leaves-fresh'));
      const [p] = await runOn(profile, { ...defaultRunOptions, checkTimeoutMs: 60_000 }, documents);
      expect(p!.verdict, p!.reason).toBe('pass');
      const [r] = await runOn(profile, { ...defaultRunOptions, checkTimeoutMs: 60_000 }, [next]);
      expect(r!.verdict, r!.reason).toBe('pass');
    } finally {
      await mock.close();
    }
  });
});
