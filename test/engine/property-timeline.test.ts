/**
 * Property checks ride the run's timeline (lib/engine/property/property.ts on lib/engine/clock/rendezvous.ts): every call they send,
 * the positive control's too, is in a quota window of its operation (ctx.clock.window, calls), which no quota
 * check's window spending that operation shares; a spent window is left on the others' moves; a property check never
 * holds the group's move back. Last session's false FAIL ("validate was refused after 68 calls, before the quota of
 * 100") came from property calls inside QUOTA-01's window: the second test runs the real checks on the mock.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { ClockRendezvous } from '../../lib/engine/clock/rendezvous.ts';
import { QuotaCounters } from '../../lib/engine/clock/windows.ts';
import { checkProperty, type PropertySpec } from '../../lib/engine/property/property.ts';
import type { CheckContext, TargetClock } from '../../lib/engine/session/context.ts';
import type { Evidence, PropertyEvidence } from '../../lib/engine/results.ts';
import { prepare, type PreparedTarget } from '../../lib/engine/run/prepare.ts';
import { createSession } from '../../lib/engine/session/session.ts';
import { runSessionChecks } from '../../lib/engine/run/schedule.ts';
import { loadProfile } from '../../lib/profile/load.ts';
import { ROOT } from '../../lib/root.ts';
import { allChecks } from '../../suites/index.ts';
import { fakeClock } from './fake-clock.ts';

const WINDOW = 3601;
const tick = (ms = 2): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** a target's count of validate calls, afresh once the clock moved past a window, and whether a window is judged */
function quotaTarget() {
  const t = {
    used: 0,
    /** a quota window is being filled and judged: a property call now would be counted by it */
    counting: false,
    callsWhileCounting: 0,
    calls: 0,
    clock: fakeClock(1),
  };
  const advance = t.clock.advance;
  t.clock.advance = async (seconds: number) => {
    await advance(seconds);
    if (seconds >= WINDOW) t.used = 0;
  };
  return t;
}

/** just enough of a CheckContext for checkProperty: the member's clock, a ledger on the target's count */
function propertyContext(
  clock: TargetClock,
  target: ReturnType<typeof quotaTarget>,
  perWindow: number,
): CheckContext & { evidence: Evidence } {
  const evidence: Evidence = { exchanges: [], notes: [], tls: [] };
  const profile = {
    run: { properties: { runs: 60, shrinkCalls: 0 } },
    contract: { quota: { windowSeconds: WINDOW - 1 } },
  };
  const ctx = {
    checkId: 'errors.fake-property',
    profile,
    options: { embedded: true },
    data: { seed: 7 },
    clock,
    evidence,
    quota: {
      left: () => perWindow - 1 - target.used,
      reserve: (_as: string, _op: string, n: number) => {
        const granted = Math.min(n, Math.max(0, perWindow - 1 - target.used));
        target.used += granted;
        return granted;
      },
      release: () => {},
    },
    note: (t: string) => evidence.notes.push(t),
    redact: (t: string) => t,
    recordProperty: (p: PropertyEvidence) => (evidence.property = p),
    adopt: () => {},
    scratch: () => ({ ctx, evidence: { exchanges: [], notes: [], tls: [] } }),
  };
  return ctx as unknown as CheckContext & { evidence: Evidence };
}

function spec(target: ReturnType<typeof quotaTarget>): PropertySpec<number> {
  const call = async (): Promise<void> => {
    target.calls++;
    if (target.counting) target.callsWhileCounting++;
    await tick(1);
  };
  return {
    what: 'numbers',
    held: 'refused',
    arbitrary: fc.integer({ min: 0, max: 1_000_000 }),
    show: (n) => String(n),
    expected: 'refused',
    control: call,
    trial: async () => {
      await call();
      return { verdict: 'held', observed: 'refused', status: 422 };
    },
    failure: () => 'accepted',
  };
}

describe('a property check on the run’s timeline', () => {
  test('no call of it inside a quota window spending its operation; it rides that window’s moves; it never holds the group move back', async () => {
    const perWindow = 25;
    const target = quotaTarget();
    const r = new ClockRendezvous(3, new QuotaCounters(WINDOW, false));
    const [property, quota, walker] = [r.member({ together: false }), r.member(), r.member()];
    const notes: string[] = [];
    const pc = property.clock(target.clock, (t) => notes.push(t));
    const ctx = propertyContext(pc, target, perWindow);
    const filled: number[] = [];
    const q = quota.clock(target.clock, () => {});
    const w = walker.clock(target.clock, () => {});
    const [evidence] = await Promise.all([
      checkProperty(ctx, spec(target)).finally(() => property.end()),
      // a quota check fills validate's window twice (QUOTA-01, RACE-03), the property's calls all around
      (async () => {
        for (let i = 0; i < 2; i++) {
          await q.window({ spends: ['validate'] }, 'filled', async () => {
            target.counting = true;
            const before = target.calls;
            await tick(15);
            filled.push(target.calls - before);
            target.counting = false;
          });
        }
      })().finally(() => quota.end()),
      // the group's move does not wait for the property check (it never asks for it)
      w.advanceTogether(100_000).finally(() => walker.end()),
    ]);
    expect(target.callsWhileCounting).toBe(0);
    expect(filled).toEqual([0, 0]);
    // every input was sent (60 of them, 24 a window): over several windows, none of them shared
    expect(evidence.runs).toBe(evidence.distinct);
    expect(evidence.unclear).toBe(0);
    expect(target.clock.moves[0]).toBe(100_000);
    expect(target.clock.moves.length).toBeGreaterThanOrEqual(3);
  });

  test('without counters (a clock of its own, the Vitest path) a spent window is a move of its own', async () => {
    const perWindow = 25;
    const target = quotaTarget();
    const ctx = propertyContext(target.clock, target, perWindow);
    const evidence = await checkProperty(ctx, spec(target));
    expect(evidence.runs).toBe(evidence.distinct);
    // the search's fresh windows, and one more: the windows it spent are not left to whoever comes next
    expect(target.clock.moves).toEqual(Array.from({ length: evidence.windowMoves + 1 }, () => WINDOW));
    expect(evidence.windowMoves).toBeGreaterThanOrEqual(2);
  });
});

/** the embedded sandbox mock */
async function sandboxMock(): Promise<PreparedTarget> {
  const profile = await loadProfile(`${ROOT}/profiles/mock-sandbox.json`);
  if (!('embedded' in profile)) throw new Error('mock-sandbox.json is an embedded profile');
  return prepare(profile);
}

describe('QUOTA-01 and QUOTA-02 beside the property checks on the mock’s timeline', () => {
  test('every quota counted exactly; no property input met a 429 or an aged token', { timeout: 120_000 }, async () => {
    const prepared = await sandboxMock();
    try {
      const ids = new Set([
        'quota.per-operation-limit',
        'quota.operations-counted-apart',
        'race.concurrent-calls-past-quota',
        'masking.near-miss-masks-refused-property',
        'masking.clear-identifiers-refused-property',
        'errors.invalid-documents-property',
      ]);
      const checks = allChecks.filter((c) => ids.has(c.id));
      expect(checks.map((c) => c.id).sort()).toEqual([...ids].sort());
      const session = await createSession(prepared.runtime);
      try {
        const { results } = await runSessionChecks(session, checks, prepared.runtime.options);
        const wrong = results.filter((r) => r.verdict !== 'pass').map((r) => `${r.checkId} ${r.verdict}: ${r.reason}`);
        expect(wrong).toEqual([]);
        for (const r of results.filter((x) => x.evidence.property)) {
          const p = r.evidence.property!;
          // no input without evidence because of the run (a 429 of a quota check's window, a token a move aged):
          // the summary names up to 3 of them (a near miss that is another customer's exact mask is refused for
          // its beneficiary on some mock data: no evidence, and none of this test's concern)
          expect(p.unclear, `${r.checkId}: ${p.summary}`).toBeLessThanOrEqual(3);
          expect(p.summary).not.toMatch(/HTTP (429|401)|no answer/);
          // every input sent: the coverage phase's classes, then the distinct random ones
          expect(p.runs).toBe((p.distinct ?? 0) + (p.coverage?.classes ?? 0));
          expect(p.coverage?.covered).toBe(p.coverage?.classes);
          // the search's round trips one after another are kept for the bench's critical path
          expect(p.roundTrips).toBe(p.chain?.length);
          expect(p.roundTrips).toBeGreaterThan(0);
        }
      } finally {
        await session.close();
      }
    } finally {
      await prepared.close();
    }
  });
});
