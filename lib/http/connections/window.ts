/**
 * How many calls the harness has in flight to one target at once: the in-flight window (in this file, "the window"),
 * which adapts as TCP's congestion window does, so that a small target (a short accept queue, a few connections) is
 * not flooded by the harness's own bursts.
 *  - It starts modest (INITIAL) and grows while answers come back promptly: doubled after each round of calls
 *    answered without a late one (slow start), by one a round past the threshold. A round is the calls started
 *    until the first of them is answered; it grows the window once all of them, and all rounds before it, have
 *    been answered (as TCP's cumulative acknowledgement: a call stuck in the target's queue stops the growth).
 *  - A late answer (first byte after max(LATE_FLOOR_MS, 4 × the smoothed answer time): a connection the target
 *    did not accept at once) halves the window (two at least) and sets a ceiling just under the calls that were in
 *    flight when it was sent; a timeout halves both (one at least: the caller sends the call again, client.ts).
 *    A connect whose SYN the target's kernel did not answer in time (its accept queue full: lib/http/connections/connect.ts
 *    sends it again at once) cuts the window as a late answer does, found within a fraction of a second.
 *    The window grows back fast up to the ceiling; the ceiling relaxes by one every RELAX_MS, so a target that was
 *    only busy for a while is probed again (the burst limit does not relax: probing it costs a stall).
 *  - A connect the target refused or reset, or a connection it reset before the call's answer (client.ts: not a
 *    connection it had kept from an earlier answer, which it may close whenever it likes: that race is no limit),
 *    cuts the window as a late answer does.
 *  - A connection the target closed after a complete answer (with `Connection: close` or not) is no capacity
 *    signal: many servers close after every answer (Python's http.server, WSGI servers, some gateways). It is
 *    counted (closedByTarget), never cut on: such a target is served at full width, a new connection per call.
 *  - A burst (lib/http/burst/burst.ts) takes as many places as it has requests, at most the window (its ceiling) and
 *    the largest burst the target was seen to accept at once (burstLimit); alone (once nothing else is in flight)
 *    when the target has shown a limit, beside the other calls when it has shown none (no wait for them to end).
 *    A burst that had the target to itself (the harness's idle connections closed first: vacate; but those a target
 *    that has shown no limit was seen to hold beside it) and found fewer
 *    places than it asked for measured the target's places: the window stays one under them for the rest of the
 *    run (the place left free is for the turnover of connections).
 * Loops are bounded by the callers (client.ts: MAX_ATTEMPTS); waiting callers are served in arrival order, but a call
 * every check waits for (a prerequisite's: HttpRequest.first) goes before the others waiting: against a distant target
 * the prerequisites' calls waited up to two rounds behind the first checks' while the window was still small.
 */

/** calls in flight at the start, before any answer came (TCP's initial window is about 10 segments) */
export const INITIAL = 8;
/** never more in flight to one target (the largest quota fill a profile may ask for) */
export const MAX_WINDOW = 1024;
/**
 * an answer later than this (and than 4 × the smoothed answer time) is late: a sign of a full accept queue (a
 * dropped SYN is sent again after 1 s)
 */
export const LATE_FLOOR_MS = 900;
/** a lost connect cuts the window to no fewer than this (half the initial window) */
const LOST_FLOOR = INITIAL / 2;
/** the ceiling relaxes by one each time this passes */
const RELAX_MS = 1000;
/** the share of the calls' answers after which the target closed, at least, for it to close after its answers */
const CLOSES_SHARE = 0.9;

export interface WindowStats {
  /** the window at the start */
  initial: number;
  /** the window at the end */
  final: number;
  /** the most calls the window let be in flight at once, and the fewest after a cut */
  largest: number;
  smallest: number;
  /** calls answered late, calls that timed out while others were in flight */
  lateAnswers: number;
  timeouts: number;
  /** the largest burst the target was seen to accept at once (when a burst found fewer places than it asked) */
  burstLimit?: number;
  /** connects tried again because the target's kernel had not answered their SYN in time (lib/http/connections/connect.ts) */
  connectRetries?: number;
  /** connections the calls asked for (none was ready), and how many of them had been opened ahead (spares.ts) */
  connects?: number;
  connectsAhead?: number;
  /** Agents retired to free the target's places of their idle connections (lib/http/connections/sockets.ts) */
  idleFreed?: number;
  /** successful answers after which the target closed the connection, not asked to (counted only: no limit) */
  closedByTarget?: number;
  /** connects refused or reset, connections reset before their answer (each cuts the window as a late answer) */
  resets?: number;
}

/** how one call (or one burst) ended, for the window */
export interface Outcome {
  /** time from the call's start to the first byte of its answer */
  firstByteMs?: number;
  /**
   * time from the request's write to the first byte of its answer (lib/http/answer.ts: no connect, no wait of the
   * harness's in it): the fastest tells a near target (fastestAnswerMs)
   */
  answerMs?: number;
  /** no connection or no first byte within the budget */
  timedOut?: boolean;
  /**
   * the target closed the connection after its complete answer, not asked to: counted, no capacity signal; false: it
   * kept it; absent: not told (a refusal, a call that asked for the close, a burst)
   */
  closed?: boolean;
  /** the connect was refused or reset, or the connection was reset before the answer (not a kept one: client.ts) */
  reset?: boolean;
}

export interface Slot {
  /** places taken (1 for a call; a burst's size) */
  readonly size: number;
  /** calls in flight, this one included, when it started */
  readonly level: number;
  /** taken alone: nothing else of the harness starts until it is done */
  readonly exclusive: boolean;
  /** no other call was in flight at any moment while this one was */
  alone(): boolean;
  /** gives the places back; every outcome teaches the window */
  done(outcomes: readonly Outcome[]): void;
}

interface Round {
  id: number;
  outstanding: number;
  sealed: boolean;
  late: boolean;
  widest: number;
}

interface Live {
  overlapped: boolean;
  round: Round;
  startedAt: number;
}

export interface WindowOptions {
  /**
   * closes the harness's idle connections to the target but `keep` of them (lib/http/connections/sockets.ts), before a burst with
   * nothing else in flight
   */
  vacate?: (keep: number) => Promise<void>;
}

export class InFlightWindow {
  constructor(private readonly o: WindowOptions = {}) {}

  private cwnd = INITIAL;
  private threshold = Number.POSITIVE_INFINITY;
  /** the most calls in flight known to work (learned from a late answer or a timeout), and since when */
  private ceiling = Number.POSITIVE_INFINITY;
  private ceilingAt = 0;
  private inFlight = 0;
  private readonly live = new Set<Live>();
  private readonly waiting: {
    need: number;
    alone: boolean | 'if-limited';
    /** goes before the calls waiting that are not (acquire's `first`) */
    first: boolean;
    grant: (g: { size: number; alone: boolean }) => void;
  }[] = [];
  /** a slot taken alone is in flight: nothing else starts until it is done */
  private exclusive = false;
  private rounds = 0;
  /** rounds not ended yet: a round grows the window only when every round before it has ended (as TCP's
   * cumulative acknowledgement: a call stuck in the target's queue stops the growth until it is answered) */
  private readonly unended = new Set<Round>();
  private open: Round = this.newRound();
  private srtt: number | undefined;
  /**
   * the fastest answer, from its request's write to its first byte (ms): the target's distance and its own time for a
   * call are below it (lanes.ts)
   */
  private fastest = Number.POSITIVE_INFINITY;
  private burstCap = Number.POSITIVE_INFINITY;
  /** the target's places, measured by a burst that had the target to itself (burstAccepted): a bound of the window */
  private placesCap = Number.POSITIVE_INFINITY;
  /** calls answered that said whether the target closed after the answer (closes()) */
  private answers = 0;
  private readonly stats: WindowStats = {
    initial: INITIAL,
    final: INITIAL,
    largest: 0,
    smallest: INITIAL,
    lateAnswers: 0,
    timeouts: 0,
  };

  /** the calls that may be in flight now */
  limit(): number {
    return Math.max(1, Math.min(MAX_WINDOW, Math.floor(this.cwnd), this.ceilingNow(), this.placesCap));
  }

  /** the ceiling, relaxed by one for every RELAX_MS since it was set (a busy target is probed again) */
  private ceilingNow(): number {
    return this.ceiling + Math.floor((performance.now() - this.ceilingAt) / RELAX_MS);
  }

  /** the size a burst of `n` would get now: at most the window and the largest burst the target accepted */
  burstSize(n: number): number {
    // the ceiling, not the window of the moment: a burst waits until nothing else is in flight if it must
    const room = Number.isFinite(this.ceiling) ? Math.max(this.limit(), this.ceilingNow()) : n;
    return Math.max(1, Math.min(n, room, MAX_WINDOW, this.burstLimitNow()));
  }

  /**
   * the burst limit does not relax: a burst past it holds the target's places while it waits for connections that
   * will not be accepted (burst.ts: a stall of a second at least)
   */
  private burstLimitNow(): number {
    return this.burstCap;
  }

  /**
   * the connections the target is known to serve at once (its places): the calls the window lets be in flight, at
   * most the largest burst it accepted; undefined while it has shown no limit (lib/http/connections/sockets.ts frees idle
   * connections beyond it)
   */
  places(): number | undefined {
    if (!this.limited()) return undefined;
    return Math.min(this.limit(), this.placesCap);
  }

  /**
   * before a burst of `size` with nothing else in flight: the harness's idle connections to the target closed, so that
   * every place of the target is the burst's own. Those a target that has shown no limit was seen to hold beside
   * such a burst stay open: it answered `largest` calls in flight at once (each on a connection of its own) without a
   * late answer, so `largest - size` idle connections and the burst fit in places it has shown; closing them cost a
   * new TLS connection each for the next wide round of calls (about 150 a certify run of the mocks).
   */
  vacate(size: number): Promise<void> {
    const keep = this.limited() ? 0 : Math.max(0, this.stats.largest - size);
    return this.o.vacate?.(keep) ?? Promise.resolve();
  }

  /**
   * one place (a call), or a burst's places: waits its turn until they are free. `alone`: once nothing else is in
   * flight, and nothing else starts until it is done (a race burst: the target's few places are all its own, and
   * no other call waits in the target's queue behind it; a probe sent again alone). `first`: before every waiting
   * call that is not (in arrival order among them)
   */
  async acquire(n = 1, o: { alone?: boolean | 'if-limited'; first?: boolean } = {}): Promise<Slot> {
    const g = await new Promise<{ size: number; alone: boolean }>((grant) => {
      const w = { need: n, alone: o.alone ?? false, first: o.first === true, grant };
      // a call every other check waits for (a prerequisite's) goes before those waiting, after the others of its kind
      const at = w.first ? this.waiting.findIndex((x) => !x.first) : -1;
      if (at < 0) this.waiting.push(w);
      else this.waiting.splice(at, 0, w);
      this.pump();
    });
    return this.start(g.size, g.alone);
  }

  /**
   * the target has shown a limit (a late answer, a timeout, a lost connect, a burst it did not accept whole): a
   * burst then needs the target's places to itself ('if-limited'); against a target that has shown none it goes
   * beside the other calls, as any call does, without waiting for them to end
   */
  limited(): boolean {
    return Number.isFinite(this.ceiling) || Number.isFinite(this.burstCap);
  }

  /**
   * the target closes after its answers, not asked to: after CLOSES_SHARE of the calls' answers at least (spares.ts and
   * burst-ahead.ts open the next connections ahead). A small target that closes a connection now and then, to serve
   * the one waiting behind it, does not: connections opened ahead would take the places it frees
   */
  closes(): boolean {
    const closed = this.stats.closedByTarget ?? 0;
    return closed > 0 && closed >= CLOSES_SHARE * this.answers;
  }

  /**
   * the fastest answer so far, from its request's write to its first byte (ms; Infinity before any): lanes.ts holds a
   * near target's calls
   */
  fastestAnswerMs(): number {
    return this.fastest;
  }

  /** one place, alone (acquire) */
  acquireAlone(): Promise<Slot> {
    return this.acquire(1, { alone: true });
  }

  /** what the window did, for the report */
  summary(): WindowStats {
    return {
      ...this.stats,
      final: this.limit(),
      ...(Number.isFinite(this.burstCap) ? { burstLimit: this.burstCap } : {}),
    };
  }

  /**
   * a burst asked for `asked` places and `ready` of them were connected in time: the target accepts no more at once.
   * `alone`: no other call of the harness was in flight at any moment of the burst (and its idle connections were
   * closed first: vacate): the target's places are then known, and the window never lets more calls be in flight
   * (more would wait in the target's accept queue, their connections opened and closed in turn)
   */
  burstAccepted(asked: number, ready: number, o: { alone?: boolean } = {}): void {
    if (ready >= asked) return;
    this.burstCap = Math.min(this.burstLimitNow(), Math.max(1, ready));
    this.stats.burstLimit = Math.min(this.stats.burstLimit ?? Number.POSITIVE_INFINITY, this.burstCap);
    if (o.alone) {
      // one place left for the turnover of connections: a connection the target closed holds its place until the
      // target has seen it closed, and the next call's new one would wait in its queue meanwhile
      this.placesCap = Math.min(this.placesCap, Math.max(1, this.burstCap - 1));
      this.cwnd = Math.min(this.cwnd, this.placesCap);
      this.stats.smallest = Math.min(this.stats.smallest, Math.floor(this.cwnd));
    }
  }

  private pump(): void {
    while (!this.exclusive) {
      const head = this.waiting[0];
      if (!head) return;
      const size = head.need === 1 ? 1 : this.burstSize(head.need);
      // a burst wider than the window of the moment goes once nothing else is in flight (those behind it wait)
      const alone = head.alone === 'if-limited' ? this.limited() : head.alone;
      if (alone ? this.inFlight > 0 : this.inFlight + size > Math.max(this.limit(), size)) return;
      this.waiting.shift();
      this.inFlight += size;
      this.exclusive = alone;
      this.stats.largest = Math.max(this.stats.largest, this.inFlight);
      head.grant({ size, alone });
    }
  }

  private start(size: number, alone: boolean): Slot {
    const others = this.inFlight - size > 0;
    const me: Live = { overlapped: others, round: this.open, startedAt: performance.now() };
    if (others) for (const l of this.live) l.overlapped = true;
    this.live.add(me);
    const round = this.open;
    round.outstanding++;
    round.widest = Math.max(round.widest, this.inFlight);
    const level = this.inFlight;
    let ended = false;
    return {
      size,
      level,
      exclusive: alone,
      alone: () => !me.overlapped,
      done: (outcomes) => {
        if (ended) return;
        ended = true;
        this.live.delete(me);
        this.inFlight -= size;
        if (alone) this.exclusive = false;
        for (const o of outcomes) this.learn(o, level, round);
        this.finish(round);
        this.pump();
      },
    };
  }

  private learn(o: Outcome, level: number, round: Round): void {
    if (o.timedOut) {
      this.stats.timeouts++;
      // halved: the call is sent again with at most half the calls that were in flight with it, down to one
      const half = Math.max(1, Math.floor(level / 2));
      this.cut(half, half, round);
      return;
    }
    // a close after a complete answer is the target's style, not its limit: counted, and the answer teaches as any
    if (o.closed !== undefined) this.answers++;
    if (o.closed) this.stats.closedByTarget = (this.stats.closedByTarget ?? 0) + 1;
    if (o.reset) {
      this.stats.resets = (this.stats.resets ?? 0) + 1;
      // as a late answer: the target turned the connection away, or dropped it with the call unanswered
      this.cut(Math.max(2, Math.floor(level / 2)), Math.max(2, level - 1), round);
      return;
    }
    if (o.answerMs !== undefined && o.answerMs < this.fastest) this.fastest = o.answerMs;
    if (o.firstByteMs === undefined) return;
    const late = Math.max(LATE_FLOOR_MS, 4 * (this.srtt ?? 0));
    if (o.firstByteMs > late) {
      this.stats.lateAnswers++;
      // halved, as TCP does on a loss (headroom for the connections of others); one or two calls in flight: a
      // slow answer, not a queue the harness overfilled
      this.cut(Math.max(2, Math.floor(level / 2)), Math.max(2, level - 1), round);
      return;
    }
    this.srtt = this.srtt === undefined ? o.firstByteMs : 0.875 * this.srtt + 0.125 * o.firstByteMs;
  }

  /**
   * the window cut to `to` (at least one), the ceiling lowered to `ceiling`: the window grows back fast (doubling)
   * up to the ceiling, then by one a round, never past the ceiling as it relaxes; no growth at the end of this round
   */
  private cut(to: number, ceiling: number, round: Round): void {
    round.late = true;
    this.open.late = true;
    this.ceiling = Math.max(1, Math.min(this.ceilingNow(), ceiling));
    this.ceilingAt = performance.now();
    this.cwnd = Math.max(1, Math.min(this.cwnd, to));
    this.threshold = this.ceiling;
    this.stats.smallest = Math.min(this.stats.smallest, Math.floor(this.cwnd));
  }

  /**
   * a connection the target's kernel did not accept in time (its SYN was not answered: lib/http/connections/connect.ts): the
   * target's accept queue was full, as a late answer says, but found within a fraction of a second
   */
  connectLost(): void {
    if (this.open.late) return;
    // not under LOST_FLOOR: with a few calls in flight, a lost connect says the target stopped accepting for a
    // moment (busy), not that the harness overfilled it; the connect was sent again already
    const level = Math.max(this.inFlight, 2);
    this.cut(Math.max(LOST_FLOOR, Math.floor(level / 2)), Math.max(LOST_FLOOR, level - 1), this.open);
  }

  private newRound(): Round {
    const r: Round = { id: ++this.rounds, outstanding: 0, sealed: false, late: false, widest: 0 };
    this.unended.add(r);
    return r;
  }

  /** a call of `round` ended: the first answer seals the round; the last one ends it (and may grow the window) */
  private finish(round: Round): void {
    round.outstanding--;
    if (round === this.open) {
      round.sealed = true;
      this.open = this.newRound();
    }
    if (round.outstanding > 0) return;
    this.unended.delete(round);
    if (round.late || [...this.unended].some((r) => r.id < round.id)) return;
    // the window grows only when it was used: half of it in flight at once at least
    if (round.widest * 2 < Math.floor(this.cwnd)) return;
    this.cwnd = this.cwnd < this.threshold ? Math.min(this.cwnd * 2, this.threshold) : this.cwnd + 1;
    // never far past the ceiling: past it, one more call in flight for every RELAX_MS (ceilingNow)
    this.cwnd = Math.min(this.cwnd, MAX_WINDOW, this.ceilingNow() + 1);
  }
}
