/**
 * The race suite against the embedded mock: the clean mock passes every RACE check (bursts shown to overlap), and
 * each race fault fails its own id (the matrix, test/matrix, shows it fails nothing else).
 */
import { afterAll, describe, expect, test } from 'vitest';
import { EmbeddedProfile, type Environment } from '../../lib/profile/schema.ts';
import { prepare } from '../../lib/engine/run/prepare.ts';
import { startMockThread, type MockThread } from '../../lib/mock/server/thread.ts';
import { createSession } from '../../lib/engine/session/session.ts';
import { runChecks } from '../../lib/engine/run/runner.ts';
import type { CheckResult } from '../../lib/engine/results.ts';
import { suite } from '../../suites/race/checks.ts';

let thread: MockThread | undefined;
afterAll(async () => {
  await thread?.shutdown();
});

async function run(env: Environment, faults: string[], run: Record<string, number> = {}): Promise<CheckResult[]> {
  const profile = EmbeddedProfile.parse({ name: `race-${env}`, environment: env, embedded: { faults }, run });
  thread ??= startMockThread();
  const prepared = await prepare(profile, { checkTimeoutMs: 120_000 }, { mockThread: thread });
  const session = await createSession(prepared.runtime);
  try {
    return await runChecks(suite.checks, session, prepared.runtime.options);
  } finally {
    await session.close();
    await prepared.close();
  }
}

const verdicts = (rs: CheckResult[]): Record<string, string> =>
  Object.fromEntries(
    rs.map((r) => [r.requirements.join(' '), `${r.verdict}${r.verdict === 'pass' ? '' : `: ${r.reason}`}`]),
  );

describe.concurrent('race suite', { timeout: 180_000 }, () => {
  for (const env of ['sandbox', 'uat'] as const) {
    test(`clean mock (${env}): every RACE check passes, its bursts overlapped`, async () => {
      const rs = await run(env, []);
      expect(verdicts(rs)).toEqual({ 'RACE-01': 'pass', 'RACE-02': 'pass', 'RACE-03': 'pass', 'RACE-04': 'pass' });
      for (const r of rs) expect(r.evidence.notes.join('\n')).toMatch(/[1-9]\d* of \d+ bursts overlapped/);
    });
  }
  const faults: [string, string][] = [
    ['race-put-check-then-act', 'RACE-01'],
    ['race-code-exchange', 'RACE-02'],
    ['race-refresh', 'RACE-03'],
    ['race-quota', 'RACE-04'],
  ];
  for (const [fault, id] of faults) {
    test(`${fault} (sandbox) fails ${id} only`, async () => {
      const rs = await run('sandbox', [fault]);
      const broken = rs
        .filter((r) => r.verdict === 'fail' || r.verdict === 'warn')
        .map((r) => r.requirements.join(' '));
      expect(broken, JSON.stringify(verdicts(rs))).toEqual([id]);
    });
  }
  test('race-put-check-then-act beside put-other-customer-replaces (a fallback lookup of any owner) still fails RACE-01', async () => {
    // the fallback lookup is made before the race's gap too: after it, it found the transfer the concurrent PUT had
    // just saved, and the race was hidden
    const rs = await run('sandbox', ['race-put-check-then-act', 'put-other-customer-replaces'], { raceBurst: 8 });
    const r = rs.find((x) => x.requirements.includes('RACE-01'))!;
    expect(r.verdict, `${r.verdict}: ${r.reason ?? ''}`).toBe('fail');
  });
  test('a burst of 2 (profile run.raceBurst) is used as given', async () => {
    const rs = await run('sandbox', ['race-code-exchange'], { raceBurst: 2, raceRepeats: 1 });
    const r = rs.find((x) => x.requirements.includes('RACE-02'))!;
    expect(r.verdict).toBe('fail');
    expect(r.reason).toMatch(/exchanged 2 times at once issued 2 tokens/);
  });
});
