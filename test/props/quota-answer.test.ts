/**
 * The property search against the contract's quota answer (property-gate.ts isQuotaAnswer: the quota's status with
 * Retry-After and the error body): an input, or the positive control, so answered is sent again in a fresh window
 * when the target has a test clock; without one the search stops, and the check is inconclusive saying so. And what
 * a search must have judged to verify its property (property-plan.ts evidenceShortfall).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { search, type SearchIO, type Trial } from '../../lib/engine/property/property-search.ts';
import { evidenceShortfall } from '../../lib/engine/property/property.ts';
import { isQuotaAnswer, QuotaAnswered } from '../../lib/engine/property/property-gate.ts';

const ints = fc.integer({ min: 0, max: 1_000_000 });
const QUOTA: Trial = { verdict: 'unclear', observed: 'HTTP 429 (quota)', status: 429, quota: true };

/**
 * a target whose quota window holds `perWindow` calls, counted by the target (the harness's ledger is told
 * `ledger` calls: an under-count when smaller), with a test clock or not
 */
function quotaTarget(o: {
  perWindow: number;
  ledger?: number;
  clock: boolean;
  controlRefused?: number;
}): SearchIO<number> & { sent: number[]; moves: number; controls: number } {
  let counted = 0;
  let planned = 0;
  let controlsRefused = 0;
  let controlDone = false;
  const io = {
    sent: [] as number[],
    moves: 0,
    controls: 0,
    reserve: (inputs: readonly number[]): number => {
      const n = Math.min(inputs.length, (o.ledger ?? o.perWindow) - planned);
      planned += n;
      return n;
    },
    batch: async <R>(_: readonly number[], f: () => Promise<R>): Promise<R> => {
      if (!controlDone) {
        io.controls++;
        if (controlsRefused < (o.controlRefused ?? 0)) {
          controlsRefused++;
          throw new QuotaAnswered('the positive control was answered with the quota answer');
        }
        controlDone = true;
      }
      return f();
    },
    trial: async (input: number): Promise<{ trial: Trial }> => {
      io.sent.push(input);
      counted++;
      if (counted > o.perWindow) return { trial: QUOTA };
      return { trial: { verdict: 'held', observed: 'refused' } };
    },
    ...(o.clock
      ? {
          moveWindow: async (): Promise<void> => {
            io.moves++;
            counted = 0;
            planned = 0;
          },
        }
      : {}),
  };
  return io;
}

describe("an input answered with the contract's quota answer", () => {
  it('with a test clock: a fresh window, the input sent again, every input judged, the answers counted', async () => {
    expect.hasAssertions();
    // the target counts 10 a window, the ledger thought 30 were left (calls it did not see)
    const io = quotaTarget({ perWindow: 10, ledger: 30, clock: true });
    const o = await search(ints, io, { seed: 1, runs: 25, shrinkCalls: 0 });
    expect(o.held).toBe(o.distinct);
    expect(o.unclear).toBe(0);
    expect(o.quotaAnswers).toBeGreaterThan(0);
    expect(o.windowMoves).toBe(io.moves);
    expect(o.stopped).toBeUndefined();
    expect(evidenceShortfall(o, 'inputs', 25)).toBeUndefined();
  });

  it('without a test clock: the search stops saying so, and the property is not verified', async () => {
    expect.hasAssertions();
    const io = quotaTarget({ perWindow: 1, ledger: 30, clock: false });
    const o = await search(ints, io, { seed: 1, runs: 20, shrinkCalls: 0 });
    expect(o.held).toBe(1);
    expect(o.stopped).toMatch(/quota answer .* no test clock/);
    expect(evidenceShortfall(o, 'inputs', 20)).toBe(
      'only 1 of 20 planned random inputs could be judged (at least half must be)',
    );
  });

  it('the positive control so answered: with a test clock, a fresh window and the control again', async () => {
    expect.hasAssertions();
    const io = quotaTarget({ perWindow: 100, clock: true, controlRefused: 1 });
    const o = await search(ints, io, { seed: 1, runs: 20, shrinkCalls: 0 });
    expect(io.controls).toBe(2);
    expect(io.moves).toBe(1);
    expect(o.quotaAnswers).toBe(1);
    expect(o.held).toBe(o.distinct);
  });

  it('the positive control so answered without a test clock: QuotaAnswered, nothing sent', async () => {
    expect.hasAssertions();
    const io = quotaTarget({ perWindow: 100, clock: false, controlRefused: 1 });
    await expect(search(ints, io, { seed: 1, runs: 20, shrinkCalls: 0 })).rejects.toBeInstanceOf(QuotaAnswered);
    expect(io.sent).toHaveLength(0);
  });

  it('a control answered so every time is bounded: at most maxMoves fresh windows, then QuotaAnswered', async () => {
    expect.hasAssertions();
    const io = quotaTarget({ perWindow: 100, clock: true, controlRefused: 1000 });
    await expect(search(ints, io, { seed: 1, runs: 20, shrinkCalls: 0, maxMoves: 3 })).rejects.toBeInstanceOf(
      QuotaAnswered,
    );
    expect(io.moves).toBe(3);
  });
});

describe('the quota answer, told from a gate and a gateway', () => {
  it("is the profile's quota status, with a Retry-After longer than a gate's, and an error body", () => {
    expect.hasAssertions();
    const body = { status: '429', response_code: '429001' };
    expect(isQuotaAnswer({ status: 429, headers: { 'retry-after': '3600' }, body }, 429)).toBe(true);
    expect(isQuotaAnswer({ status: 429, headers: { 'Retry-After': '120' }, body: JSON.stringify(body) }, 429)).toBe(
      true,
    );
    expect(isQuotaAnswer({ status: 503, headers: { 'retry-after': '3600' }, body }, 503)).toBe(true);
    // not the profile's status; no Retry-After; a gate's short wait; an HTML page; no body
    expect(isQuotaAnswer({ status: 429, headers: { 'retry-after': '3600' }, body }, 503)).toBe(false);
    expect(isQuotaAnswer({ status: 429, headers: {}, body }, 429)).toBe(false);
    expect(isQuotaAnswer({ status: 429, headers: { 'retry-after': '1' }, body }, 429)).toBe(false);
    const page = '<html><body><h1>429 Too Many Requests</h1><hr>nginx</body></html>';
    expect(isQuotaAnswer({ status: 429, headers: { 'retry-after': '60' }, body: page }, 429)).toBe(false);
    expect(isQuotaAnswer({ status: 429, headers: { 'retry-after': '60' }, body: '' }, 429)).toBe(false);
  });
});

describe('what a search must have judged (docs/properties.md "Budget")', () => {
  it('a search the quota stopped after 1 of its 20 inputs is not verified, saying how many', async () => {
    expect.hasAssertions();
    const io = quotaTarget({ perWindow: 1000, ledger: 1, clock: false });
    const o = await search(ints, io, { seed: 4, runs: 20, shrinkCalls: 0 });
    expect(o.held).toBe(1);
    expect(o.stopped).toMatch(/no test clock/);
    expect(evidenceShortfall(o, 'near-miss masks', 20)).toBe(
      `only 1 of ${o.distinct} planned random near-miss masks could be judged (at least half must be)`,
    );
  });

  it('half of the planned inputs judged verifies it; fewer do not; a small input space counts its distinct inputs', () => {
    expect.hasAssertions();
    expect(evidenceShortfall({ held: 10, unclear: 0 }, 'inputs', 20)).toBeUndefined();
    expect(evidenceShortfall({ held: 9, unclear: 0 }, 'inputs', 20)).toMatch(/only 9 of 20 planned/);
    expect(evidenceShortfall({ held: 3, unclear: 0, distinct: 5 }, 'inputs', 200)).toBeUndefined();
  });

  it('as many inputs without evidence as judged is not verified (more must be judged than not)', () => {
    expect.hasAssertions();
    expect(evidenceShortfall({ held: 5, unclear: 5 }, 'inputs')).toBe('only 5 of 10 inputs sent could be judged');
  });

  it('every coverage class must be judged', () => {
    expect.hasAssertions();
    const o = { held: 60, unclear: 0, randomJudged: 50, coverage: { classes: 11, covered: 10 } };
    expect(evidenceShortfall(o, 'documents', 50)).toBe(
      'only 10 of 11 coverage classes of documents could be judged (every one must be)',
    );
    expect(evidenceShortfall({ ...o, coverage: { classes: 11, covered: 11 } }, 'documents', 50)).toBeUndefined();
  });
});
