/**
 * The jku/x5u canary must be reachable by the target: against a real target the check that needs it is not run
 * without run.canaryHost (with the reason); with it, or against the embedded mock (loopback), it runs.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { defaultRunOptions, runCheck, type ContextFactory } from '../../lib/engine/run/runner.ts';
import { startMockBank, type MockBank } from '../../lib/mock/index.ts';
import { testPki } from '../../lib/pki/index.ts';
import { FullProfile } from '../../lib/profile/schema.ts';
import { allChecks } from '../../suites/index.ts';

let mock: MockBank;
beforeAll(async () => {
  mock = await startMockBank({ mode: 'uat', pki: await testPki() });
});
afterAll(() => mock.close());

const check = () => allChecks.find((c) => c.id === 'jose.header-key-urls-not-fetched')!;

/** a factory whose context is never reached: the runner's whyNotRunnable decides first */
function factory(run: Record<string, unknown>): ContextFactory {
  return {
    profile: FullProfile.parse({ ...mock.profile(), run }),
    redact: (t) => t,
    context: () => {
      throw new Error('the check ran');
    },
  };
}

test('a real target without run.canaryHost: not run, and the reason says why', async () => {
  const r = await runCheck(check(), factory({}), { ...defaultRunOptions, embedded: false });
  expect(r.verdict).toBe('not-run');
  expect(r.reason).toMatch(/canaryHost/);
});

test('with run.canaryHost, or against the embedded mock, the check runs', async () => {
  for (const [run, embedded] of [
    [{ canaryHost: '127.0.0.1' }, false],
    [{}, true],
  ] as const) {
    // past whyNotRunnable, the runner asks for a context: this factory throws there
    await expect(runCheck(check(), factory(run), { ...defaultRunOptions, embedded })).rejects.toThrow('the check ran');
  }
});
