/**
 * The calls of one identity (one undici Agent, agents.ts) to a near target that go side by side: at most LANE_WIDTH at
 * once, the others wait their turn here, in arrival order. undici sends one call at a time on a connection, so each
 * call beyond an Agent's idle connections opens a new one: a TCP connect and a TLS handshake, about a millisecond of
 * CPU on each side, and a connection the run keeps to its end. A target that has answered within NEAR_MS of a
 * request's write (its fastest answer, window.ts: its distance and its own time for a call are below that) serves a
 * call that waits a few milliseconds for one of the identity's connections as soon as one of its own would be: against
 * the mocks, 16 a lane kept the answers and took the Agents' connections of a certify run from about 430 to about 50
 * (docs/performance.md, "The crypto floor"). A
 * target farther away, or slower at its fastest, is never held back here: there, the calls side by side are what
 * hides its distance (the in-flight window, window.ts, bounds them); nor is one that closes after its answers (each
 * call needs a connection of its own there, opened ahead by spares.ts: held in lanes, the closing mocks' critical path
 * went from 73 to 158 round trips). The wait is the harness's, before the call starts:
 * neither its answer time (window.ts) nor its recorded duration counts it.
 */

/** a target whose fastest answer came within this many ms of its request's write is near */
export const NEAR_MS = 10;
/** calls of one identity side by side to a near target (the connections it keeps there) */
export const LANE_WIDTH = 16;

interface Lane {
  busy: number;
  waiting: { first: boolean; go: () => void }[];
}

export class Lanes {
  /** `Agent number + origin` → its lane */
  private readonly lanes = new Map<string, Lane>();

  /**
   * `near`: whether the calls to the target at `origin` are held to lanes (connections.ts: its fastest answer within
   * NEAR_MS, and it keeps its connections)
   */
  constructor(private readonly near: (origin: string) => boolean) {}

  /**
   * a call of Agent `agent` to `origin` may go: its release (call it once the answer is read), at once when its lane
   * has room (or the target is not near), else a promise of it, in arrival order; `first` (a prerequisite's call,
   * HttpRequest.first, as in the in-flight window): before the waiting calls that are not
   */
  enter(origin: string, agent: number, first = false): (() => void) | Promise<() => void> {
    const key = `${agent} ${origin}`;
    let lane = this.lanes.get(key);
    if (!lane) this.lanes.set(key, (lane = { busy: 0, waiting: [] }));
    const l = lane;
    let left = false;
    const leave = (): void => {
      if (left) return;
      left = true;
      // once the poll phase is over: undici frees the connection a few callbacks after the answer was read (its
      // drain), and a call dispatched before then finds it busy and opens a new one
      setImmediate(() => {
        l.busy--;
        while (l.waiting.length > 0 && this.room(l, origin)) l.waiting.shift()!.go();
        if (l.busy === 0 && l.waiting.length === 0 && this.lanes.get(key) === l) this.lanes.delete(key);
      });
    };
    if (l.waiting.length === 0 && this.room(l, origin)) {
      l.busy++;
      return leave;
    }
    return new Promise((resolve) => {
      const w = {
        first,
        go: () => {
          l.busy++;
          resolve(leave);
        },
      };
      const at = first ? l.waiting.findIndex((x) => !x.first) : -1;
      if (at < 0) l.waiting.push(w);
      else l.waiting.splice(at, 0, w);
    });
  }

  private room(l: Lane, origin: string): boolean {
    return l.busy < LANE_WIDTH || !this.near(origin);
  }
}
