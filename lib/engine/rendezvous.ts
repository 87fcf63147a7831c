/**
 * The clock of a clock group (CheckDefinition.clockGroup): the group's checks run side by side.
 *  - advanceTogether(N): each member asks once; the move is made once every member has asked or ended, by the
 *    largest N asked, and every member that asked goes on from there;
 *  - waitFor(N): a member lets at least N seconds pass on the moves the others make; once no other member may still
 *    move the clock (each has ended or waits too), it moves the clock by what is left itself;
 *  - advance(N): a member's own move, after the group's (the others must tolerate it: see clockGroup).
 * Every move of the group is counted, so that a member can tell how much time passed.
 */
import { Inconclusive } from './check.ts';
import type { TargetClock } from './context.ts';

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

export interface RendezvousMember {
  clock(own: TargetClock, note: (text: string) => void): TargetClock;
  /** the member has ended (idempotent): it no longer holds the group's move back, nor moves the clock */
  end(): void;
}

/** a member that holds a lease on the clock (ctx.clock.hold) and asks for the group's move would hold it back */
function heldWhileAsking(what: string): Error {
  return new Error(`${what} asked while the check holds a lease on the clock: the group's move would wait for it`);
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
  /** the seconds of each move of the group, in the order they started (a move is numbered by its place) */
  private readonly started: number[] = [];

  constructor(members: number) {
    this.open = members;
    this.active = members;
  }

  member(): RendezvousMember {
    let ended = false;
    let asked = false;
    /** in waitFor: not counted as active */
    let waits = false;
    const leaveBarrier = (): void => {
      if (asked) return;
      asked = true;
      this.open--;
      this.release();
    };
    return {
      clock: (own, note) => ({
        ...own,
        advance: (seconds) => this.move(own, seconds),
        stopwatch: () => {
          const mark = this.started.length;
          return () => this.started.slice(mark).reduce((a, b) => a + b, 0);
        },
        advanceTogether: (seconds, atMost) => {
          if (own.holding()) return Promise.reject(heldWhileAsking('advanceTogether'));
          if (ended || this.groupMoved) return this.alone(own, seconds);
          const p = new Promise<number>((resolve, reject) =>
            this.asked.push({ seconds, atMost, clock: own, note, resolve, reject }),
          );
          leaveBarrier();
          return p;
        },
        waitFor: (seconds) => {
          if (own.holding()) return Promise.reject(heldWhileAsking('waitFor'));
          if (ended) return this.alone(own, seconds);
          const p = new Promise<number>((resolve, reject) =>
            this.waiting.add({ seconds, passed: 0, after: this.started.length, clock: own, resolve, reject }),
          );
          waits = true;
          this.active--;
          leaveBarrier(); // a member that waits before the group's move no longer holds it back
          this.wake();
          return p
            .then((passed) => {
              note(`${passed} s passed on the clock group's moves while this check waited for ${seconds} s`);
              return passed;
            })
            .finally(() => {
              waits = false;
              if (!ended) this.active++;
            });
        },
      }),
      end: () => {
        if (ended) return;
        ended = true;
        leaveBarrier();
        if (!waits) this.active--;
        this.wake();
      },
    };
  }

  private async alone(own: TargetClock, seconds: number): Promise<number> {
    await this.move(own, seconds);
    return seconds;
  }

  /** a move of the clock, counted for the waits that began before it started */
  private async move(own: TargetClock, seconds: number): Promise<void> {
    this.started.push(seconds);
    const n = this.started.length;
    await own.advance(seconds);
    for (const w of this.waiting) if (n > w.after) w.passed += seconds;
    this.wake();
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
    const [w] = this.waiting;
    if (this.active > 0 || this.selfMoving || !w) return;
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
}
