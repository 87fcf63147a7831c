/**
 * The quota counters of a run's timeline (rendezvous.ts): which operations' windows are fresh. A quota check spends
 * an operation (fills its window, or counts its calls) only when nobody called it since the clock last passed a
 * window; it calls one (a few calls that must be served) only when nobody spent it since. The counters start called
 * (the checks before the timeline called every operation); a completed move counts for a counter when it started
 * after the counter's last use.
 * Operations are one counter (the harness does not cause what QUOTA-02 would report: a target that counts them
 * together refusing one operation because another was filled) until a window that shows them counted apart ends
 * well (QuotaUse.showsApart: QUOTA-02 passed); with a plan-wide quota (contract.quota.planPerHour) for good.
 */
import type { Operation, QuotaUse } from '../session/context.ts';

/** every operation (a complete list: the compiler checks it against Operation) */
const OPERATIONS = Object.keys({ validate: true, create: true, get: true } satisfies Record<
  Operation,
  true
>) as Operation[];

interface Use {
  /** seconds the clock moved since the use ended, and the moves started by then (they do not count) */
  passed: number;
  after: number;
}

function fresh(): Counter {
  return { called: { passed: 0, after: 0 }, spending: 0, calling: 0 };
}

interface Counter {
  spent?: Use;
  called?: Use;
  /** windows in progress that spend it, or call it */
  spending: number;
  calling: number;
}

/** the counters a window took (released as taken, whatever the mode is by then) */
export type Taken = readonly { counter: Counter; spends: boolean }[];

export class QuotaCounters {
  /** the counter of every operation together, and one of each (kept all along: exact once shown apart) */
  private readonly plan: Counter = fresh();
  private readonly ops = new Map<Operation, Counter>(OPERATIONS.map((op) => [op, fresh()]));
  private apart = false;

  /**
   * @param seconds the clock moves that pass a window: contract.quota.windowSeconds + 1
   * @param planWide the profile declares a plan-wide quota: operations are never counted apart
   */
  constructor(
    readonly seconds: number,
    private readonly planWide: boolean,
  ) {}

  private each(use: QuotaUse): Taken {
    const taken: { counter: Counter; spends: boolean }[] = [];
    const spends = new Set(use.spends ?? []);
    for (const op of spends) taken.push({ counter: this.ops.get(op)!, spends: true });
    for (const op of new Set(use.calls ?? []))
      if (!spends.has(op)) taken.push({ counter: this.ops.get(op)!, spends: false });
    // until shown apart, every use is a use of the one counter too
    if (!this.apart && taken.length > 0) taken.push({ counter: this.plan, spends: spends.size > 0 });
    return taken;
  }

  /** seconds the clock must still move before `use` may begin (windows in progress aside) */
  need(use: QuotaUse): number {
    const left = (u: Use | undefined): number => (u === undefined ? 0 : Math.max(0, this.seconds - u.passed));
    return Math.max(
      0,
      ...this.each(use).map(({ counter, spends }) => Math.max(left(counter.spent), spends ? left(counter.called) : 0)),
    );
  }

  /** whether `use` may begin now: its window is fresh, and no window in progress conflicts with it */
  available(use: QuotaUse): boolean {
    if (this.need(use) > 0) return false;
    return this.each(use).every(({ counter, spends }) => counter.spending === 0 && (!spends || counter.calling === 0));
  }

  take(use: QuotaUse): Taken {
    const taken = this.each(use);
    for (const { counter, spends } of taken) {
      if (spends) counter.spending++;
      else counter.calling++;
    }
    return taken;
  }

  /** a window ended; `moves` moves had started by then; `apart`: it showed the operations counted apart */
  release(taken: Taken, moves: number, apart: boolean): void {
    for (const { counter, spends } of taken) {
      if (spends) {
        counter.spending--;
        counter.spent = { passed: 0, after: moves };
      } else {
        counter.calling--;
        counter.called = { passed: 0, after: moves };
      }
    }
    // from now on each operation has a counter of its own (windows in progress release what they took)
    if (apart && !this.planWide) this.apart = true;
  }

  /** the move numbered `n` (1 for the first started) of `seconds` was made */
  moved(n: number, seconds: number): void {
    for (const c of [this.plan, ...this.ops.values()]) {
      for (const u of [c.spent, c.called]) if (u && n > u.after) u.passed += seconds;
      if (c.spent && c.spent.passed >= this.seconds) delete c.spent;
      if (c.called && c.called.passed >= this.seconds) delete c.called;
    }
  }
}
