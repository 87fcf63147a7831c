/**
 * Connections of a burst opened ahead (suites/race/burst.ts: before the control), into the pool bursts take their
 * connections from (lib/http/burst/burst-pool.ts). A target that closes after every answer keeps no connection for
 * the next burst, so each burst (and its control, a burst of one) would wait for its connects (TCP, and TLS on it)
 * before its own round trip: 100 ms away, a burst lasts two round trips. Opened while the check makes its requests
 * (its token, a quota window's filling), they are ready when the control and the burst come, so that each pays one
 * round trip.
 *  - Only to a target seen closing after its answers and that has shown no limit (window.ts: a small target's places
 *    are its connections, and a burst then needs them to itself), and never more than the burst would get now
 *    (burstSize) and one for its control.
 *  - Each connection is the request's identity's (its certificate, its TLS session resumed: burst-prepare.ts), kept
 *    under its key and origin; one not taken within AHEAD_IDLE_MS is closed (a server drops a connection that sends
 *    no request for a while), as the pool closes the connections it keeps.
 *  - Resolves once every connection is opened or failed (a failure is no call's: the burst opens its own); the
 *    control waits for it, so that its answer time, the burst's overlap threshold, is measured with none of the
 *    harness's handshakes in flight.
 */
import { connectFresh } from '../burst/burst-prepare.ts';
import { MAX_AGE_MS } from './spares.ts';
import type { InFlightWindow } from './window.ts';
import type { ProxyRoute } from '../../tls/tunnel.ts';
import type { HttpRequest, KeptConnections } from '../types.ts';

/** how long a burst's connection opened ahead waits for its burst (ms): as long as the client's (spares.ts) */
export const AHEAD_IDLE_MS = MAX_AGE_MS;

/**
 * opens `count` connections for bursts of `req` (its identity and origin) into `pool`, when `window`'s target closes
 * after its answers and has shown no limit; resolves with how many were opened
 */
export async function openBurstAhead(
  req: Pick<HttpRequest, 'url' | 'identity'>,
  count: number,
  o: { pool: KeptConnections; window: InFlightWindow; budgetMs: number; proxy?: ProxyRoute },
): Promise<number> {
  const w = o.window;
  if (!w.closes() || w.limited()) return 0;
  const n = Math.min(count, w.burstSize(count) + 1);
  const url = new URL(req.url);
  const key = o.pool.key(req.identity, url);
  const opened = await Promise.allSettled(
    Array.from({ length: n }, () =>
      connectFresh(url, req.identity, o.budgetMs, new AbortController().signal, o.proxy).then((s) => {
        o.pool.keep(key, url.origin, s, AHEAD_IDLE_MS);
        return s;
      }),
    ),
  );
  return opened.filter((r) => r.status === 'fulfilled').length;
}
