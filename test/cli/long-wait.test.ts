/**
 * --long says what it is waiting for: a check that waits real time (no test clock) tells the console, as it starts,
 * which check waits, how long and for what (certify prints it), so that a quiet console is not taken for a hang.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startMockBank, type MockBank } from '../../lib/mock/index.ts';
import { testPki } from '../../lib/pki/index.ts';
import { FullProfile } from '../../lib/profile/schema.ts';
import { defaultRunOptions } from '../../lib/engine/run/runner.ts';
import { runOn } from '../fixtures/run.ts';
import { allChecks } from '../../suites/index.ts';

let mock: MockBank;
let profile: FullProfile;
beforeAll(async () => {
  mock = await startMockBank({ mode: 'sandbox', pki: await testPki(), limits: { codeSeconds: 2 } });
  const { clock: _clock, ...target } = mock.profile('long-wait').target;
  profile = FullProfile.parse({ ...mock.profile('long-wait'), target });
});
afterAll(async () => {
  await mock.close();
});

describe('--long says what it waits for', () => {
  test(
    'each real wait is announced with the check, its requirement, the seconds and the title',
    { timeout: 30_000 },
    async () => {
      const said: string[] = [];
      const checks = allChecks.filter((c) => c.id === 'tokens.code-expires');
      const options = {
        ...defaultRunOptions,
        long: true,
        embedded: true,
        maxWaitSeconds: 10,
        onWait: (w: string) => said.push(w),
      };
      const [r] = await runOn(profile, options, checks);
      expect(r?.verdict, r?.reason).toBe('pass');
      expect(said.length).toBeGreaterThan(0);
      expect(said[0]).toMatch(
        /^tokens\.code-expires \[TOK-\d+\]: waiting [23] s of real time \(--long, no test clock\): \S/,
      );
    },
  );
});
