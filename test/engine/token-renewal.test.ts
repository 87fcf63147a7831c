/**
 * The session's code tokens (lib/engine/session/tokens.ts): an expired one is renewed with the refresh token of its grant
 * (one exchange, no consent) while that has not idled past the contract's limit; otherwise, or when the refresh is
 * refused, a new code grant is asked for.
 */
import { describe, expect, test } from 'vitest';
import type { CheckDefinition } from '../../lib/engine/check.ts';
import type { Evidence } from '../../lib/engine/results.ts';
import { sandboxSessions } from '../fixtures/sandbox-session.ts';

const sandbox = sandboxSessions();

const def: CheckDefinition = {
  id: 'test.renewal',
  suite: 'test',
  requirements: ['TOK-06'],
  title: 'renewal',
  run: async () => {},
};

const { withSession } = sandbox;

/** the token requests a step made, by grant type, and its /authorize requests */
function calls(e: Evidence): string[] {
  return e.exchanges.map((x) => x.label ?? '').filter((l) => /authorize|token/.test(l));
}

describe('code token renewal', () => {
  test('after the access token expires: one refresh, no new /authorize; the renewed token works', async () => {
    await withSession(async (session) => {
      const first: Evidence = { exchanges: [], notes: [], tls: [] };
      const c1 = session.context(def, first);
      const alice = c1.customer(0);
      const t1 = await c1.tokens.codeToken(alice);
      expect(calls(first)).toEqual(['authorize', 'token (authorization_code)']);
      await c1.clock.advance(sandbox.prepared.runtime.profile.contract.tokens.accessTokenSeconds + 1);

      const second: Evidence = { exchanges: [], notes: [], tls: [] };
      const c2 = session.context(def, second);
      const t2 = await c2.tokens.codeToken(alice);
      expect(t2).not.toBe(t1);
      expect(calls(second)).toEqual(['token (refresh_token)']);
      const res = await c2.api({ op: 'get', token: t2, label: 'get with the renewed token' });
      expect([200, 404]).toContain(res.status);
    });
  });

  test('a refresh token idle past the contract limit is not tried: a new code grant', async () => {
    await withSession(async (session) => {
      const e1: Evidence = { exchanges: [], notes: [], tls: [] };
      const c1 = session.context(def, e1);
      const alice = c1.customer(0);
      await c1.tokens.codeToken(alice);
      await c1.clock.advance(sandbox.prepared.runtime.profile.contract.tokens.refreshIdleDays * 86_400);
      const e2: Evidence = { exchanges: [], notes: [], tls: [] };
      await session.context(def, e2).tokens.codeToken(alice);
      expect(calls(e2)).toEqual(['authorize', 'token (authorization_code)']);
    });
  });

  test('a refused refresh falls back to a new code grant (the family past its maximum age)', async () => {
    const { refreshIdleDays, refreshMaxDays } = sandbox.prepared.runtime.profile.contract.tokens;
    await withSession(async (session) => {
      const c0 = session.context(def, { exchanges: [], notes: [], tls: [] });
      const alice = c0.customer(0);
      await c0.tokens.codeToken(alice);
      // renewed every idle - 2 days: by refresh until the family is too old, then by a new grant
      const renewals: string[][] = [];
      for (let days = 0; days <= refreshMaxDays + refreshIdleDays; days += refreshIdleDays - 2) {
        const e: Evidence = { exchanges: [], notes: [], tls: [] };
        const c = session.context(def, e);
        await c.clock.advance((refreshIdleDays - 2) * 86_400);
        await c.tokens.codeToken(alice);
        renewals.push(calls(e));
        if (calls(e).includes('authorize')) break;
      }
      const last = renewals.pop();
      expect(last).toEqual(['token (refresh_token)', 'authorize', 'token (authorization_code)']);
      expect(renewals.length).toBeGreaterThan(3);
      for (const r of renewals) expect(r).toEqual(['token (refresh_token)']);
    });
  });
});

describe('ctx.clock.ensurePassed: a move saved only when the clock moved that far with nothing sent since', () => {
  test('a move with no request since counts; a request, or one in flight, does not', async () => {
    await withSession(async (session) => {
      const e: Evidence = { exchanges: [], notes: [], tls: [] };
      const ctx = session.context(def, e);
      /** the clock moves the evidence shows, in order */
      const moves = (): string[] => e.exchanges.map((x) => x.label ?? '').filter((l) => l.startsWith('test clock'));
      await ctx.clock.ensurePassed(1); // nothing known yet: a move
      expect(moves()).toEqual(['test clock +1 s']);
      await ctx.api({ op: 'get', token: 'no-token', label: 'a request' });
      await ctx.clock.advance(60);
      await ctx.clock.advance(60);
      await ctx.clock.ensurePassed(120); // 120 s since the request: no move
      expect(moves()).toHaveLength(3);
      expect(e.notes.join('\n')).toMatch(/moved 120 s since the last request: no move needed for 120 s/);
      await ctx.clock.ensurePassed(121); // not that far: a move
      expect(moves()).toHaveLength(4);
      const inFlight = ctx.api({ op: 'get', token: 'no-token', label: 'in flight' });
      await ctx.clock.ensurePassed(1); // a request in flight: a move
      await inFlight;
      expect(moves()).toHaveLength(5);
      await ctx.clock.advance(30);
      await ctx.clock.ensurePassed(30);
      expect(moves()).toHaveLength(6);
    });
  });
});
