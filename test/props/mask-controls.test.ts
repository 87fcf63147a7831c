/**
 * The masking properties' positive controls (suites/masking/property.ts): every owner's token first, then every owner's
 * control side by side, so that the property's first quota window, which the run's timeline waits for before its first
 * clock move, costs one round trip for the controls and not one an owner. Judged from the check's own evidence (the
 * exchanges' recorded start and duration, against a mock that answers 30 ms late): no control starts before the last
 * token exchange ended, and the controls overlap one another. Sent one after another, they would not.
 */
import { describe, expect, it } from 'vitest';
import { prepare } from '../../lib/engine/run/prepare.ts';
import { runChecks } from '../../lib/engine/run/runner.ts';
import { createSession } from '../../lib/engine/session/session.ts';
import { EmbeddedProfile } from '../../lib/profile/schema.ts';
import { allChecks } from '../../suites/index.ts';

const PROPERTIES = ['masking.near-miss-masks-refused-property', 'masking.clear-identifiers-refused-property'];

const span = (x: { startedAt: string; durationMs: number }) => {
  const start = Date.parse(x.startedAt);
  return { start, end: start + x.durationMs };
};

describe('masking properties: tokens first, then the controls side by side', { timeout: 120_000 }, () => {
  it.each(PROPERTIES)('%s', async (id) => {
    const profile = EmbeddedProfile.parse({
      name: 'mask-controls',
      environment: 'uat',
      embedded: { latencyMs: 30 },
      run: { dataSeed: 7, properties: { runs: 5, shrinkCalls: 0 } },
    });
    const prepared = await prepare(profile, { checkTimeoutMs: 60_000 });
    const session = await createSession(prepared.runtime);
    try {
      const [r] = await runChecks(
        allChecks.filter((c) => c.id === id),
        session,
        prepared.runtime.options,
      );
      expect(r!.verdict, r!.reason).toBe('pass');
      const exchanges = r!.evidence.exchanges;
      const controls = exchanges.filter((x) => x.label?.startsWith('positive control')).map(span);
      const tokens = exchanges.filter((x) => /^(authorize|token)\b/.test(x.label ?? '')).map(span);
      // every owner of the mock: two customers' accounts and the emirates id holder, at least
      expect(controls.length).toBeGreaterThanOrEqual(3);
      const lastToken = Math.max(0, ...tokens.map((t) => t.end));
      for (const c of controls) expect(c.start).toBeGreaterThanOrEqual(lastToken);
      // side by side: each control started before every other one ended
      const latestStart = Math.max(...controls.map((c) => c.start));
      const earliestEnd = Math.min(...controls.map((c) => c.end));
      expect(latestStart).toBeLessThan(earliestEnd);
    } finally {
      await session.close();
      await prepared.close();
    }
  });
});
