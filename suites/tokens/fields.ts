import { type CheckSpec, ensureValue } from '../../lib/engine/check.ts';

import { expectTokenFields, tokenOf } from '../shared.ts';

export const fieldsChecks: CheckSpec[] = [
  {
    name: 'code-token-fields',
    requirements: ['TOK-01'],
    title:
      'authorization-code token response has token_type bearer, access_token, expires_in 3600, consented_on, scope',
    async run(ctx) {
      const g = await ctx.tokens.codeGrant(ctx.customer(0));
      expectTokenFields(tokenOf(g, 'code exchange'), ctx, ctx.profile.clients.code.scope);
    },
  },
  {
    name: 'cc-token-fields',
    requirements: ['TOK-01'],
    title:
      'client-credentials token response has token_type bearer, access_token, expires_in 3600, consented_on, scope',
    async run(ctx) {
      const r = await ctx.tokens.clientCredentials('partner', { fresh: true });
      expectTokenFields(tokenOf(r, 'client-credentials token request'), ctx, ctx.profile.clients.partner.scope);
    },
  },
  {
    name: 'code-token-has-refresh',
    requirements: ['TOK-02'],
    title: 'authorization-code tokens carry refresh_token and an integer refresh_token_expires_in',
    async run(ctx) {
      const t = tokenOf(await ctx.tokens.codeGrant(ctx.customer(0)), 'code exchange');
      ensureValue(
        typeof t.refresh_token === 'string' && t.refresh_token.length > 0,
        'refresh_token',
        'refresh_token missing',
        'non-empty string',
        typeof t.refresh_token,
      );
      ensureValue(
        Number.isInteger(t.refresh_token_expires_in) && (t.refresh_token_expires_in as number) > 0,
        'refresh_token_expires_in',
        'refresh_token_expires_in is not a positive integer',
        'integer seconds',
        t.refresh_token_expires_in,
      );
      const max = ctx.profile.contract.tokens.refreshMaxDays * 86400;
      ensureValue(
        (t.refresh_token_expires_in as number) <= max,
        'refresh_token_expires_in',
        `refresh_token_expires_in exceeds ${ctx.profile.contract.tokens.refreshMaxDays} days`,
        `<= ${max}`,
        t.refresh_token_expires_in,
      );
    },
  },
  {
    name: 'cc-token-has-no-refresh',
    requirements: ['TOK-02'],
    title: 'client-credentials tokens carry neither refresh_token nor refresh_token_expires_in',
    async run(ctx) {
      const t = tokenOf(
        await ctx.tokens.clientCredentials('partner', { fresh: true }),
        'client-credentials token request',
      );
      ensureValue(
        !('refresh_token' in t),
        'refresh_token',
        'a client-credentials token response carries refresh_token',
        'absent',
        'present',
      );
      ensureValue(
        !('refresh_token_expires_in' in t),
        'refresh_token_expires_in',
        'a client-credentials token response carries refresh_token_expires_in',
        'absent',
        'present',
      );
    },
  },
];
