/**
 * A check passes only on the whole rule (a partial check: lib/engine/check.ts `partial`). ERR-02's message half cannot
 * be judged when an invalid value of the property is not answered with a 422 naming it: the check is inconclusive,
 * naming that half, not a pass on the 422 half. MASK-03's emirates-id half has its own check: a profile with no
 * emirates-bound client leaves it not run, with the reason, while the account-id half keeps its own verdict.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { prepare, type PreparedTarget } from '../../lib/engine/run/prepare.ts';
import { createSession } from '../../lib/engine/session/session.ts';
import { runChecks, type ContextFactory } from '../../lib/engine/run/runner.ts';
import { loadProfile } from '../../lib/profile/load.ts';
import { ROOT } from '../../lib/root.ts';
import { allChecks } from '../../suites/index.ts';
import type { FullProfile } from '../../lib/profile/schema.ts';

let prepared: PreparedTarget;
beforeAll(async () => {
  prepared = await prepare(await loadProfile(`${ROOT}/profiles/mock-sandbox.json`));
});
afterAll(async () => {
  await prepared.close();
});

const checks = (...ids: string[]) => allChecks.filter((c) => ids.includes(c.id));

describe('a check that could not judge half of its rule does not pass', () => {
  test('ERR-02: the invalid value answered 400 (not a 422 to compare with): inconclusive, naming the message half', async () => {
    const session = await createSession(prepared.runtime);
    // the target as seen by the check: its answers to an invalid (present) value are 400 instead of 422
    const factory: ContextFactory = {
      profile: session.profile,
      redact: (t) => session.redact(t),
      context: (def, evidence) => {
        const ctx = session.context(def, evidence);
        return {
          ...ctx,
          api: async (call) => {
            const res = await ctx.api(call);
            return call.label?.startsWith('validate with an invalid') ? { ...res, status: 400 } : res;
          },
        };
      },
    };
    try {
      const defs = checks('errors.missing-top-level-property', 'errors.missing-nested-property');
      expect(defs).toHaveLength(2);
      const results = await runChecks(defs, factory, prepared.runtime.options);
      expect(results.map((r) => r.verdict)).toEqual(['inconclusive', 'inconclusive']);
      for (const r of results)
        expect(r.reason).toMatch(
          /422 naming it, but whether its message says the property is missing was not verified: an invalid \S+ was answered HTTP 400/,
        );
    } finally {
      await session.close();
    }
  });

  test('MASK-03 without an emirates-bound client: the emirates-id half is not run, the account-id half passes', async () => {
    const p = prepared.runtime.profile;
    const { internal: _internal, ...clients } = p.clients;
    const profile: FullProfile = { ...p, clients };
    const session = await createSession({ ...prepared.runtime, profile });
    try {
      const defs = checks('masking.unmasked-identifier-refused', 'masking.unmasked-emirates-id-refused');
      expect(defs).toHaveLength(2);
      const [account, emirates] = await runChecks(defs, session, prepared.runtime.options);
      expect(account!.verdict).toBe('pass');
      expect(emirates!.verdict).toBe('not-run');
      expect(emirates!.reason).toBe('the profile has no client bound to the emirates id of one of its customers');
    } finally {
      await session.close();
    }
  });
});
