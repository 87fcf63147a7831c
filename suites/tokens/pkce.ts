/**
 * HARD-06, PKCE (RFC 7636) as RFC 9700 §2.1.1 asks of an authorization server: a code issued for a code_challenge is
 * exchanged only with its code_verifier (the check sends a challenge itself, whatever the profile says); and, when
 * the profile declares the server PKCE-only (target.oauth.pkce: S256), /authorize without a challenge is refused.
 */
import { Inconclusive, type CheckSpec } from '../../lib/engine/check.ts';
import { controlToken, expectAuthorizeRefused, expectTokenRefused, authorizeControl } from './helpers.ts';

export const pkceChecks: CheckSpec[] = [
  {
    name: 'pkce-verifier-required',
    requirements: ['HARD-06'],
    title:
      'a code issued for a PKCE S256 code_challenge is refused (invalid_grant) when exchanged without its code_verifier',
    async run(ctx) {
      const alice = ctx.customer(0);
      // control: a code of a challenge, exchanged with its verifier, gives a token
      const ok = await ctx.tokens.authorize(alice, { pkce: true });
      if (!ok.code) throw new Inconclusive(`control: /authorize with a code_challenge gave no code: ${ok.outcome}`);
      controlToken(await ctx.tokens.exchangeCode(ok.code), 'exchange with the code_verifier');
      const a = await ctx.tokens.authorize(alice, { pkce: true });
      if (!a.code) throw new Inconclusive(`/authorize with a code_challenge gave no code: ${a.outcome}`);
      expectTokenRefused(
        await ctx.tokens.exchangeCode(a.code, { omitVerifier: true }),
        'invalid_grant',
        [400],
        'exchange of a PKCE code without its code_verifier',
      );
    },
  },
  {
    name: 'pkce-required',
    requirements: ['HARD-06'],
    title: '/authorize of a server the profile declares PKCE-only refuses a request without a code_challenge',
    notApplicable: (p) =>
      p.target.oauth.pkce === 'S256'
        ? undefined
        : 'the profile does not declare the server PKCE-only (target.oauth.pkce)',
    async run(ctx) {
      const alice = ctx.customer(0);
      await authorizeControl(ctx, alice);
      expectAuthorizeRefused(
        ctx,
        await ctx.tokens.authorize(alice, { query: { code_challenge: null, code_challenge_method: null } }),
        'without code_challenge',
      );
    },
  },
];
