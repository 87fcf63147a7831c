/** The types of a burst (burst.ts), apart so that its preparation (burst-prepare.ts) needs no import of burst.ts. */
import type { HttpResponse, KeptConnections } from '../types.ts';
import type { InFlightWindow } from '../connections/window.ts';
import type { ProxyRoute } from '../../tls/tunnel.ts';

/** the most requests one burst may hold (loops bounded) */
export const MAX_BURST = 200;

export interface BurstOptions {
  /** how long the connect-and-write phase may take before the ready requests are released anyway (ms) */
  readyTimeoutMs?: number;
  /** deadline for every answer after the release (ms) */
  timeoutMs?: number;
  /** largest response body read per request (bytes) */
  maxResponseBytes?: number;
  /**
   * the target's in-flight window (lib/http/connections/window.ts): the burst takes its places from it, and is cut to the
   * largest burst the target accepts at once (the requests past it are not sent)
   */
  window?: InFlightWindow;
  /**
   * the idle connections earlier bursts left (burst-pool.ts): a request takes one of its identity and origin when
   * there is one, and its connection is kept after a whole answer that allowed keep-alive; without, every request
   * has a new connection closed after its answer
   */
  pool?: KeptConnections;
  /** the run's proxy (lib/http/transport.ts): every new connection a tunnel through it */
  proxy?: ProxyRoute;
}

/** a burst's options as each of its requests is prepared with them (burst-prepare.ts): the defaults filled in */
export type PrepareOptions = Required<Omit<BurstOptions, 'window' | 'pool' | 'proxy'>> & Pick<BurstOptions, 'proxy'>;

/** One request of a burst: its answer or its transport error, and its times (performance.now() ms). */
export interface BurstReply {
  response?: HttpResponse;
  /** transport error code when there is no response */
  error?: string;
  /**
   * answered with a throttle's shape (lib/engine/session/throttle/throttled-calls.ts withoutThrottled): no response,
   * not ready; a gateway's answer or the bank's bare refusal, which a burst cannot tell apart
   */
  throttled?: true;
  /** connected and written up to the last byte before the release */
  ready: boolean;
  /** when the request was started (its connection asked for) */
  startedAt?: number;
  /**
   * its answer began before the release (e.g. a gateway's 429 on the request head): the request was not released
   * (releasedAt stays undefined) and took no part in the race
   */
  answeredEarly?: boolean;
  /** when its last byte was written */
  releasedAt?: number;
  /** when the first byte of its answer came */
  firstByteAt?: number;
  /** when the whole answer had come */
  doneAt?: number;
  /** sent on a connection kept from an earlier burst (no connect, no handshake before it) */
  reused?: boolean;
}

export interface BurstResult {
  /** one per request sent (the first ones: the in-flight window may have cut the burst, see asked) */
  replies: BurstReply[];
  /** requests asked for, when the in-flight window cut the burst to fewer (replies.length) */
  asked?: number;
  /** how many requests were ready at the release */
  ready: number;
  /** last release minus first release (ms) */
  releaseSpreadMs: number;
  /** last first-byte minus first first-byte over the answered requests (ms); undefined with fewer than one */
  firstByteSpreadMs?: number;
  /** the earliest first byte minus the last release (ms): > 0 when every request was out before any answer came */
  marginMs?: number;
  /** requests sent on connections kept from an earlier burst */
  reused?: number;
}
