/**
 * Client-credentials tokens reused within their lifetime (lib/engine/session/cc-reuse.ts): one token request for the
 * callers that only need a valid token of the same client, scope and metadata; a request of its own for `fresh`, a
 * test's change of the request, another scope, and once the target's clock passed the token's life.
 */
import { describe, expect, test } from 'vitest';
import type { CheckDefinition } from '../../lib/engine/check.ts';
import type { Evidence } from '../../lib/engine/results.ts';
import type { TokenResult } from '../../lib/engine/session/context.ts';
import { clientCredentialsReuse, reuseKey, reuseMargin } from '../../lib/engine/session/cc-reuse.ts';
import type { HttpResponse } from '../../lib/http/types.ts';
import type { CredentialsClient } from '../../lib/profile/schema.ts';
import { sandboxSessions } from '../fixtures/sandbox-session.ts';

const sandbox = sandboxSessions();

const def: CheckDefinition = {
  id: 'test.cc-reuse',
  suite: 'test',
  requirements: ['TOK-01'],
  title: 'client-credentials reuse',
  run: async () => {},
};

const { withSession } = sandbox;

const evidence = (): Evidence => ({ exchanges: [], notes: [], tls: [] });
/** the client-credentials token requests on the wire, as the evidence recorded them */
const tokenRequests = (e: Evidence): number => e.exchanges.filter((x) => /_auth\/token$/.test(x.url)).length;
const access = (r: TokenResult): string => {
  const a = r.token?.access_token;
  if (typeof a !== 'string') throw new Error(`no access token (HTTP ${r.response.status})`);
  return a;
};

describe('client-credentials tokens reused within their lifetime', () => {
  test('two callers of the same client: one request, one token, which the API accepts', async () => {
    await withSession(async (session) => {
      const e1 = evidence();
      const e2 = evidence();
      const t1 = access(await session.context(def, e1).tokens.clientCredentials('internal'));
      const c2 = session.context(def, e2);
      const t2 = access(await c2.tokens.clientCredentials('internal'));
      expect(tokenRequests(e1)).toBe(1);
      expect(tokenRequests(e2)).toBe(0);
      expect(t2).toBe(t1);
      const res = await c2.api({ op: 'get', as: 'internal', token: t2, label: 'get with the reused token' });
      expect(res.status).toBe(404);
    });
  });

  test('fresh, another secret, another scope: a request of its own each', async () => {
    await withSession(async (session) => {
      const e = evidence();
      const ctx = session.context(def, e);
      const kept = access(await ctx.tokens.clientCredentials('partner'));
      const fresh = access(await ctx.tokens.clientCredentials('partner', { fresh: true }));
      expect(fresh).not.toBe(kept);
      const wrong = await ctx.tokens.clientCredentials('partner', { clientSecret: 'harness-wrong-secret' });
      expect(wrong.response.status).toBe(401);
      const other = ctx.profile.contract.scopes.other;
      await ctx.tokens.clientCredentials('partner', { scope: other });
      expect(tokenRequests(e)).toBe(4);
      // the plain one is still the kept one
      expect(access(await ctx.tokens.clientCredentials('partner'))).toBe(kept);
      expect(tokenRequests(e)).toBe(4);
    });
  });

  test('once the target clock passed half its life: a new request', async () => {
    await withSession(async (session) => {
      const e = evidence();
      const ctx = session.context(def, e);
      const first = access(await ctx.tokens.clientCredentials('internal'));
      const life = ctx.profile.contract.tokens.accessTokenSeconds;
      await ctx.clock.advance(life / 2 - 60);
      expect(access(await ctx.tokens.clientCredentials('internal'))).toBe(first);
      await ctx.clock.advance(61);
      const second = access(await ctx.tokens.clientCredentials('internal'));
      expect(second).not.toBe(first);
      expect(tokenRequests(e)).toBe(2);
    });
  });
});

describe('clientCredentialsReuse', () => {
  const response = (status: number): HttpResponse => ({ status, headers: {}, text: '', json: undefined });
  const client: CredentialsClient = {
    clientId: 'c1',
    clientSecret: 's',
    scope: 'transfers accounts',
  } as CredentialsClient;

  test('an answer without an access token or without a stated lifetime is not kept', async () => {
    const reuse = clientCredentialsReuse(() => 0);
    let n = 0;
    const refused = (): Promise<TokenResult> => Promise.resolve({ response: response(401) });
    const noLife = (): Promise<TokenResult> =>
      Promise.resolve({ response: response(200), token: { access_token: `t${++n}`, token_type: 'Bearer' } });
    await reuse.get('a', refused);
    await reuse.get('a', refused);
    await reuse.get('b', noLife);
    await reuse.get('b', noLife);
    expect(reuse.fetches).toBe(4);
  });

  test('handed out again while half its stated life is left on the target clock, not after', async () => {
    let now = 0;
    const reuse = clientCredentialsReuse(() => now);
    let n = 0;
    const issue = (): Promise<TokenResult> =>
      Promise.resolve({
        response: response(200),
        token: { access_token: `t${++n}`, token_type: 'Bearer', expires_in: 3600 },
      });
    expect((await reuse.get('k', issue)).token?.access_token).toBe('t1');
    now = 1_799_999;
    expect((await reuse.get('k', issue)).token?.access_token).toBe('t1');
    now = 1_800_000;
    expect((await reuse.get('k', issue)).token?.access_token).toBe('t2');
    expect(reuse.fetches).toBe(2);
  });

  test("the session's margin: half the life, or the longest move of the run shorter than the life", () => {
    const contract = (windowSeconds: number, codeSeconds = 60) => ({
      quota: { perHour: 100, windowSeconds, status: 429 },
      tokens: { accessTokenSeconds: 3600, codeSeconds, refreshIdleDays: 180, refreshMaxDays: 1095 },
    });
    // the contract's: a window's move (3601 s) expires every token of an hour; a code's (61 s) is under half
    expect(reuseMargin(contract(3600))(3600)).toBe(1800);
    // tokens of two hours, windows of one: more than a window's move left
    expect(reuseMargin(contract(3600))(7200)).toBe(3601);
    expect(reuseMargin(contract(3600))(7202)).toBe(3601);
    expect(reuseMargin(contract(3600))(7204)).toBe(3602);
    // a short token: more than a code's move left
    expect(reuseMargin(contract(3600))(100)).toBe(61);
    expect(reuseMargin(contract(1800, 600))(1000)).toBe(601);
    // 2 min tokens, 1 min windows: half the life would leave a window's move (61 s) able to expire a token
    expect(reuseMargin(contract(60))(120)).toBe(61);
  });

  test('callers asking while a request is in flight share it', async () => {
    const reuse = clientCredentialsReuse(() => 0);
    let release: (r: TokenResult) => void = () => {};
    const request = (): Promise<TokenResult> => new Promise<TokenResult>((r) => (release = r));
    const a = reuse.get('k', request);
    const b = reuse.get('k', request);
    release({ response: response(200), token: { access_token: 'x', token_type: 'Bearer', expires_in: 3600 } });
    expect((await a).token?.access_token).toBe('x');
    expect((await b).token?.access_token).toBe('x');
    expect(reuse.fetches).toBe(1);
  });

  test('the key: scope a set, metadata in any order, the client, the identity', () => {
    const k = (o: Partial<Parameters<typeof reuseKey>[0]>): string => reuseKey({ role: 'partner', client, ...o });
    expect(k({ scope: 'accounts transfers' })).toBe(k({}));
    expect(k({ oauthMetadata: { a: '1', b: '2' } })).toBe(k({ oauthMetadata: { b: '2', a: '1' } }));
    expect(k({ oauthMetadata: { a: '1' } })).not.toBe(k({ oauthMetadata: { a: '2' } }));
    expect(k({ oauthMetadata: null })).toBe(k({}));
    expect(k({ scope: 'transfers' })).not.toBe(k({}));
    expect(k({ identity: 'weak1024' })).not.toBe(k({}));
    expect(reuseKey({ role: 'partner', client: { ...client, clientId: 'c2' } })).not.toBe(k({}));
  });
});
