/**
 * --deadline is a hard limit (README, "Time: the test clock, `--long` and `--deadline`"): a real wait (--long, no
 * test clock) is cut at the deadline and its note says what was waited; a check whose wait cannot end before the
 * deadline is not run, with the reason;
 * a check's wait is its own (a code's, not the longest of its clock group); the command exits within a few seconds
 * of the deadline with its reports written. Against the mock with short lifetimes and no test clock in the profile.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startMockBank, type MockBank } from '../../lib/mock/index.ts';
import { testPki } from '../../lib/pki/index.ts';
import { FullProfile, type FullProfileInput } from '../../lib/profile/schema.ts';
import { defaultRunOptions } from '../../lib/engine/run/runner.ts';
import type { CheckDefinition } from '../../lib/engine/check.ts';
import type { RunResults } from '../../lib/engine/results.ts';
import { allChecks } from '../../suites/index.ts';
import { runOn } from '../fixtures/run.ts';
import { createSession } from '../../lib/engine/session/session.ts';
import { runSessionChecks } from '../../lib/engine/run/schedule.ts';
import { tempDirs } from '../fixtures/tmp.ts';
import { runCertify } from '../cli/run-certify.ts';

const tmp = tempDirs('deadline-');
let mock: MockBank;
/** the mock as a target without a test clock: 2 s codes, the contract's hour for access tokens */
let described: FullProfileInput;
let profile: FullProfile;
beforeAll(async () => {
  mock = await startMockBank({ mode: 'sandbox', pki: await testPki(), limits: { codeSeconds: 2 } });
  const full = mock.profile('no-clock');
  const { clock: _clock, ...target } = full.target;
  described = { ...full, target };
  profile = FullProfile.parse(described);
});
afterAll(async () => {
  await mock.close();
});

const byId = (id: string): CheckDefinition => allChecks.find((c) => c.id === id)!;

function options(deadlineInMs: number) {
  return { ...defaultRunOptions, long: true, deadlineAt: Date.now() + deadlineInMs };
}

describe('--long --deadline against a target without a test clock', () => {
  test('a real wait is cut at the deadline, says what it waited, and the check sends nothing after', async () => {
    let sentAfter: string | undefined;
    let ended = false;
    const waiting: CheckDefinition = {
      id: 'tokens.test-wait',
      suite: 'tokens',
      requirements: ['TOK-05'],
      title: 'declares 1 s, waits 30 s',
      needs: ['clock'],
      waitSeconds: 1,
      run: async (ctx) => {
        try {
          await ctx.clock.advance(30);
        } catch {
          // a check that goes on after its wait was cut must not reach the target
          sentAfter = await ctx.api({ op: 'get', token: null }).then(
            (r) => `HTTP ${r.status}`,
            (e: unknown) => `refused: ${String(e)}`,
          );
        } finally {
          ended = true;
        }
      },
    };
    const t0 = performance.now();
    const [r] = await runOn(profile, options(1500), [waiting]);
    const tookMs = performance.now() - t0;
    expect(r!.verdict).toBe('not-run');
    expect(r!.reason).toMatch(/the run deadline \(--deadline\) passed while the check ran/);
    expect(tookMs).toBeLessThan(1500 + 1000);
    const note = r!.evidence.notes.find((n) => n.startsWith('waited'));
    expect(note).toMatch(/^waited 1\.\d s of real time of the 30 s asked \(no test clock\): the run deadline/);
    await new Promise((res) => setImmediate(res));
    expect(ended).toBe(true);
    expect(sentAfter).toMatch(/^refused: NotRun: the run deadline/);
    expect(r!.evidence.exchanges).toEqual([]);
  });

  test("a check's wait is its own: TOK-05 waits its code's 3 s, TOK-06's hour is not run up front", async () => {
    const t0 = performance.now();
    const results = await runOn(profile, options(15_000), [
      byId('tokens.code-expires'),
      byId('tokens.access-token-expires'),
    ]);
    const tookMs = performance.now() - t0;
    const [code, access] = results;
    expect(code).toMatchObject({ checkId: 'tokens.code-expires', verdict: 'pass' });
    expect(code!.evidence.notes).toContain('waited 3 s of real time (no test clock)');
    expect(access).toMatchObject({ checkId: 'tokens.access-token-expires', verdict: 'not-run' });
    expect(access!.reason).toMatch(
      /^would wait 3601 s of real time \(no test clock\); the run deadline \(--deadline\) leaves 1[45] s$/,
    );
    expect(access!.evidence.exchanges).toEqual([]);
    expect(tookMs).toBeLessThan(15_000);
  });

  test('a slow target: prerequisites not established by the deadline are inconclusive, saying so; the run ends then', async () => {
    // every answer 2 s late: reach-api by 2 s, the token prerequisites (1 and 2 round trips: 4 s, 6 s) past the deadline
    const slow = await startMockBank({ mode: 'sandbox', pki: await testPki(), latencyMs: 2000 });
    try {
      const target = FullProfile.parse(slow.profile('slow'));
      const opts = { ...defaultRunOptions, deadlineAt: Date.now() + 3000 };
      const t0 = performance.now();
      const session = await createSession({ profile: target, options: opts, faults: [] });
      let out;
      try {
        out = await runSessionChecks(session, allChecks, opts);
      } finally {
        await session.close();
      }
      const tookMs = performance.now() - t0;
      // the deadline, and the second a request in flight is given after it (then the session closes at once)
      expect(tookMs).toBeLessThan(3000 + 2000);
      const verdicts = Object.fromEntries(out.established.results.map((r) => [r.id, [r.verdict, r.reason ?? '']]));
      expect(verdicts['reach-api']![0]).toBe('pass');
      for (const id of ['client-credentials-token', 'code-grant'])
        expect(verdicts[id]).toEqual([
          'inconclusive',
          'the run deadline (--deadline) passed before it was established',
        ]);
      // nothing judged after the deadline: not run, or blocked by a prerequisite the deadline cut
      for (const r of out.results) {
        const cut = r.verdict === 'inconclusive' && /the run deadline \(--deadline\)/.test(r.reason ?? '');
        expect(r.verdict === 'not-run' || r.verdict === 'not-applicable' || cut, `${r.checkId} ${r.verdict}`).toBe(
          true,
        );
      }
      expect(out.results.some((r) => /the run deadline \(--deadline\)/.test(r.reason ?? ''))).toBe(true);
    } finally {
      await slow.close();
    }
  });

  test(
    'certify --long --deadline 6: the command exits within a few seconds of it, reports written, honest notes',
    { timeout: 60_000 },
    async () => {
      const dir = tmp();
      const path = join(dir, 'no-clock.json');
      writeFileSync(path, JSON.stringify(described));
      const deadline = 6;
      const t0 = performance.now();
      const run = await runCertify(['--profile', path, '--long', '--deadline', String(deadline), '--out', dir]);
      const tookS = (performance.now() - t0) / 1000;
      expect([0, 5], run.stderr).toContain(run.code);
      const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as RunResults;
      const ranS = (Date.parse(results.finishedAt) - Date.parse(results.startedAt)) / 1000;
      expect(ranS).toBeLessThan(deadline + 2);
      expect(tookS).toBeLessThan(deadline + 5);
      const checks = results.profiles[0]!.results;
      const access = checks.find((c) => c.checkId === 'tokens.access-token-expires')!;
      expect(access.verdict).toBe('not-run');
      expect(access.reason).toMatch(/would wait 3601 s of real time/);
      // every real wait noted is one that happened: at most the deadline
      const waited = checks
        .flatMap((c) => c.evidence.notes)
        .flatMap((n) => /^waited ([\d.]+) s of real time/.exec(n)?.slice(1) ?? [])
        .map(Number);
      expect(waited.filter((s) => s > deadline)).toEqual([]);
    },
  );
});
