/**
 * The clock of checks that run side by side and share their moves: a clock group (CheckDefinition.clockGroup), or,
 * against a target with a test clock, every exclusive check of the run: the run's timeline (docs/design.md, "The run's
 * timeline"), one sequence of moves that every time-based check rides.
 *  - advanceTogether(N): each member asks once; the move is made once every member has asked (or waits, below) or
 *    ended, by the largest N asked, and every member that asked goes on from there;
 *  - waitFor(N): a member lets at least N seconds pass on the moves the others make; once no other member may still
 *    move the clock (each has ended or waits too), it moves the clock by what is left itself;
 *  - window(use, why, f): a quota window (windows.ts): `f` runs once the operations it spends are fresh (the clock
 *    passed a window since anyone called them) and no window in progress conflicts; until then the member waits as
 *    in waitFor. Windows that do not conflict run side by side; no move is made while one is in progress, and none
 *    begins while a move waits or is made: the moves of the others (the maximum-age walk's steps) reopen them; a
 *    check that needs a window's exact length moves the clock inside its own window (once the others have ended);
 *  - advance(N): a member's own move, after the group's (the others must tolerate it, or hold a lease or a window).
 * Every move of the group is counted, so that a member can tell how much time passed: a stopwatch counts the moves
 * started after its start, and those started before it and not yet made (a move waits for the clock's leases after
 * it started here: a token fetched meanwhile is aged by it). A member that never asks for the group's move (a
 * property check: member({ together: false })) does not hold it back.
 */
import { Inconclusive } from '../check.ts';
import type { QuotaUse, TargetClock } from '../session/context.ts';
import type { QuotaCounters, Taken } from './windows.ts';

interface Asked {
  seconds: number;
  atMost: number | undefined;
  clock: TargetClock;
  note: (text: string) => void;
  resolve: (moved: number) => void;
  reject: (e: unknown) => void;
}

interface Waiting {
  /** seconds to let pass, and those passed so far (moves started after the wait began) */
  seconds: number;
  passed: number;
  /** moves started up to the wait's start do not count for it (one in flight may have reached the target first) */
  after: number;
  clock: TargetClock;
  resolve: (moved: number) => void;
  reject: (e: unknown) => void;
}

interface MemberState {
  ended: boolean;
  /** it has asked for the group's move, waited or asked for a window: it no longer holds the group's move back */
  asked: boolean;
  /** in waitFor, or waiting for a quota window: not counted as active */
  waits: boolean;
  /** in a quota window: it asks for no move (the move would wait for its window) */
  inWindow: boolean;
}

interface Claim {
  use: QuotaUse;
  /** seconds passed since the window was asked for (moves started after it) */
  passed: number;
  after: number;
  clock: TargetClock;
  /** the counters the window took when it was granted */
  taken: (taken: Taken) => void;
  resolve: (passed: number) => void;
  reject: (e: unknown) => void;
}

export interface RendezvousMember {
  clock(own: TargetClock, note: (text: string) => void): TargetClock;
  /** the member has ended (idempotent): it no longer holds the group's move back, nor moves the clock */
  end(): void;
}

/** a member that holds a lease on the clock (ctx.clock.hold) and asks for the group's move would hold it back */
function heldWhileAsking(what: string): Error {
  return new Error(`${what} asked while the check holds a lease on the clock: the group's move would wait for it`);
}

/** a member in a quota window that asks for a move would wait for its own window */
function inWindowAsking(what: string): Error {
  return new Error(`${what} asked inside a quota window: the move would wait for the window to end`);
}

export class ClockRendezvous {
  /** members that have neither asked for the group's move nor ended */
  private open: number;
  /** members that have not ended and are not waiting: they may still move the clock */
  private active: number;
  private readonly asked: Asked[] = [];
  private readonly waiting = new Set<Waiting>();
  private groupMoved = false;
  /** a waiter is moving the clock itself (one at a time) */
  private selfMoving = false;
  /** the seconds of each move of the group, in the order they started (a move is numbered by its position) */
  private readonly started: number[] = [];
  /** the positions of the moves started and not yet made (a stopwatch started meanwhile counts them) */
  private readonly unmade = new Set<number>();
  /** quota windows asked for and not begun, in the order asked */
  private readonly claims: Claim[] = [];
  /** quota windows in progress */
  private windows = 0;
  /** moves that wait for the windows in progress to end, and moves being made */
  private pending = 0;
  private moving = 0;
  /** moves waiting for windows to end: each looks again when one ends */
  private readonly afterWindows: (() => void)[] = [];
  /** a check moves the clock inside its own window (one at a time) */
  private inner = false;

  /** @param counters the quota counters of the run's timeline: without them a window is the member's own (clock.ts) */
  constructor(
    members: number,
    private readonly counters?: QuotaCounters,
  ) {
    this.open = members;
    this.active = members;
  }

  /** @param o.together false: the member never asks for the group's move (advanceTogether), so never holds it back */
  member(o: { together?: boolean } = {}): RendezvousMember {
    const m: MemberState = { ended: false, asked: false, waits: false, inWindow: false };
    const leaveBarrier = (): void => this.leaveBarrier(m);
    if (o.together === false) leaveBarrier();
    return {
      clock: (own, note) => ({
        ...own,
        // inside its own quota window: a move of its own, once the other windows in progress have ended
        advance: (seconds) => this.move(own, seconds, m.inWindow),
        ensurePassed: (seconds) =>
          m.inWindow ? Promise.reject(inWindowAsking('ensurePassed')) : this.move(own, seconds),
        window: (use, why, f) => this.window(m, own, note, use, why, f),
        stopwatch: () => {
          const mark = this.started.length;
          const before = [...this.unmade];
          return () =>
            before.reduce((a, i) => a + this.started[i]!, 0) + this.started.slice(mark).reduce((a, b) => a + b, 0);
        },
        advanceTogether: (seconds, atMost) => {
          if (o.together === false)
            return Promise.reject(new Error('advanceTogether asked by a member that said it never asks for it'));
          if (own.holding()) return Promise.reject(heldWhileAsking('advanceTogether'));
          if (m.inWindow) return Promise.reject(inWindowAsking('advanceTogether'));
          if (m.ended || this.groupMoved) return this.alone(own, seconds);
          const p = new Promise<number>((resolve, reject) =>
            this.asked.push({ seconds, atMost, clock: own, note, resolve, reject }),
          );
          leaveBarrier();
          // it may have left the barrier before (a wait, a window): the move may be due now
          this.release();
          return p;
        },
        waitFor: (seconds) => {
          if (own.holding()) return Promise.reject(heldWhileAsking('waitFor'));
          if (m.inWindow) return Promise.reject(inWindowAsking('waitFor'));
          if (m.ended) return this.alone(own, seconds);
          const p = new Promise<number>((resolve, reject) =>
            this.waiting.add({ seconds, passed: 0, after: this.started.length, clock: own, resolve, reject }),
          );
          m.waits = true;
          this.active--;
          leaveBarrier(); // a member that waits before the group's move no longer holds it back
          this.wake();
          return p
            .then((passed) => {
              note(`${passed} s passed on the clock group's moves while this check waited for ${seconds} s`);
              return passed;
            })
            .finally(() => {
              m.waits = false;
              if (!m.ended) this.active++;
            });
        },
      }),
      end: () => {
        if (m.ended) return;
        m.ended = true;
        leaveBarrier();
        if (!m.waits) this.active--;
        this.wake();
      },
    };
  }

  private leaveBarrier(m: MemberState): void {
    if (m.asked) return;
    m.asked = true;
    this.open--;
    this.release();
  }

  /** a member's quota window (see the top of this file) */
  private async window<T>(
    m: MemberState,
    own: TargetClock,
    note: (text: string) => void,
    use: QuotaUse,
    why: string,
    f: () => Promise<T>,
  ): Promise<T> {
    if (own.holding()) throw heldWhileAsking('a quota window');
    if (m.inWindow) throw inWindowAsking('a quota window');
    if (m.ended || !this.counters) return own.window(use, why, f);
    const counters = this.counters;
    const asked = this.started.length;
    // a window that may begin at once begins without leaving the group's barrier (it asks for no move)
    const now = this.pending === 0 && this.moving === 0 && counters.available(use);
    let taken: Taken = [];
    if (now) {
      taken = counters.take(use);
      this.windows++;
    }
    const passed = now
      ? 0
      : await new Promise<number>((resolve, reject) => {
          this.claims.push({ use, passed: 0, after: asked, clock: own, taken: (t) => (taken = t), resolve, reject });
          m.waits = true;
          this.active--;
          this.leaveBarrier(m); // a member that waits before the group's move no longer holds it back
          this.wake();
        }).finally(() => {
          // granted (active again at once: see grant) or refused
          m.waits = false;
        });
    if (passed > 0)
      note(`the clock moved ${passed} s for the run's timeline before this check's quota window began (${why})`);
    m.inWindow = true;
    let well = false;
    try {
      const r = await own.hold(why, f);
      well = true;
      return r;
    } finally {
      m.inWindow = false;
      counters.release(taken, this.started.length, well && use.showsApart === true);
      this.windows--;
      for (const go of this.afterWindows.splice(0)) go();
      this.wake();
    }
  }

  private async alone(own: TargetClock, seconds: number): Promise<number> {
    await this.move(own, seconds);
    return seconds;
  }

  /**
   * a move of the clock, once no quota window is in progress (none begins while it waits or is made), counted for
   * the waits, windows and quota counters that began before it started
   */
  private async move(own: TargetClock, seconds: number, inWindow = false): Promise<void> {
    if (inWindow && this.inner)
      throw new Error('two quota windows in progress move the clock inside: either would move it under the other');
    this.inner ||= inWindow;
    this.pending++;
    // a move inside a window waits for the others only (the window's check moves the clock under its own window)
    while (this.windows > (inWindow ? 1 : 0)) await new Promise<void>((go) => this.afterWindows.push(go));
    this.pending--;
    if (inWindow) this.inner = false;
    this.started.push(seconds);
    const n = this.started.length;
    this.unmade.add(n - 1);
    this.moving++;
    try {
      await own.advance(seconds);
    } finally {
      this.moving--;
      this.unmade.delete(n - 1);
    }
    for (const w of this.waiting) if (n > w.after) w.passed += seconds;
    for (const c of this.claims) if (n > c.after) c.passed += seconds;
    this.counters?.moved(n, seconds);
    this.wake();
  }

  /** begins the quota windows asked for that are fresh and conflict with none in progress, in the order asked */
  private grant(): void {
    if (!this.counters || this.pending > 0 || this.moving > 0) return;
    // a window that may show the operations counted apart first: until then every window excludes the others
    const order = [...this.claims].sort(
      (a, b) => Number(b.use.showsApart === true) - Number(a.use.showsApart === true),
    );
    for (const c of order) {
      if (!this.counters.available(c.use)) continue;
      this.claims.splice(this.claims.indexOf(c), 1);
      c.taken(this.counters.take(c.use));
      this.windows++;
      this.active++;
      c.resolve(c.passed);
    }
  }

  /** the group's move, once every member has asked or ended */
  private release(): void {
    if (this.open > 0 || this.groupMoved || this.asked.length === 0) return;
    this.groupMoved = true;
    const seconds = Math.max(...this.asked.map((a) => a.seconds));
    this.move(this.asked.at(-1)!.clock, seconds).then(
      () => {
        for (const a of this.asked) {
          if (a.atMost !== undefined && seconds > a.atMost) {
            a.reject(
              new Inconclusive(
                `the clock group moved the clock ${seconds} s at once, more than the ${a.atMost} s this check tolerates`,
              ),
            );
            continue;
          }
          a.note(
            `the clock moved ${seconds} s at once for its clock group (this check asked for at least ${a.seconds} s)`,
          );
          a.resolve(seconds);
        }
      },
      (e: unknown) => {
        for (const a of this.asked) a.reject(e);
      },
    );
  }

  /** waiters whose time has passed go on; when nobody else may move the clock, the first waiter moves it */
  private wake(): void {
    for (const w of this.waiting) {
      if (w.passed >= w.seconds) {
        this.waiting.delete(w);
        w.resolve(w.passed);
      }
    }
    this.grant();
    const [w] = this.waiting;
    if (this.active > 0 || this.selfMoving) return;
    if (!w) {
      this.claimMove();
      return;
    }
    this.waiting.delete(w);
    this.selfMoving = true;
    const left = w.seconds - w.passed;
    this.move(w.clock, left).then(
      () => {
        this.selfMoving = false;
        w.resolve(w.passed + left);
        this.wake();
      },
      (e: unknown) => {
        this.selfMoving = false;
        w.reject(e);
        this.wake();
      },
    );
  }

  /** nobody else may move the clock: the first quota window that waits for time moves it by what it still needs */
  private claimMove(): void {
    const c = this.claims.find((x) => this.counters!.need(x.use) > 0);
    if (!c) return;
    this.selfMoving = true;
    this.move(c.clock, this.counters!.need(c.use)).then(
      () => {
        this.selfMoving = false;
        this.wake();
      },
      (e: unknown) => {
        this.selfMoving = false;
        this.claims.splice(this.claims.indexOf(c), 1);
        this.active++; // it goes on (to its verdict) as if granted
        c.reject(e);
        this.wake();
      },
    );
  }
}
