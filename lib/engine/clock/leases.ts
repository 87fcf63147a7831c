/**
 * The target's test clock is shared by every check of a session and by the prerequisites: a move ages every code,
 * token and quota window at once. Leases keep it still where that matters (docs/design.md, "The shared test clock"):
 *  - a time-bound exchange holds a lease (hold): a code between /authorize and its exchange, a refresh token renewed
 *    within its idle limit, a token between its issue and the call that must find it valid, a quota window being
 *    filled and judged;
 *  - a move (move) waits until no other holder holds a lease, and until the prerequisites are settled before the
 *    first one; moves are made one at a time, and a lease asked for during a move waits for it to end;
 *  - a holder's own leases do not hold its own moves back (a quota check moves the clock inside its window's lease).
 * A lease is granted at once unless a move is in flight (no waiting behind a mover that waits: a holder may depend
 * on another holder's exchange, e.g. a token fetched by another check). A mover whose blockers all wait to move
 * themselves, while holding their leases, would wait forever: it is refused (Inconclusive) instead.
 */
import { Inconclusive } from '../check.ts';

export interface LeaseHolder {
  /** who holds (a check id, or prerequisite.<id>): named in the notes of a move that waited */
  readonly name: string;
}

interface Lease {
  holder: LeaseHolder;
  why: string;
}

interface WaitingMove {
  holder: LeaseHolder;
  seconds: number;
  go: () => void;
  refuse: (e: Error) => void;
}

/** what a move waited for before it was made */
export interface MoveWait {
  waitedMs: number;
  /** "why (holder)" of each lease the move waited for, in the order they were met */
  leases: string[];
}

export class ClockLeases {
  private readonly leases = new Set<Lease>();
  private moving: LeaseHolder | undefined;
  private readonly movers: WaitingMove[] = [];
  private readonly afterMove: (() => void)[] = [];
  private isReady = false;

  /** @param ready resolves once a move may be made at all (certify: the run's prerequisites settled) */
  constructor(private readonly ready: () => Promise<void> = () => Promise.resolve()) {}

  /** true while the holder holds a lease */
  holds(holder: LeaseHolder): boolean {
    for (const l of this.leases) if (l.holder === holder) return true;
    return false;
  }

  /** runs `f` holding a lease: no other holder's move starts until it ends (waits for a move in flight first) */
  async hold<T>(holder: LeaseHolder, why: string, f: () => Promise<T>): Promise<T> {
    // a move that ends may start the next waiting one before this continues: wait for that one too
    while (this.moving !== undefined && this.moving !== holder && !this.holds(holder))
      await new Promise<void>((go) => this.afterMove.push(go));
    const lease: Lease = { holder, why };
    this.leases.add(lease);
    try {
      return await f();
    } finally {
      this.leases.delete(lease);
      this.pump();
    }
  }

  /** makes the move `f` once no other holder holds a lease (and the prerequisites settled); says what it waited for */
  async move<T>(holder: LeaseHolder, seconds: number, f: () => Promise<T>): Promise<{ result: T; wait: MoveWait }> {
    const started = performance.now();
    if (!this.isReady) {
      await this.ready();
      this.isReady = true;
    }
    const met = new Set<string>();
    for (const l of this.blockers(holder)) met.add(`${l.why} (${l.holder.name})`);
    if (this.moving !== undefined || met.size > 0 || this.movers.length > 0) {
      await new Promise<void>((go, refuse) => {
        this.movers.push({ holder, seconds, go, refuse });
        this.pump();
      });
    }
    for (const l of this.blockers(holder)) met.add(`${l.why} (${l.holder.name})`);
    this.moving = holder;
    const wait: MoveWait = { waitedMs: Math.round(performance.now() - started), leases: [...met] };
    try {
      return { result: await f(), wait };
    } finally {
      this.moving = undefined;
      for (const go of this.afterMove.splice(0)) go();
      this.pump();
    }
  }

  private blockers(holder: LeaseHolder): Lease[] {
    return [...this.leases].filter((l) => l.holder !== holder);
  }

  /** starts the first waiting move no lease holds back; refuses one that can never start */
  private pump(): void {
    if (this.moving !== undefined) return;
    const i = this.movers.findIndex((m) => this.blockers(m.holder).length === 0);
    if (i >= 0) {
      const [m] = this.movers.splice(i, 1);
      this.moving = m!.holder; // taken at once: nothing else starts before the move's own continuation runs
      m!.go();
      return;
    }
    const waiting = new Set(this.movers.map((m) => m.holder));
    const stuck = this.movers.find((m) => this.blockers(m.holder).every((l) => waiting.has(l.holder)));
    if (!stuck) return;
    this.movers.splice(this.movers.indexOf(stuck), 1);
    const held = this.blockers(stuck.holder).map((l) => `${l.why} (${l.holder.name})`);
    stuck.refuse(
      new Inconclusive(
        `the clock move of ${stuck.seconds} s by ${stuck.holder.name} could never be made: the leases of ${held.join(', ')} are held by checks that wait to move the clock themselves`,
      ),
    );
    this.pump();
  }
}
