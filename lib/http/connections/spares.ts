/**
 * Connections opened ahead of the calls that will need them (docs/design.md, "A small or slow target": a target
 * that closes after every answer). Such a target gets a new connection for every call, and 100 ms away each call
 * would wait for its connect (TCP, and TLS on it) before its own round trip; a connection opened while the call
 * before it is answered is ready when the call comes, so that the critical path pays one round trip a call.
 *  - One pool per Agent (agents.ts), so per client identity: a connection handshaken with one identity's certificate
 *    is never handed to another's call; kept per origin and TLS server name, opened with the options of the last
 *    connect undici asked for there, through the same route (connect.ts: the proxy's tunnel when there is one).
 *  - A pool is filled when a call asks for a connection, and again once a call's connection is closed (its place is
 *    free then): a target seen holding one connection at a time (a test clock's control, moved one call at a time)
 *    has the next call's connection opened between the calls, never beside one.
 *  - How many may be opened ahead is the caller's (`room`: connections.ts): none until the target was seen closing
 *    after its answers, none once it has shown a limit (a small target's places are its connections), never past
 *    the in-flight window nor the most connections the target was seen to hold at once, counting every connection
 *    open to it (sockets.ts); per pool AHEAD, or as many as its calls asked for within the last MAX_AGE_MS when that
 *    is more (a property check's batch of inputs, a quota window's filling: the next batch comes a clock move
 *    later), MOST_AHEAD at most.
 *  - A connection waits at most MAX_AGE_MS (a server drops a connection that sends no request for a while): then it
 *    is closed and another one opened in its place, REFRESHES times in a row at most (calls a few seconds apart, such
 *    as the test clock's moves, find one ready; a pool no call takes from empties after REFRESHES × MAX_AGE_MS). One closed, too old
 *    or left at the end is closed, never handed out nor leaked (close()).
 */
import type net from 'node:net';

/**
 * connections opened ahead per pool and origin at most: the calls that start together on the critical path (a quota
 * window's filling, the calls after a clock move), each a connection of its own from a target that closes
 */
export const AHEAD = 8;
/**
 * connections opened ahead per pool at most after its calls asked for more than AHEAD within the last MAX_AGE_MS (a
 * property check's batch is 64 inputs side by side): against a closing target 100 ms away most of a batch's inputs
 * waited for a connect first, two round trips each where one would do (docs/performance.md, "Closing targets")
 */
export const MOST_AHEAD = 64;
/** a connection opened ahead is not handed out after this long (ms): closed, another one opened */
export const MAX_AGE_MS = 2000;
/** a connection too old is replaced, and its replacement, at most this many times in a row */
export const REFRESHES = 3;

interface Ready {
  socket: net.Socket;
  at: number;
  /** closed for its age (then replaced) */
  aged?: boolean;
  timer?: NodeJS.Timeout;
}

export class Spares {
  private readonly ready = new Map<string, Ready[]>();
  private readonly opening = new Map<string, number>();
  /** when each pool's calls asked for a connection (take), within the last maxAgeMs: as many may ask again */
  private readonly asked = new Map<string, number[]>();
  private closed = false;

  /**
   * `room(origin)`: connections to `origin` that may be opened ahead now, all pools (0: none); `maxAgeMs`: how long
   * one waits at most (MAX_AGE_MS)
   */
  constructor(
    private readonly room: (origin: string) => number,
    private readonly maxAgeMs = MAX_AGE_MS,
  ) {}

  /** a connection to `key` opened ahead and still usable, taken out of the pool; undefined when none */
  take(key: string): net.Socket | undefined {
    this.recent(key).push(performance.now());
    const list = this.ready.get(key);
    while (list && list.length > 0) {
      const r = list.shift()!;
      clearTimeout(r.timer);
      const usable = !r.socket.destroyed && r.socket.readable && r.socket.writable;
      if (usable && performance.now() - r.at < this.maxAgeMs) return r.socket;
      r.socket.destroy();
    }
    return undefined;
  }

  /**
   * connections to `key` (of `origin`) opened ahead by `open`, up to AHEAD ready or opening, or as many as its calls
   * asked for within the last maxAgeMs (MOST_AHEAD at most), within the room
   */
  fill(key: string, origin: string, open: () => Promise<net.Socket>): void {
    if (this.closed) return;
    const want = Math.min(MOST_AHEAD, Math.max(AHEAD, this.recent(key).length));
    const n = Math.min(want - this.have(key), this.room(origin));
    for (let i = 0; i < n; i++) this.openOne(key, origin, open, 0);
  }

  /** the times `key`'s calls asked for a connection within the last maxAgeMs (older ones dropped) */
  private recent(key: string): number[] {
    let list = this.asked.get(key);
    if (!list) this.asked.set(key, (list = []));
    const since = performance.now() - this.maxAgeMs;
    let old = 0;
    while (old < list.length && list[old]! < since) old++;
    if (old > 0) list.splice(0, old);
    return list;
  }

  private have(key: string): number {
    return (this.ready.get(key)?.length ?? 0) + (this.opening.get(key) ?? 0);
  }

  /** one connection opened ahead; `generation`: how many it replaces, one after another, for their age */
  private openOne(key: string, origin: string, open: () => Promise<net.Socket>, generation: number): void {
    this.opening.set(key, (this.opening.get(key) ?? 0) + 1);
    const settle = (): void => void this.opening.set(key, (this.opening.get(key) ?? 1) - 1);
    open().then(
      (socket) => {
        settle();
        if (this.closed || socket.destroyed) return void socket.destroy();
        const r: Ready = { socket, at: performance.now() };
        let list = this.ready.get(key);
        if (!list) this.ready.set(key, (list = []));
        list.push(r);
        // closed by the target (or anything) while it waits: out of the pool; closed for its age: replaced once its
        // place is free (its close counted), REFRESHES times in a row at most, within AHEAD and the room of the moment
        socket.once('close', () => {
          clearTimeout(r.timer);
          const at = list.indexOf(r);
          if (at >= 0) list.splice(at, 1);
          if (!r.aged || generation >= REFRESHES) return;
          setImmediate(() => {
            if (!this.closed && this.have(key) < AHEAD && this.room(origin) > 0)
              this.openOne(key, origin, open, generation + 1);
          });
        });
        r.timer = setTimeout(() => {
          r.aged = true;
          socket.destroy();
        }, this.maxAgeMs);
        r.timer.unref();
        // an error while it waits only closes it (no call is on it yet)
        socket.on('error', () => {});
      },
      // a connection not opened ahead is no call's failure: the call opens its own
      settle,
    );
  }

  /** connections ready or opening, all origins */
  size(): number {
    let n = 0;
    for (const l of this.ready.values()) n += l.length;
    for (const o of this.opening.values()) n += o;
    return n;
  }

  /** every connection opened ahead closed, and those still opening closed once made */
  close(): void {
    this.closed = true;
    for (const l of this.ready.values())
      for (const r of l.splice(0)) {
        clearTimeout(r.timer);
        r.socket.destroy();
      }
  }
}
