/**
 * The consents a run will ask for, counted up front (lib/engine/run/consents.ts): the count is what the checks really
 * send to /authorize (read from their recorded evidence, not from the counter), and a selection without the code
 * flow asks for none.
 */
import { describe, expect, it } from 'vitest';
import { countConsents } from '../../lib/engine/run/consents.ts';
import { prepare } from '../../lib/engine/run/prepare.ts';
import { runChecks } from '../../lib/engine/run/runner.ts';
import { createSession } from '../../lib/engine/session/session.ts';
import { EmbeddedProfile } from '../../lib/profile/schema.ts';
import { allChecks } from '../../suites/index.ts';

const tokens = allChecks.filter((c) => c.suite === 'tokens');

describe('consents counted up front', () => {
  it('counts the /authorize requests a person would answer, no more than the checks send', async () => {
    const counted = await countConsents('sandbox', tokens, {});
    const prepared = await prepare(EmbeddedProfile.parse({ name: 'c', environment: 'sandbox', embedded: {} }));
    const session = await createSession(prepared.runtime);
    try {
      const results = await runChecks(tokens, session, prepared.runtime.options);
      const sent = results.flatMap((r) => r.evidence.exchanges).filter((x) => /\/authorize(\?|$)/.test(x.url)).length;
      expect(counted).toBeGreaterThan(0);
      expect(counted).toBeLessThanOrEqual(sent);
      expect(counted).toBe(session.consentsAsked());
    } finally {
      await session.close();
      await prepared.close();
    }
  }, 60_000);

  it('a selection without the code flow asks for none', async () => {
    const tls = allChecks.filter((c) => c.suite === 'tls');
    expect(await countConsents('sandbox', tls, {})).toBe(0);
  }, 60_000);
});
