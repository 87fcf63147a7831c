import { describe, expect, it } from 'vitest';
import { TokenCache } from '../../lib/oauth/cache.ts';
import type { TokenResponse } from '../../lib/oauth/types.ts';

function setup(expiresIn: number | undefined = 3600, marginSeconds = 60) {
  let clock = 1_000_000;
  let n = 0;
  const cache = new TokenCache({ now: () => clock, marginSeconds });
  const fetcher = async (): Promise<TokenResponse> => ({
    access_token: `t${++n}`,
    ...(expiresIn !== undefined ? { expires_in: expiresIn } : {}),
  });
  return { cache, fetcher, advance: (s: number) => (clock += s * 1000), fetched: () => n };
}

describe('TokenCache', () => {
  it('reuses a token until expiry minus the margin, then fetches a new one', async () => {
    const { cache, fetcher, advance, fetched } = setup();
    expect((await cache.get('p', fetcher)).access_token).toBe('t1');
    advance(3539);
    expect((await cache.get('p', fetcher)).access_token).toBe('t1');
    advance(1); // 3540 s = 3600 - 60 margin
    expect((await cache.get('p', fetcher)).access_token).toBe('t2');
    expect(fetched()).toBe(2);
    expect(cache.fetches).toBe(2);
  });

  it('keys are independent', async () => {
    const { cache, fetcher } = setup();
    expect((await cache.get('a', fetcher)).access_token).toBe('t1');
    expect((await cache.get('b', fetcher)).access_token).toBe('t2');
    expect((await cache.get('a', fetcher)).access_token).toBe('t1');
  });

  it('a short-lived token is still reused (margin at most half its life)', async () => {
    const { cache, fetcher, advance } = setup(10);
    await cache.get('p', fetcher);
    advance(4);
    expect((await cache.get('p', fetcher)).access_token).toBe('t1');
    advance(1);
    expect((await cache.get('p', fetcher)).access_token).toBe('t2');
  });

  it('without expires_in the contract lifetime (3600 s) is assumed', async () => {
    const { cache, fetcher, advance } = setup(undefined);
    await cache.get('p', fetcher);
    advance(3500);
    expect((await cache.get('p', fetcher)).access_token).toBe('t1');
    advance(100);
    expect((await cache.get('p', fetcher)).access_token).toBe('t2');
  });

  it('invalidate forgets a key or everything', async () => {
    const { cache, fetcher } = setup();
    await cache.get('a', fetcher);
    await cache.get('b', fetcher);
    cache.invalidate('a');
    expect((await cache.get('a', fetcher)).access_token).toBe('t3');
    expect((await cache.get('b', fetcher)).access_token).toBe('t2');
    cache.invalidate();
    expect((await cache.get('b', fetcher)).access_token).toBe('t4');
  });

  it('concurrent gets share one fetch; a failed fetch is not cached', async () => {
    const { cache, fetcher, fetched } = setup();
    const [a, b] = await Promise.all([cache.get('p', fetcher), cache.get('p', fetcher)]);
    expect(a).toBe(b);
    expect(fetched()).toBe(1);
    await expect(cache.get('q', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect((await cache.get('q', fetcher)).access_token).toBe('t2');
  });

  it('a fetch started before invalidate is not stored after it', async () => {
    const { cache } = setup();
    let release!: (t: TokenResponse) => void;
    const pending = cache.get('p', () => new Promise<TokenResponse>((r) => (release = r)));
    cache.invalidate();
    release({ access_token: 'stale', expires_in: 3600 });
    expect((await pending).access_token).toBe('stale');
    expect((await cache.get('p', async () => ({ access_token: 'fresh', expires_in: 3600 }))).access_token).toBe(
      'fresh',
    );
  });

  it('a margin given as a rule of the lifetime is used as it says, past half the life', async () => {
    let clock = 0;
    const cache = new TokenCache({ now: () => clock, marginSeconds: (life) => life - 100 });
    let n = 0;
    const fetcher = async (): Promise<TokenResponse> => ({ access_token: `t${++n}`, expires_in: 3600 });
    await cache.get('p', fetcher);
    clock = 99_999;
    expect((await cache.get('p', fetcher)).access_token).toBe('t1');
    clock = 100_000;
    expect((await cache.get('p', fetcher)).access_token).toBe('t2');
  });

  it('a lifetime of 0 (none stated, no default) keeps nothing', async () => {
    const cache = new TokenCache({ now: () => 0, defaultLifetimeSeconds: 0 });
    let n = 0;
    const fetcher = async (): Promise<TokenResponse> => ({ access_token: `t${++n}` });
    await cache.get('p', fetcher);
    expect((await cache.get('p', fetcher)).access_token).toBe('t2');
    expect(cache.fetches).toBe(2);
  });
});
