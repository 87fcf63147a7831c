/**
 * A property's positive control answered with the contract's quota answer (the bank's window of that client and
 * operation spent by calls this run never saw: a run just before, another profile's): with the test clock the search
 * moves to a fresh window and sends the control again, then judges its inputs; it does not end inconclusive on a 429
 * ("the valid base document: expected HTTP 200, observed 429").
 */
import { describe, expect, test } from 'vitest';
import type { CheckDefinition } from '../../lib/engine/check.ts';
import { defaultRunOptions } from '../../lib/engine/run/runner.ts';
import { startMockBank } from '../../lib/mock/index.ts';
import { testPki } from '../../lib/pki/index.ts';
import { FullProfile } from '../../lib/profile/schema.ts';
import { allChecks } from '../../suites/index.ts';
import { runOn } from '../fixtures/run.ts';

/** another run's calls: the code and partner clients' validate windows filled, to the quota */
const fill: CheckDefinition = {
  id: 'test.fill-validate',
  suite: 'test',
  requirements: ['QUOTA-01'],
  // fills the windows on purpose: its calls are not planned on the ledger (lib/engine/session/quota-windows.ts)
  needs: ['destructive'],
  title: "another run's validate calls",
  async run(ctx) {
    const c = ctx.customer({ workflow: false });
    for (const [as, token] of [
      ['code', await ctx.tokens.codeToken(c)],
      ['partner', (await ctx.tokens.partnerToken()) as string],
    ] as const)
      for (let i = 0; i < ctx.profile.contract.quota.perHour; i++)
        await ctx.api({ op: 'validate', as, token, body: ctx.transferBody(c), label: 'another run' });
  },
};

const documents = allChecks.filter((c) => c.id === 'errors.invalid-documents-property');

describe("a property's positive control answered with the quota's answer", () => {
  test(
    'with a test clock: a fresh window, the control again, the property verified',
    { timeout: 120_000 },
    async () => {
      expect(documents).toHaveLength(1);
      const mock = await startMockBank({ mode: 'sandbox', pki: await testPki(), faults: [] });
      try {
        const profile = FullProfile.parse(mock.profile('spent'));
        const [f] = await runOn(profile, { ...defaultRunOptions, destructive: true }, [fill]);
        expect(f!.verdict).toBe('pass');
        const [r] = await runOn(profile, { ...defaultRunOptions, checkTimeoutMs: 60_000 }, documents);
        expect(r!.verdict, r!.reason).toBe('pass');
        expect(r!.evidence.property?.quotaAnswers).toBeGreaterThanOrEqual(1);
        expect(r!.evidence.property?.windowMoves).toBeGreaterThanOrEqual(1);
        expect(r!.evidence.notes.join('\n')).toMatch(/the positive control met the contract's quota answer/);
      } finally {
        await mock.close();
      }
    },
  );

  test(
    'without a test clock: inconclusive, saying the window is spent and no clock moves it',
    { timeout: 120_000 },
    async () => {
      const mock = await startMockBank({ mode: 'sandbox', pki: await testPki(), faults: [] });
      try {
        const input = mock.profile('spent-no-clock');
        const profile = FullProfile.parse({ ...input, target: { ...input.target, clock: undefined } });
        expect(profile.target.clock).toBeUndefined();
        await runOn(profile, { ...defaultRunOptions, destructive: true }, [fill]);
        const [r] = await runOn(profile, { ...defaultRunOptions, checkTimeoutMs: 60_000 }, documents);
        expect(r!.verdict).toBe('inconclusive');
        expect(r!.reason).toMatch(/contract's quota answer .*no test clock to move to a fresh window/);
      } finally {
        await mock.close();
      }
    },
  );
});
