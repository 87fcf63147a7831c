/**
 * The mock's clock: real time plus an offset the harness can only move forward (contract "Test controls").
 * Every time-based rule of the mock (code validity, token expiry, refresh limits, quota windows) reads it.
 */
export const MAX_ADVANCE_SECONDS = 10 * 366 * 24 * 3600;

export class MockClock {
  private offsetMs = 0;

  /** epoch milliseconds */
  now(): number {
    return Date.now() + this.offsetMs;
  }

  /** epoch seconds (integer) */
  nowSeconds(): number {
    return Math.floor(this.now() / 1000);
  }

  offsetSeconds(): number {
    return Math.floor(this.offsetMs / 1000);
  }

  /** moves the clock forward; throws RangeError unless 0 <= seconds <= ~10 years and an integer */
  advance(seconds: number): void {
    if (!Number.isInteger(seconds) || seconds < 0 || seconds > MAX_ADVANCE_SECONDS) {
      throw new RangeError(`advance_seconds must be an integer between 0 and ${MAX_ADVANCE_SECONDS}`);
    }
    this.offsetMs += seconds * 1000;
  }
}
