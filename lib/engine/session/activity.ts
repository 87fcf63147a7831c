/**
 * A session's activity: its exchanges with the target in flight, and when the last one ended. A check's time limit
 * (runner.ts) counts the time the session has been quiet, not the time since the check started: a check that rides
 * the run's timeline waits for the others' windows and moves, and on a busy machine that wait grows with the load
 * while the run is making progress. A check that hangs still ends: once nothing is in flight nor answered for its
 * limit (every exchange is bounded by the profile's request time limits).
 */
import type { HttpClient } from '../../http/types.ts';

export class SessionActivity {
  private inFlight = 0;
  private lastEnded = performance.now();

  /** runs one exchange (a request with its resends, or a burst) as activity of the session */
  async during<T>(exchange: () => Promise<T>): Promise<T> {
    this.inFlight++;
    try {
      return await exchange();
    } finally {
      this.inFlight--;
      this.lastEnded = performance.now();
    }
  }

  /** when the session was last active (performance.now() time): now while an exchange is in flight */
  lastActive(): number {
    return this.inFlight > 0 ? performance.now() : this.lastEnded;
  }
}

/** the client whose every send (with its resends) is activity of the session */
export function activeIn(activity: SessionActivity, http: HttpClient): HttpClient {
  return { ...http, send: (req, recorder) => activity.during(() => http.send(req, recorder)) };
}
