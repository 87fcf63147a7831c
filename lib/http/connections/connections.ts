/**
 * What one HTTP client (client.ts) holds to its targets, wired together: each target's in-flight window (window.ts),
 * the connect figures (connect.ts), the connections held per Agent (sockets.ts), the Agents (agents.ts) and the idle
 * connections bursts leave for later bursts (burst-pool.ts). A target that shows a limit has its idle connections
 * freed, the Agents' and the bursts' alike.
 */
import { agentCache } from './agents.ts';
import { BurstPool } from '../burst/burst-pool.ts';
import { ConnectBook } from './connect.ts';
import { SocketBook } from './sockets.ts';
import { tlsReuseFor } from './tls-reuse.ts';
import type { ProxyRoute } from '../../tls/tunnel.ts';
import { Lanes, NEAR_MS } from './lanes.ts';
import { InFlightWindow } from './window.ts';
import type { Agent } from '../undici.ts';
import type { Identity } from '../types.ts';

/** a client's connections (the figures of its Agents' budgets, and the run's proxy route: `base`) */
export function connections(base: { connectMs: number; firstByteMs: number; proxy?: ProxyRoute }): {
  windows: Map<string, InFlightWindow>;
  book: ConnectBook;
  sockets: SocketBook;
  agents: ReturnType<typeof agentCache>;
  bursts: BurstPool;
  /** a call of Agent `agent` to `url` may go (its lane, lanes.ts) and holds a connection (sockets.ts) until the release */
  turn(url: string, agent: number, first?: boolean): Promise<() => void>;
  /** the Agent a call of `id` goes on once its turn came, never one retired while it waited, and the turn's release */
  slot(url: string, id: Identity, first?: boolean): Promise<{ agent: Agent; ended: () => void }>;
  windowOf(url: string): InFlightWindow;
} {
  const windows = new Map<string, InFlightWindow>();
  // a connect tried again teaches the target's in-flight window as a late answer does
  const book = new ConnectBook((origin) => windows.get(origin)?.connectLost());
  // the connections held to each target, all identities: a target that has shown a limit has its places freed of
  // idle connections (sockets.ts), before a new connection and before a burst that needs them all
  const sockets: SocketBook = new SocketBook({
    cap: (origin) => {
      const places = windows.get(origin)?.places();
      // a target that has shown a limit: the bursts' idle connections are freed first (burst-pool.ts)
      if (places !== undefined) bursts.drop(origin);
      return places;
    },
    retire: (n) => agents.retire(n),
  });
  // connections opened ahead (spares.ts) to a target seen closing after its answers and that has shown no limit:
  // never past the in-flight window, nor the most connections it was seen to hold at once, all open ones counted
  const agents = agentCache(base, book, tlsReuseFor(base.proxy), sockets, (origin) => {
    const w = windows.get(origin);
    if (!w || w.limited() || !w.closes()) return 0;
    return Math.max(0, Math.min(w.limit(), w.summary().largest) - sockets.open(origin));
  });
  // the bursts' idle connections, none kept to a target that has shown a limit (its places are its connections)
  const bursts = new BurstPool((origin) => windows.get(origin)?.limited() === true);
  const windowOf = (url: string): InFlightWindow => {
    const origin = originOf(url);
    let w = windows.get(origin);
    if (!w)
      windows.set(
        origin,
        (w = new InFlightWindow({
          // the bursts' kept connections first among those the target has shown it holds (the next burst takes them)
          vacate: (keep) => {
            const pooled = bursts.count(origin);
            bursts.drop(origin, keep);
            return sockets.vacate(origin, Math.max(0, keep - pooled));
          },
        })),
      );
    return w;
  };
  // the calls of one identity side by side to a near target, on the connections it has (lanes.ts); not to one that
  // closes after its answers: there every call needs a connection of its own (and spares.ts opens them ahead)
  const lanes = new Lanes((origin) => {
    const w = windows.get(origin);
    return w !== undefined && w.fastestAnswerMs() < NEAR_MS && !w.closes();
  });
  const turn = async (url: string, agent: number, first = false): Promise<() => void> => {
    const origin = originOf(url);
    const lane = lanes.enter(origin, agent, first);
    const leave = typeof lane === 'function' ? lane : await lane;
    const ended = sockets.call(origin, agent);
    return () => {
      ended();
      leave();
    };
  };
  /**
   * the Agent a call of identity `id` to `url` goes on once its turn came (turn), and the release of its turn. An Agent
   * retired while the call waited (sockets.ts frees a small target's places of idle connections) takes no new call
   * (undici: UND_ERR_CLOSED, "The client is closed"): the call takes its identity's new Agent, and its turn there
   */
  const slot = async (url: string, id: Identity, first = false): Promise<{ agent: Agent; ended: () => void }> => {
    let a = agents.agentFor(id);
    let ended = await turn(url, a.n, first);
    for (let i = 0; i < RETIRED_RETRIES && agents.agentFor(id) !== a; i++) {
      ended();
      a = agents.agentFor(id);
      ended = await turn(url, a.n, first);
    }
    return { agent: a.agent, ended };
  };
  return { windows, book, sockets, agents, bursts, turn, slot, windowOf };
}

/** Agents retired under a waiting call that it moves on from, at most (a bound on the loop; a run retires a few dozen) */
const RETIRED_RETRIES = 4;

/** scheme://authority as written → its origin (URL.origin), for the few a run calls */
const origins = new Map<string, string>();

/**
 * `new URL(url).origin`, the URL parsed once per scheme and authority as written (each call parsed its whole URL two
 * more times for it): the text up to the authority's end parses to the same origin as the whole URL
 */
export function originOf(url: string): string {
  const start = url.indexOf('//');
  if (start < 0) return new URL(url).origin;
  let end = start + 2;
  while (end < url.length && !'/?#\\'.includes(url[end]!)) end++;
  const head = url.slice(0, end);
  let origin = origins.get(head);
  if (origin === undefined) {
    origin = new URL(head).origin;
    if (origins.size >= 256) origins.clear();
    origins.set(head, origin);
  }
  return origin;
}
