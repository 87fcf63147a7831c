/**
 * The quota counters of a run's timeline (rendezvous.ts): which operations' windows are fresh. A quota check spends
 * an operation (fills its window, or counts its calls) only when nobody called it since the clock last passed a
 * window; it calls one (a few calls that must be served) only when nobody spent it since. The counters start called
 * (the checks before the timeline called every operation); a completed move counts for a counter when it started
 * after the counter's last use. With a plan-wide quota (contract.quota.planPerHour) every operation is one counter.
 */
import type { Operation, QuotaUse } from './context.ts';

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

interface Counter {
  spent?: Use;
  called?: Use;
  /** windows in progress that spend it, or call it */
  spending: number;
  calling: number;
}

export class QuotaCounters {
  private readonly counters = new Map<string, Counter>();

  /**
   * @param seconds the clock moves that pass a window: contract.quota.windowSeconds + 1
   * @param planWide one counter for every operation (contract.quota.planPerHour)
   */
  constructor(
    readonly seconds: number,
    private readonly planWide: boolean,
  ) {
    for (const op of OPERATIONS)
      this.counters.set(this.key(op), { called: { passed: 0, after: 0 }, spending: 0, calling: 0 });
  }

  private key(op: Operation): string {
    return this.planWide ? 'plan' : op;
  }

  private of(op: Operation): Counter {
    return this.counters.get(this.key(op))!;
  }

  private each(use: QuotaUse): { counter: Counter; spends: boolean }[] {
    const spends = new Set((use.spends ?? []).map((op) => this.of(op)));
    const calls = new Set((use.calls ?? []).map((op) => this.of(op)).filter((c) => !spends.has(c)));
    return [
      ...[...spends].map((counter) => ({ counter, spends: true })),
      ...[...calls].map((counter) => ({ counter, spends: false })),
    ];
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

  take(use: QuotaUse): void {
    for (const { counter, spends } of this.each(use)) {
      if (spends) counter.spending++;
      else counter.calling++;
    }
  }

  /** `use` ended; `moves` moves had started by then */
  release(use: QuotaUse, moves: number): void {
    for (const { counter, spends } of this.each(use)) {
      if (spends) {
        counter.spending--;
        counter.spent = { passed: 0, after: moves };
      } else {
        counter.calling--;
        counter.called = { passed: 0, after: moves };
      }
    }
  }

  /** the move numbered `n` (1 for the first started) of `seconds` was made */
  moved(n: number, seconds: number): void {
    for (const c of this.counters.values()) {
      for (const u of [c.spent, c.called]) if (u && n > u.after) u.passed += seconds;
      if (c.spent && c.spent.passed >= this.seconds) delete c.spent;
      if (c.called && c.called.passed >= this.seconds) delete c.called;
    }
  }
}
