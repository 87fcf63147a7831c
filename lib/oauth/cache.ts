/**
 * Access token cache (specification §5.6 rule 3: reuse the token until it expires). Time comes from the `now()` it is
 * given (milliseconds), so the harness can add a test-clock offset. A token is reused until
 * expires_in - margin seconds after it was requested; a margin in seconds is at most half its lifetime, so a short
 * token is still reused; a margin given as a rule of the lifetime is the caller's. A lifetime of 0 (stated, or the
 * default) keeps nothing. Concurrent gets for one key share one fetch.
 */
import type { TokenResponse } from './types.ts';

export interface TokenCacheOptions<T = TokenResponse> {
  /** current time in ms (default Date.now) */
  now?: () => number;
  /**
   * seconds before expiry at which a token is no longer handed out (default 60; at most half the lifetime), or that
   * margin as a rule of the lifetime in seconds (used as it says)
   */
  marginSeconds?: number | ((lifeSeconds: number) => number);
  /** lifetime assumed when the answer has no expires_in (default 3600, the contract's; 0: such an answer is not reused) */
  defaultLifetimeSeconds?: number;
  /** the lifetime (seconds) a kept value states, when it is not a token response's `expires_in` */
  lifetimeOf?: (value: T) => unknown;
}

interface Entry<T> {
  token: T;
  /** ms, by now() */
  reuseUntil: number;
}

export class TokenCache<T = TokenResponse> {
  private readonly now: () => number;
  private readonly margin: (lifeSeconds: number) => number;
  private readonly defaultLifetime: number;
  private readonly lifetimeOf: (value: T) => unknown;
  private readonly entries = new Map<string, Entry<T>>();
  private readonly inFlight = new Map<string, Promise<T>>();
  /** bumped by invalidate, so a fetch started before it is not stored after it */
  private generation = 0;
  /** number of fetches made (a client-side reuse check counts them) */
  fetches = 0;

  constructor(opts: TokenCacheOptions<T> = {}) {
    this.now = opts.now ?? Date.now;
    const margin = opts.marginSeconds ?? 60;
    this.margin = typeof margin === 'function' ? margin : (life) => Math.min(margin, life / 2);
    this.defaultLifetime = opts.defaultLifetimeSeconds ?? 3600;
    this.lifetimeOf = opts.lifetimeOf ?? ((v) => (v as TokenResponse | undefined)?.expires_in);
  }

  async get(key: string, fetcher: () => Promise<T>): Promise<T> {
    const e = this.entries.get(key);
    if (e && this.now() < e.reuseUntil) return e.token;
    const pending = this.inFlight.get(key);
    if (pending) return pending;

    const generation = this.generation;
    const requestedAt = this.now();
    this.fetches++;
    const p = fetcher().then(
      (token) => {
        this.inFlight.delete(key);
        const stated = this.lifetimeOf(token);
        const life = typeof stated === 'number' && stated > 0 ? stated : this.defaultLifetime;
        if (generation !== this.generation) return token;
        if (life > 0) this.entries.set(key, { token, reuseUntil: requestedAt + (life - this.margin(life)) * 1000 });
        else this.entries.delete(key);
        return token;
      },
      (err: unknown) => {
        this.inFlight.delete(key);
        throw err;
      },
    );
    this.inFlight.set(key, p);
    return p;
  }

  /** forget one key, or everything (e.g. after a 401 or a clock move) */
  invalidate(key?: string): void {
    this.generation++;
    if (key === undefined) {
      this.entries.clear();
      this.inFlight.clear();
    } else {
      this.entries.delete(key);
      this.inFlight.delete(key);
    }
  }
}
