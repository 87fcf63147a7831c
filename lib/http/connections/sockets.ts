/**
 * The connections the harness holds to each target, across its undici Agents (one per client identity: agents.ts),
 * so that a target that serves few connections at once (a small target, docs/design.md: a small server's places are its
 * connections, not its calls) does not find its places taken by idle keep-alive connections of one identity while the
 * calls of another wait in its accept queue. Measured against the small mock (at most 8 connections): three times as
 * many connections as calls were opened, every answer closing its connection because another waited behind it.
 *  - Each Agent counts its open connections to each origin (from the connect on, until closed) and its calls in
 *    flight there; its idle connections are the difference (undici sends one call at a time on a connection).
 *  - Before an Agent opens one more connection to a target that has shown a limit, the connections beyond the
 *    target's places (`cap`: the calls its in-flight window lets be in flight) are freed: Agents of other identities
 *    with idle connections there are retired (closed gracefully: their idle connections at once, their calls in flight
 *    end first; the identity's next call gets a new Agent, its TLS session resumed: tls-reuse.ts).
 *  - Before a burst that must have the target to itself (burst.ts: alone), every idle connection to it is freed, but
 *    those the target has shown it holds beside the burst (window.ts: vacate).
 * Nothing is ever held back here: a connection the caller needs is opened, at worst beyond the cap.
 */

/** one Agent's connections and calls to one origin */
interface Use {
  open: number;
  inFlight: number;
}

export interface SocketBookOptions {
  /** the connections a target may have from the harness before idle ones are freed (undefined: no limit known) */
  cap(origin: string): number | undefined;
  /** retires the Agent `agent` (agents.ts): closed gracefully, replaced on its identity's next call */
  retire(agent: number): Promise<void>;
}

export class SocketBook {
  /** origin → Agent id → its use */
  private readonly byOrigin = new Map<string, Map<number, Use>>();
  /** Agents retired (numbers are never reused; a run retires a few dozen at most) */
  private readonly retired = new Set<number>();
  /** how many Agents were retired to free a target's places, per origin (for the report) */
  private readonly freed = new Map<string, number>();

  constructor(private readonly o: SocketBookOptions) {}

  private use(origin: string, agent: number): Use {
    let m = this.byOrigin.get(origin);
    if (!m) this.byOrigin.set(origin, (m = new Map()));
    let u = m.get(agent);
    if (!u) m.set(agent, (u = { open: 0, inFlight: 0 }));
    return u;
  }

  private tidy(origin: string, agent: number): void {
    const m = this.byOrigin.get(origin);
    const u = m?.get(agent);
    if (m && u && u.open <= 0 && u.inFlight <= 0) m.delete(agent);
  }

  /** connections to `origin` open or opening, all Agents */
  open(origin: string): number {
    let n = 0;
    for (const u of this.byOrigin.get(origin)?.values() ?? []) n += u.open;
    return n;
  }

  /** idle connections to `origin` (open, no call of theirs in flight), all Agents */
  idle(origin: string): number {
    let n = 0;
    for (const u of this.byOrigin.get(origin)?.values() ?? []) n += Math.max(0, u.open - u.inFlight);
    return n;
  }

  /** Agents retired to free a target's places (traffic) */
  retiredFor(origin: string): number {
    return this.freed.get(origin) ?? 0;
  }

  /** a call of `agent` to `origin` starts; the returned function ends it */
  call(origin: string, agent: number): () => void {
    const u = this.use(origin, agent);
    u.inFlight++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      u.inFlight--;
      this.tidy(origin, agent);
    };
  }

  /**
   * `agent` is about to open a connection to `origin` (its connector): idle connections of other Agents beyond the
   * target's places are freed first; `closed` (called once the connection is closed, or was never made) ends it
   */
  connecting(origin: string, agent: number): { closed: () => void } {
    const cap = this.o.cap(origin);
    if (cap !== undefined && this.open(origin) + 1 > cap) this.free(origin, this.open(origin) + 1 - cap, agent);
    const u = this.use(origin, agent);
    u.open++;
    let done = false;
    return {
      closed: () => {
        if (done) return;
        done = true;
        u.open--;
        this.tidy(origin, agent);
      },
    };
  }

  /**
   * the idle connections to `origin` closed but `keep` of them (a burst that must have the target's places to itself;
   * `keep`: those the target has shown it holds beside the burst, window.ts): whole Agents are retired, the idlest
   * first, until no more than `keep` are left. Resolves once their Agents are closed, or after `waitMs` at most (an
   * Agent with calls to other origins closes when they end)
   */
  async vacate(origin: string, keep = 0, waitMs = 250): Promise<void> {
    const excess = this.idle(origin) - keep;
    if (excess <= 0) return;
    const closing = this.free(origin, keep > 0 ? excess : Number.POSITIVE_INFINITY);
    if (closing.length === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled(closing),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs))),
    ]);
    clearTimeout(timer);
  }

  /** retires Agents (not `except`) holding idle connections to `origin`, the idlest first, until `n` are freed */
  private free(origin: string, n: number, except?: number): Promise<void>[] {
    const m = this.byOrigin.get(origin);
    if (!m) return [];
    const candidates = [...m]
      .filter(([agent, u]) => agent !== except && !this.retired.has(agent) && u.open > u.inFlight)
      .sort((a, b) => b[1].open - b[1].inFlight - (a[1].open - a[1].inFlight));
    const closing: Promise<void>[] = [];
    let freed = 0;
    for (const [agent, u] of candidates) {
      if (freed >= n) break;
      freed += u.open - u.inFlight;
      this.retired.add(agent);
      this.freed.set(origin, (this.freed.get(origin) ?? 0) + 1);
      // stays retired (its connections close as its calls end; its number is never reused)
      closing.push(this.o.retire(agent));
    }
    return closing;
  }
}
