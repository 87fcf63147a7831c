/**
 * The mock's spike arrest refilled after a refusal (MockOptions.spikeArrest.refill 'after-refusal'): it refuses by
 * count, so a slow machine meets it as a fast one does; a call a second after the refusal that emptied it refills it.
 * Time here is a stand-in for performance.now, moved by the test (no real wait).
 */
import { afterEach, describe, expect, test, vi } from 'vitest';
import { MockClock } from '../../lib/mock/clock.ts';
import { FaultSet } from '../../lib/mock/fault-set.ts';
import { QuotaStore } from '../../lib/mock/transfers/quota.ts';

let now = 0;
afterEach(() => {
  vi.restoreAllMocks();
});

function store(): QuotaStore {
  vi.spyOn(performance, 'now').mockImplementation(() => now);
  return new QuotaStore(new MockClock(), new FaultSet(), 100, 3600, undefined, {
    perSecond: 2,
    refill: 'after-refusal',
  });
}

const refused = { ok: false, retryAfterSeconds: 1 };

describe('spike arrest refilled after a refusal', () => {
  test('the third call is refused however far apart the calls come; a second after the refusal refills two', async () => {
    now = 0;
    const q = store();
    // a machine so slow that its calls come 10 s apart: a gate of two calls a second would refuse none
    expect(await q.take('c', 'validate')).toEqual({ ok: true });
    now += 10_000;
    expect(await q.take('c', 'validate')).toEqual({ ok: true });
    now += 10_000;
    expect(await q.take('c', 'validate')).toEqual(refused);
    const emptied = now;
    // until a second after the refusal that emptied it: refused, the penalty not lengthened by them
    now = emptied + 999;
    expect(await q.take('c', 'validate')).toEqual(refused);
    now = emptied + 1000;
    expect(await q.take('c', 'validate')).toEqual({ ok: true });
    expect(await q.take('c', 'create')).toEqual({ ok: true });
    expect(await q.take('c', 'get')).toEqual(refused);
    // per client
    expect(await q.take('other', 'validate')).toEqual({ ok: true });
  });
});
