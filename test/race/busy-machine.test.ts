/**
 * The race suite on a busy machine, reproduced without loading the CPU or waiting: every burst the checks send comes
 * back with its releases spread evenly over 1.07 times the answer time of the control sent alone just before (a
 * release of 20 writes, 45 µs each, against a control answered in 0.80 ms: 0.854 ms). The whole spread then passes
 * the control's time in every burst; the requests released within it of one another still overlapped, and the clean
 * mock passes (it was inconclusive), while the race fault still fails its check.
 */
import { afterAll, describe, expect, test } from 'vitest';
import type { CheckDefinition } from '../../lib/engine/check.ts';
import type { CheckResult } from '../../lib/engine/results.ts';
import { prepare } from '../../lib/engine/run/prepare.ts';
import { runChecks } from '../../lib/engine/run/runner.ts';
import type { CheckContext } from '../../lib/engine/session/context.ts';
import { createSession } from '../../lib/engine/session/session.ts';
import type { BurstResult } from '../../lib/http/burst/burst.ts';
import { startMockThread, type MockThread } from '../../lib/mock/server/thread.ts';
import { EmbeddedProfile } from '../../lib/profile/schema.ts';
import { suite } from '../../suites/race/checks.ts';

let thread: MockThread | undefined;
afterAll(async () => {
  await thread?.shutdown();
});

/** the releases of a burst of two or more spread evenly over `factor` × the answer time of the last request alone */
function busy(ctx: CheckContext, factor: number, spreads: number[]): CheckContext {
  let controlMs: number | undefined;
  const burst = async (requests: Parameters<CheckContext['burst']>[0]): Promise<BurstResult> => {
    const r = await ctx.burst(requests);
    const first = r.replies.find((x) => x.releasedAt !== undefined);
    if (r.replies.length === 1) {
      if (first?.firstByteAt !== undefined) controlMs = first.firstByteAt - first.releasedAt!;
      return r;
    }
    if (controlMs === undefined || first === undefined || r.ready < 2) return r;
    const step = (factor * controlMs) / (r.ready - 1);
    let i = 0;
    const replies = r.replies.map((x) =>
      x.releasedAt === undefined ? x : { ...x, releasedAt: first.releasedAt! + step * i++ },
    );
    spreads.push(step * (r.ready - 1) - controlMs);
    return { ...r, replies, releaseSpreadMs: step * (r.ready - 1) };
  };
  return Object.assign(Object.create(ctx) as CheckContext, { burst });
}

async function run(faults: string[], spreads: number[]): Promise<CheckResult[]> {
  const profile = EmbeddedProfile.parse({ name: 'race-busy', environment: 'sandbox', embedded: { faults } });
  thread ??= startMockThread();
  const prepared = await prepare(profile, { checkTimeoutMs: 120_000 }, { mockThread: thread });
  const session = await createSession(prepared.runtime);
  const checks: CheckDefinition[] = suite.checks.map((c) => ({ ...c, run: (ctx) => c.run(busy(ctx, 1.07, spreads)) }));
  try {
    return await runChecks(checks, session, prepared.runtime.options);
  } finally {
    await session.close();
    await prepared.close();
  }
}

describe.concurrent('race suite on a busy machine', { timeout: 180_000 }, () => {
  test('every release spread past the control: the clean mock passes every RACE check, shown to overlap', async () => {
    const spreads: number[] = [];
    const rs = await run([], spreads);
    expect(Object.fromEntries(rs.map((r) => [r.requirements.join(' '), r.reason ?? r.verdict]))).toEqual({
      'RACE-01': 'pass',
      'RACE-02': 'pass',
      'RACE-03': 'pass',
      'RACE-04': 'pass',
    });
    // every burst's whole release took longer than its control's answer
    expect(spreads.length).toBeGreaterThanOrEqual(4);
    expect(spreads.filter((x) => x <= 0)).toEqual([]);
    for (const r of rs) expect(r.evidence.notes.join('\n')).toMatch(/[1-9]\d* of \d+ bursts overlapped/);
  });

  test('race-put-check-then-act still fails RACE-01 on the busy machine', async () => {
    const rs = await run(['race-put-check-then-act'], []);
    const r = rs.find((x) => x.requirements.includes('RACE-01'))!;
    expect(r.verdict).toBe('fail');
    expect(r.reason).toMatch(/different payment_reference_id values \(more than one payment\)/);
  });
});
