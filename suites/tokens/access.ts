import { type CheckSpec, ensureEqual, ensureStatus, ensureValue, Inconclusive } from '../../lib/engine/check.ts';

import { bearerChallenge, expectTokenDead, expectTokenAccepted, freshGrant, probe } from './helpers.ts';

export const accessChecks: CheckSpec[] = [
  // ---- access tokens -----------------------------------------------------------------------------------
  {
    name: 'access-token-expires',
    requirements: ['TOK-06'],
    title: 'an access token older than contract.tokens.accessTokenSeconds gets 401',
    needs: ['clock'],
    waitSeconds: (p) => p.contract.tokens.accessTokenSeconds + 1,
    exclusive: true,
    clockGroup: 'token-expiry',
    async run(ctx) {
      // the session's token of the customer (issued before the clock moves, so older than the limit after it)
      // the token must still be valid when the control finds it working: no move until then
      // (a window of get's quota: its calls are served, no quota check fills it meanwhile)
      const access = await ctx.clock.window(
        { calls: ['get'] },
        'an access token between its issue and the control',
        async () => {
          const token = await ctx.tokens.codeToken(ctx.customer(0));
          await expectTokenAccepted(
            ctx,
            await probe(ctx, token, 'access token, before the clock moves'),
            'the access token',
          );
          return token;
        },
      );
      // at least the token's life (the clock group may move it further: the token is then only older)
      await ctx.clock.advanceTogether(ctx.profile.contract.tokens.accessTokenSeconds + 1);
      const expired = await ctx.clock.window(
        { calls: ['get'] },
        'a probe of the expired token, until it is answered',
        () => probe(ctx, access, 'expired access token'),
      );
      await expectTokenDead(
        ctx,
        expired,
        `an access token ${ctx.profile.contract.tokens.accessTokenSeconds + 1} s old`,
      );
    },
  },
  {
    name: 'missing-token-401',
    requirements: ['TOK-07'],
    title:
      'a call without a token gets 401 with a Bearer challenge: no error code (RFC 6750 §3.1) or error="invalid_token" (contract.md)',
    async run(ctx) {
      const res = await probe(ctx, null, 'no Authorization header');
      await expectTokenDead(ctx, res, 'a call without a token');
      const ch = bearerChallenge(res.headers);
      ensureValue(
        ch !== undefined,
        'WWW-Authenticate',
        'the 401 carries no WWW-Authenticate: Bearer challenge',
        'WWW-Authenticate: Bearer ...',
        res.headers['www-authenticate'] ?? 'absent',
      );
      // RFC 6750 §3.1 says the challenge SHOULD NOT carry an error code here; contract.md's invalid_token passes too
      ensureValue(
        ch.error === undefined || ch.error === 'invalid_token',
        'WWW-Authenticate error',
        'the challenge to a request without credentials carries another error code',
        'no error parameter, or error="invalid_token"',
        ch.error,
      );
    },
  },
  {
    name: 'invalid-token-401',
    requirements: ['TOK-07'],
    title: 'a malformed or unknown token gets 401 with WWW-Authenticate: Bearer error="invalid_token"',
    async run(ctx) {
      const cases: [string, string][] = [
        ['malformed token', 'not a token!'],
        ['unknown token', `unknown${'A'.repeat(36)}`],
      ];
      for (const [what, token] of cases) {
        const res = await probe(ctx, token, what);
        await expectTokenDead(ctx, res, `a ${what}`);
        const ch = bearerChallenge(res.headers);
        ensureValue(
          ch !== undefined,
          'WWW-Authenticate',
          `${what}: the 401 carries no WWW-Authenticate: Bearer challenge`,
          'WWW-Authenticate: Bearer error="invalid_token"',
          res.headers['www-authenticate'] ?? 'absent',
        );
        ensureEqual(ch.error, 'invalid_token', `${what}: challenge error`);
      }
    },
  },
  {
    name: 'revoked-token-401',
    requirements: ['TOK-07'],
    title: 'a revoked token gets 401 with WWW-Authenticate: Bearer error="invalid_token"',
    async run(ctx) {
      // the contract's revocation: re-use of the code revokes the tokens issued from it
      // under a lease from the grant to the probe: a clock move between them (another check's fresh quota window)
      // would expire the token, and its 401 would stand for a revocation that never happened
      const res = await ctx.clock.hold('a token between its positive control and its revocation probe', async () => {
        const g = await freshGrant(ctx, ctx.customer(0));
        await expectTokenAccepted(
          ctx,
          await probe(ctx, g.access, 'access token before revocation'),
          'the access token',
        );
        await ctx.tokens.exchangeCode(g.code);
        return probe(ctx, g.access, 'revoked access token');
      });
      if (res.status !== 401 && res.status !== 429) {
        throw new Inconclusive(
          `no revoked token to test: the token still works after its code was re-used (HTTP ${res.status}); revocation is TOK-04's rule`,
        );
      }
      await expectTokenDead(ctx, res, 'a revoked token');
      const ch = bearerChallenge(res.headers);
      ensureValue(
        ch !== undefined,
        'WWW-Authenticate',
        'the 401 carries no WWW-Authenticate: Bearer challenge',
        'WWW-Authenticate: Bearer error="invalid_token"',
        res.headers['www-authenticate'] ?? 'absent',
      );
      ensureEqual(ch.error, 'invalid_token', 'challenge error');
    },
  },
  {
    name: 'scope-required',
    requirements: ['TOK-08'],
    title: 'a token without the transfers scope gets 403 with error="insufficient_scope"',
    async run(ctx) {
      const alice = ctx.customer(0);
      const { transfers, other } = ctx.profile.contract.scopes;
      await expectTokenAccepted(
        ctx,
        await probe(ctx, await ctx.tokens.codeToken(alice), `token with scope ${transfers}`),
        `a token with scope ${transfers}`,
      );
      const g = await ctx.tokens.codeGrant(alice, { scope: other });
      const granted = typeof g.token?.scope === 'string' ? g.token.scope.split(' ') : [other];
      if (granted.includes(transfers))
        throw new Inconclusive(`asked for scope "${other}", the target granted "${String(g.token?.scope)}"`);
      const res = await probe(ctx, g.access, `token with scope ${other} only`);
      ensureStatus(res, 403, `a token with scope "${other}" only`);
      const ch = bearerChallenge(res.headers);
      ensureEqual(ch?.error, 'insufficient_scope', 'WWW-Authenticate Bearer error');
    },
  },
];
