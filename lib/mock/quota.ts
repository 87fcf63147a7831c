/**
 * Quotas (seed §8, contract "Quotas"): 100 calls an hour per client and per operation, in a fixed window that
 * opens with the first call; optionally a plan-wide figure per client across the operations.
 */
import type { MockClock } from './clock.ts';
import type { FaultSet } from './faults.ts';

export type Operation = 'validate' | 'create' | 'get';

interface Window {
  start: number;
  count: number;
}

export type QuotaResult = { ok: true } | { ok: false; retryAfterSeconds: number };

export class QuotaStore {
  private windows = new Map<string, Window>();

  constructor(
    private readonly clock: MockClock,
    private readonly faults: FaultSet,
    private readonly perHour: number,
    private readonly windowSeconds: number,
    private readonly planPerHour?: number,
  ) {}

  /** counts one call of `op` by `clientId`; refused calls are not counted */
  take(clientId: string, op: Operation): QuotaResult {
    if (this.faults.on('quota-off')) return { ok: true };
    const key = this.faults.on('quota-shared-window') ? `${clientId}|*` : `${clientId}|${op}`;
    const keys: [string, number][] = [[key, this.perHour]];
    if (this.planPerHour !== undefined) keys.push([`${clientId}|plan`, this.planPerHour]);
    const now = this.clock.now();
    const windows = keys.map(([k, limit]) => ({ w: this.window(k, limit, now), limit }));
    const full = windows.find(({ w, limit }) => w.count >= limit);
    if (full) {
      const left = Math.ceil((full.w.start + this.windowSeconds * 1000 - now) / 1000);
      return { ok: false, retryAfterSeconds: Math.max(1, left) };
    }
    for (const { w } of windows) w.count++;
    return { ok: true };
  }

  private window(key: string, limit: number, now: number): Window {
    let w = this.windows.get(key);
    const over = w !== undefined && now >= w.start + this.windowSeconds * 1000;
    const exhausted = w !== undefined && w.count >= limit;
    if (!w || (over && !(exhausted && this.faults.on('quota-window-never-reopens')))) {
      w = { start: now, count: 0 };
      this.windows.set(key, w);
    }
    return w;
  }
}
