/**
 * --deadline is a hard limit (README, "Time: the test clock, `--long` and `--deadline`"): a real wait (--long, no
 * test clock) is cut at the deadline and its note says what was waited; a check whose wait cannot end before the
 * deadline is not run, with the reason;
 * a check's wait is its own (a code's, not the longest of its clock group); the command exits with its reports
 * written. Against the mock with short lifetimes and no test clock in the profile.
 * The run's time in the first three tests is the test's (TestTime): Date, performance.now and the timers are faked,
 * and moved by the test only while something waits for time (a check's real wait, an answer the mock holds back);
 * the calls to the mock are real I/O and take none of it, so that the verdicts and the times asserted do not depend
 * on the machine's speed.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { startMockBank, type MockBank, type MockIntercept } from '../../lib/mock/index.ts';
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

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const byId = (id: string): CheckDefinition => allChecks.find((c) => c.id === id)!;

/**
 * The test's time for a run: Date, performance.now and the timers faked (start), moved 100 ms at a step only while
 * something waits for time (`waiting` > 0: a check's wait, counted by `waits`, an answer the mock holds back); a run
 * with nothing waiting moves no time, however slowly the machine does its real I/O.
 */
class TestTime {
  waiting = 0;
  /** the test's time moved in all (ms) */
  moved = 0;
  start(): void {
    vi.useFakeTimers({
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date', 'performance'],
    });
    // a request's limit (lib/http/client.ts) on the test's time too: Node's AbortSignal.timeout keeps its own timer
    vi.spyOn(AbortSignal, 'timeout').mockImplementation((ms: number) => {
      const c = new AbortController();
      setTimeout(() => c.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')), ms);
      return c.signal;
    });
  }
  /** `p` run until it settles (bounded), the test's time moved while something waits */
  async drive<T>(p: Promise<T>): Promise<T> {
    let settled = false;
    const done = p.finally(() => (settled = true));
    done.catch(() => undefined);
    for (let i = 0; i < 200_000 && !settled; i++) {
      await new Promise((r) => setImmediate(r));
      if (this.waiting > 0) {
        await vi.advanceTimersByTimeAsync(100);
        this.moved += 100;
      }
    }
    return done;
  }
  /** a promise counted as waiting while it is pending */
  while<T>(p: Promise<T>): Promise<T> {
    this.waiting++;
    return p.finally(() => this.waiting--);
  }
  /** `def` whose waits on its clock (advance, waitFor and the like: a real wait without a test clock) are counted */
  waits(def: CheckDefinition): CheckDefinition {
    const counted = new Set(['advance', 'waitFor', 'advanceTogether', 'ensurePassed']);
    return {
      ...def,
      run: (ctx) => {
        const clock = new Proxy(ctx.clock, {
          get: (t, k, r) => {
            const v: unknown = Reflect.get(t, k, r);
            return typeof v === 'function' && counted.has(String(k))
              ? (...a: unknown[]) => this.while(Promise.resolve((v as (...x: unknown[]) => unknown).apply(t, a)))
              : v;
          },
        });
        return def.run(new Proxy(ctx, { get: (t, k, r) => (k === 'clock' ? clock : Reflect.get(t, k, r)) }));
      },
    };
  }
}

function options(deadlineInMs: number) {
  return { ...defaultRunOptions, long: true, deadlineAt: Date.now() + deadlineInMs };
}

describe('--long --deadline against a target without a test clock', () => {
  test('a real wait is cut at the deadline, says what it waited, and the check sends nothing after', async () => {
    let sentAfter: string | undefined;
    let ended = false;
    const time = new TestTime();
    const waiting: CheckDefinition = {
      id: 'tokens.test-wait',
      suite: 'tokens',
      requirements: ['TOK-05'],
      title: 'declares 1 s, waits 30 s',
      needs: ['clock'],
      waitSeconds: 1,
      run: async (ctx) => {
        try {
          await time.while(ctx.clock.advance(30));
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
    time.start();
    const [r] = await time.drive(runOn(profile, options(1500), [waiting]));
    expect(r!.verdict).toBe('not-run');
    expect(r!.reason).toMatch(/the run deadline \(--deadline\) passed while the check ran/);
    // stopped at the deadline on the run's time: the check's duration, and the time the run waited in all
    expect(r!.durationMs).toBe(1500);
    expect(time.moved).toBeLessThanOrEqual(1500 + 100);
    const note = r!.evidence.notes.find((n) => n.startsWith('waited'));
    expect(note).toMatch(/^waited 1\.5 s of real time of the 30 s asked \(no test clock\): the run deadline/);
    await new Promise((res) => setImmediate(res));
    expect(ended).toBe(true);
    expect(sentAfter).toMatch(/^refused: NotRun: the run deadline/);
    expect(r!.evidence.exchanges).toEqual([]);
  });

  test("a check's wait is its own: TOK-05 waits its code's 3 s, TOK-06's hour is not run up front", async () => {
    const time = new TestTime();
    time.start();
    const results = await time.drive(
      runOn(profile, options(15_000), [
        time.waits(byId('tokens.code-expires')),
        time.waits(byId('tokens.access-token-expires')),
      ]),
    );
    const [code, access] = results;
    expect(code).toMatchObject({ checkId: 'tokens.code-expires', verdict: 'pass' });
    expect(code!.evidence.notes).toContain('waited 3 s of real time (no test clock)');
    expect(access).toMatchObject({ checkId: 'tokens.access-token-expires', verdict: 'not-run' });
    expect(access!.reason).toMatch(
      /^would wait 3601 s of real time \(no test clock\); the run deadline \(--deadline\) leaves 15 s$/,
    );
    expect(access!.evidence.exchanges).toEqual([]);
    // the run waited TOK-05's 3 s on its time, nothing more (not the hour, nor up to the deadline)
    expect(time.moved).toBeGreaterThanOrEqual(3000);
    expect(time.moved).toBeLessThanOrEqual(3000 + 100);
  });

  test('a slow target: prerequisites not established by the deadline are inconclusive, saying so; the run ends then', async () => {
    // every answer 2.5 s late on the test's time (held by the mock until then, or until the harness gives it up):
    // reach-api by 2.5 s, the token prerequisites (1 and 2 round trips: 5 s, 7.5 s) past the deadline
    const time = new TestTime();
    const late: MockIntercept = async ({ req }, next) => {
      await time.while(
        new Promise<void>((go) => {
          const timer = setTimeout(go, 2500);
          req.socket.once('close', () => (clearTimeout(timer), go()));
        }),
      );
      if (!req.socket.destroyed) await next();
    };
    const slow = await startMockBank({ mode: 'sandbox', pki: await testPki(), intercept: late });
    try {
      const target = FullProfile.parse(slow.profile('slow'));
      time.start();
      const opts = { ...defaultRunOptions, deadlineAt: Date.now() + 3000 };
      const t0 = performance.now();
      let endedAt = Infinity;
      let closedAt = Infinity;
      const out = await time.drive(
        (async () => {
          const session = await createSession({ profile: target, options: opts, faults: [] });
          try {
            return await runSessionChecks(session, allChecks, opts);
          } finally {
            endedAt = performance.now();
            await session.close();
            closedAt = performance.now();
          }
        })(),
      );
      // on the run's time: the checks end at the deadline, and the session is closed once the second a request in
      // flight is given after it has passed (the mock would have answered the token call at 5 s)
      expect(endedAt - t0).toBe(3000);
      expect(closedAt - t0).toBeLessThanOrEqual(3000 + 1000 + 100);
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
    'certify --long --deadline: a wait that cannot end before it is not run, the others wait their own; reports written, honest notes',
    { timeout: 60_000 },
    async () => {
      // the command's own wiring of --deadline; its cut of a wait under way, and the second given to a request in
      // flight, are shown above on the run's time (a process's wall time would measure the machine)
      const dir = tmp();
      const path = join(dir, 'no-clock.json');
      writeFileSync(path, JSON.stringify(described));
      const deadline = 600;
      const run = await runCertify([
        '--profile',
        path,
        '--only',
        'TOK-05,TOK-06',
        '--long',
        '--deadline',
        String(deadline),
        '--out',
        dir,
      ]);
      // INCOMPLETE: TOK-06 not run
      expect(run.code, run.stderr).toBe(5);
      const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as RunResults;
      const checks = results.profiles[0]!.results;
      const access = checks.find((c) => c.checkId === 'tokens.access-token-expires')!;
      expect(access.verdict).toBe('not-run');
      expect(access.reason).toMatch(
        /^would wait 3601 s of real time \(no test clock\); the run deadline \(--deadline\) leaves \d+ s$/,
      );
      expect(access.evidence.exchanges).toEqual([]);
      const code = checks.find((c) => c.checkId === 'tokens.code-expires')!;
      expect(code.verdict).toBe('pass');
      // every real wait noted is one that happened, whole: TOK-05's 3 s
      const waited = checks
        .flatMap((c) => c.evidence.notes)
        .flatMap((n) => /^waited ([\d.]+) s of real time/.exec(n)?.slice(1) ?? [])
        .map(Number);
      expect(waited).toEqual([3]);
    },
  );
});
