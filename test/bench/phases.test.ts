/** npm run bench's sequential phases (scripts/bench/phases.ts): start-up and end from results.json's timestamps */
import { describe, expect, it } from 'vitest';
import { phasesOf, phasesText } from '../../scripts/bench/phases.ts';

const at = (ms: number): string => new Date(ms).toISOString();
const T = Date.parse('2026-01-01T00:00:00.000Z');

describe('phasesOf', () => {
  it("takes the earliest call of any profile and the latest profile's end", () => {
    const json = JSON.stringify({
      profiles: [
        {
          startedAt: at(T + 300),
          durationMs: 2000,
          results: [{ evidence: { exchanges: [{ startedAt: at(T + 900) }, { startedAt: at(T + 450) }] } }],
        },
        {
          startedAt: at(T + 310),
          durationMs: 4000,
          results: [{ evidence: { exchanges: [] } }, { evidence: { exchanges: [{ startedAt: at(T + 500) }] } }],
        },
      ],
    });
    // spawned at T, exited 250 ms after the second profile's end (T + 4310)
    expect(phasesOf(json, T, T + 4560)).toEqual({ startupSeconds: 0.45, endSeconds: 0.25 });
  });

  it('is undefined for a run without a recorded call, or text that is not JSON', () => {
    const none = JSON.stringify({ profiles: [{ startedAt: at(T), durationMs: 10, results: [] }] });
    expect(phasesOf(none, T, T + 20)).toBeUndefined();
    expect(phasesOf('not json', T, T + 20)).toBeUndefined();
  });

  it('says which interval each figure is', () => {
    expect(phasesText({ startupSeconds: 0.456, endSeconds: 0.3 })).toBe(
      "start-up (spawn to the first call) 0.46 s, end (the last check's end to the exit) 0.30 s",
    );
  });
});
