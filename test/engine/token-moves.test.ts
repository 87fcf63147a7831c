/**
 * The session's tokens against the run's own clock moves (lib/engine/session/cc-reuse.ts reuseMargin, tokens.ts): a
 * code or partner token handed out again after one quota window's move is still valid after another, as a fresh one
 * would be. Shown on the mock with access tokens that live two hours and its one-hour quota window (a bank whose
 * tokens outlive a window): under the 60 s margin the caches had, the token handed out after the first move was the
 * one issued before it, and the second move expired it between its hand-out and its use (a 401 in the check's
 * evidence).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { CheckDefinition } from '../../lib/engine/check.ts';
import type { Evidence } from '../../lib/engine/results.ts';
import { defaultRunOptions } from '../../lib/engine/run/runner.ts';
import { createSession } from '../../lib/engine/session/session.ts';
import { createTokens, type TokenState } from '../../lib/engine/session/tokens.ts';
import { createHttpClient } from '../../lib/http/client.ts';
import { createRedactor } from '../../lib/http/record/redact.ts';
import type { HttpRequest, HttpResponse } from '../../lib/http/types.ts';
import { startMockBank, type MockBank } from '../../lib/mock/index.ts';
import { testPki } from '../../lib/pki/index.ts';
import { FullProfile } from '../../lib/profile/schema.ts';

/** the mock's access tokens' life: two quota windows (3600 s each) */
const LIFE = 7200;

let mock: MockBank;
let profile: FullProfile;
beforeAll(async () => {
  mock = await startMockBank({ mode: 'sandbox', pki: await testPki(), limits: { accessTokenSeconds: LIFE } });
  profile = FullProfile.parse(mock.profile('long-lived-tokens'));
});
afterAll(async () => {
  await mock.close();
});

const check = (id: string): CheckDefinition => ({
  id: `test.${id}`,
  suite: 'test',
  requirements: ['TOK-06'],
  title: id,
  run: async () => {},
});
const evidence = (): Evidence => ({ exchanges: [], notes: [], tls: [] });
const statuses = (e: Evidence, url: RegExp): number[] =>
  e.exchanges.filter((x) => url.test(x.url)).map((x) => x.response?.status ?? 0);

type Session = Awaited<ReturnType<typeof createSession>>;
async function withSession(f: (s: Session) => Promise<void>): Promise<void> {
  const session = await createSession({ profile, options: { ...defaultRunOptions, embedded: true }, faults: [] });
  try {
    await f(session);
  } finally {
    await session.close();
  }
}

describe('tokens handed out again, then a move of the run before their use', () => {
  test('the profile: tokens outlive a quota window', () => {
    expect(profile.contract.tokens.accessTokenSeconds).toBe(LIFE);
    expect(profile.contract.quota.windowSeconds).toBe(3600);
  });

  for (const kind of ['code', 'partner'] as const) {
    test(`the ${kind} token: valid when used after a quota window's move`, async () => {
      await withSession(async (session) => {
        const mover = session.context(check('mover'), evidence());
        const window = profile.contract.quota.windowSeconds + 1;
        const e = evidence();
        const user = session.context(check(`${kind}-user`), e);
        const alice = user.customer(0);
        const get = (): Promise<string> =>
          kind === 'code' ? user.tokens.codeToken(alice) : user.tokens.partnerToken();
        const first = await get();
        // another check's fresh quota window, then this check's hand-out, then another window before its use
        await mover.clock.advance(window);
        const token = await get();
        // handed out again while nothing moves: the same token
        expect(await get()).toBe(token);
        await mover.clock.advance(window);
        const res = await user.api({ op: 'get', as: kind, token, label: `get with the ${kind} token` });
        expect(statuses(e, /\/transfers\//)).toEqual([404]);
        expect(res.status).toBe(404);
        // the one issued before the first move was not handed out after it: a code token renewed with the refresh
        // token of its grant (no consent), the partner token requested again
        expect(token).not.toBe(first);
        expect(e.exchanges.filter((x) => /\/oauth\//.test(x.url)).map((x) => x.label)).toEqual(
          kind === 'code'
            ? ['authorize', 'token (authorization_code)', 'token (refresh_token)']
            : ['token (client_credentials, partner, form)', 'token (client_credentials, partner, form)'],
        );
      });
    });
  }
});

describe('the partner token after a plain client-credentials request of the partner', () => {
  test('aged from that request, not from the partner token asked later', async () => {
    await withSession(async (session) => {
      const e = evidence();
      const ctx = session.context(check('partner-after-plain'), e);
      const plain = (await ctx.tokens.clientCredentials('partner')).token?.access_token;
      await ctx.clock.advance(3000);
      // the plain request's token, 3000 s old, is the partner token too
      expect(await ctx.tokens.partnerToken()).toBe(plain);
      // 3600 s after the plain request: less than a window's move left of its life, whenever the partner token was
      // first asked for; then a window's move before its use
      await ctx.clock.advance(600);
      const token = await ctx.tokens.partnerToken();
      await ctx.clock.advance(profile.contract.quota.windowSeconds + 1);
      await ctx.api({ op: 'get', as: 'partner', token, label: 'get with the partner token' });
      expect(statuses(e, /\/transfers\//)).toEqual([404]);
      expect(token).not.toBe(plain);
    });
  });
});

/** a sandbox token endpoint whose answers state no lifetime, on the session's state */
function withoutLifetime(state: TokenState): { tokens: ReturnType<typeof createTokens>; requests: () => number } {
  let n = 0;
  const send = (req: HttpRequest): Promise<HttpResponse> => {
    if (!/token$/.test(req.url)) return Promise.reject(new Error(`unexpected ${req.url}`));
    const json = { access_token: `t${++n}`, token_type: 'Bearer' };
    return Promise.resolve({
      status: 200,
      headers: { 'content-type': 'application/json' },
      text: JSON.stringify(json),
      json,
    });
  };
  const redactor = createRedactor();
  const tokens = createTokens({
    profile,
    options: defaultRunOptions,
    redactor,
    http: createHttpClient({ redactor, defaultTimeoutMs: 1000 }),
    state,
    send,
    identity: () => undefined,
  });
  return { tokens, requests: () => n };
}

describe('a partner token answer without expires_in', () => {
  test("kept with the contract's lifetime, by the same rule; a plain client-credentials request is not", async () => {
    const state: TokenState = { clockOffsetSeconds: 0, caches: new Map() };
    const { tokens, requests } = withoutLifetime(state);
    const t1 = await tokens.partnerToken();
    expect(await tokens.partnerToken()).toBe(t1);
    expect(requests()).toBe(1);
    // the contract's 7200 s: handed out again while more than one window's move (3601 s) is left
    state.clockOffsetSeconds = LIFE - 3601 - 1;
    expect(await tokens.partnerToken()).toBe(t1);
    state.clockOffsetSeconds = LIFE - 3601 + 1;
    const t2 = await tokens.partnerToken();
    expect(t2).not.toBe(t1);
    expect(requests()).toBe(2);
    // cc-reuse keeps no answer without a stated lifetime
    await tokens.clientCredentials('partner');
    expect(requests()).toBe(3);
  });
});
