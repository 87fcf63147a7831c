/**
 * Quotas (specification §8, contract "Quotas"): 100 calls an hour per client and per operation, in a fixed window that
 * opens with the first call; optionally a plan-wide figure per client across the operations. What counts
 * (MockOptions.quotaCounts): by default every call that passed the API key, token and scope checks, refused later
 * or not (the contract's words); 'accepted' gives back the count of a call that was not accepted.
 */
import type { MockClock } from '../clock.ts';
import type { FaultSet } from '../fault-set.ts';
import { raceGap, raceGapOn } from '../race.ts';
import type { SpikeArrest } from '../types.ts';
import { realWaits, type Waits } from '../../waits.ts';

export type Operation = 'validate' | 'create' | 'get';

interface Window {
  start: number;
  count: number;
}

export type QuotaResult = { ok: true } | { ok: false; retryAfterSeconds: number };

export class QuotaStore {
  private windows = new Map<string, Window>();
  /** spike arrest: the times (ms, `waits`) of each client's calls in the last second */
  private recent = new Map<string, number[]>();
  /** spike arrest refilled after a refusal: each client's calls left, and when its last call was refused */
  private buckets = new Map<string, { left: number; refusedAt?: number }>();

  constructor(
    private readonly clock: MockClock,
    private readonly faults: FaultSet,
    private readonly perHour: number,
    private readonly windowSeconds: number,
    private readonly planPerHour?: number,
    private readonly spikeArrest?: SpikeArrest,
    private readonly counts: 'every' | 'accepted' = 'every',
    /** 'client': one window per client opened by its first call of any operation (MockOptions.quotaWindow) */
    private readonly windowOf: 'operation' | 'client' = 'operation',
    /** the time of the spike arrest's windows (MockOptions.waits): real time by default */
    private readonly waits: Waits = realWaits,
  ) {}

  /** a gateway's spike arrest (MockOptions.spikeArrest): more than perSecond calls in one real second */
  private arrested(clientId: string): boolean {
    if (!this.spikeArrest) return false;
    if (this.spikeArrest.refill === 'after-refusal') return this.bucketEmpty(clientId, this.spikeArrest.perSecond);
    const now = this.waits.now();
    const calls = (this.recent.get(clientId) ?? []).filter((t) => now - t < 1000);
    const over = calls.length >= this.spikeArrest.perSecond;
    if (!over) calls.push(now);
    this.recent.set(clientId, calls);
    return over;
  }

  /**
   * the spike arrest refilled only after a refusal (SpikeArrest.refill): `size` calls pass, the next is refused, and so
   * is every call until one comes a second (its Retry-After) or more after that refusal, which refills the bucket
   */
  private bucketEmpty(clientId: string, size: number): boolean {
    const b = this.buckets.get(clientId) ?? { left: size };
    this.buckets.set(clientId, b);
    const now = this.waits.now();
    if (b.refusedAt !== undefined && now - b.refusedAt >= 1000) {
      b.left = size;
      delete b.refusedAt;
    }
    if (b.left > 0 && b.refusedAt === undefined) {
      b.left--;
      return false;
    }
    b.refusedAt ??= now;
    return true;
  }

  /** counts one call of `op` by `clientId`; refused calls are not counted */
  async take(clientId: string, op: Operation): Promise<QuotaResult> {
    // the gateway's spike arrest comes before the quota (and is there even when the quota is not)
    if (this.arrested(clientId)) return { ok: false, retryAfterSeconds: 1 };
    if (this.faults.on('quota-off')) return { ok: true };
    const now = this.clock.now();
    if (this.windowOf === 'client') this.alignOpening(clientId, now);
    const counted: { w: Window; limit: number }[] = [
      { w: this.window(`${clientId}|${op}`, this.perHour, now), limit: this.perHour },
    ];
    if (this.planPerHour !== undefined)
      counted.push({ w: this.window(`${clientId}|plan`, this.planPerHour, now), limit: this.planPerHour });
    const blocking = [...counted];
    if (this.faults.on('quota-shared-window')) {
      // the fault: an exhausted operation blocks the client's other operations too (nothing else is counted)
      for (const other of ['validate', 'create', 'get'] as const) {
        const w = other === op ? undefined : this.live(`${clientId}|${other}`, this.perHour, now);
        if (w) blocking.push({ w, limit: this.perHour });
      }
    }
    const full = blocking.find(({ w, limit }) => w.count >= this.refusesFrom(limit));
    if (full) {
      const left = Math.ceil((this.end(full.w, full.limit) - now) / 1000);
      return { ok: false, retryAfterSeconds: Math.max(1, left) };
    }
    // race-quota: a gap between the check above and the count below (the clean path has no await before it)
    if (raceGapOn(this.faults, 'race-quota')) await raceGap();
    for (const { w } of counted) w.count++;
    return { ok: true };
  }

  /**
   * the call counted by `take` was answered `status`: under quotaCounts 'accepted' a call not accepted (no 2xx) is
   * not counted after all (counted while it was served, so that calls side by side never pass the quota together)
   */
  answered(clientId: string, op: Operation, status: number | undefined): void {
    if (this.counts !== 'accepted' || (status !== undefined && status < 300)) return;
    const now = this.clock.now();
    const keys = [`${clientId}|${op}`, ...(this.planPerHour !== undefined ? [`${clientId}|plan`] : [])];
    for (const key of keys) {
      const w = this.live(key, key.endsWith('|plan') ? this.planPerHour! : this.perHour, now);
      if (w && w.count > 0) w.count--;
    }
  }

  /**
   * quotaWindow 'client': the client's window (its key `client|window`) opens with its first call of any operation,
   * and every operation's count opens and ends with it
   */
  private alignOpening(clientId: string, now: number): void {
    const opened = this.window(`${clientId}|window`, Infinity, now);
    for (const op of ['validate', 'create', 'get'] as const) {
      const w = this.windows.get(`${clientId}|${op}`);
      if (w && w.start !== opened.start) this.windows.delete(`${clientId}|${op}`);
    }
    // the operation's window opening now starts with the client's
    for (const op of ['validate', 'create', 'get'] as const)
      if (!this.windows.has(`${clientId}|${op}`))
        this.windows.set(`${clientId}|${op}`, { start: opened.start, count: 0 });
  }

  /** the count from which a window refuses: the quota (from its middle on, under quota-early-long-wait) */
  private refusesFrom(limit: number): number {
    return this.faults.on('quota-early-long-wait') ? Math.floor(limit / 2) : limit;
  }

  /** when the window closes: one hour after it opened (two once exhausted, under quota-window-reopens-late) */
  private end(w: Window, limit: number): number {
    // quota-window-reopens-late: an exhausted window (one that refuses, whichever count it refuses from) stays closed
    // for a second hour (a later check that moves the clock past the window once more still finds it open, so only
    // the reopening rule breaks)
    const late = w.count >= this.refusesFrom(limit) && this.faults.on('quota-window-reopens-late');
    return w.start + (late ? 2 : 1) * this.windowSeconds * 1000;
  }

  /** the window of `key` if one is open now (never opens one) */
  private live(key: string, limit: number, now: number): Window | undefined {
    const w = this.windows.get(key);
    return w && now < this.end(w, limit) ? w : undefined;
  }

  /** the open window of `key`, or a new one opening now (a window opens with the first call) */
  private window(key: string, limit: number, now: number): Window {
    let w = this.live(key, limit, now);
    if (!w) {
      w = { start: now, count: 0 };
      this.windows.set(key, w);
    }
    return w;
  }
}
