import { type CheckSpec, Inconclusive, ensureValue } from '../../lib/engine/check.ts';

import { UNREGISTERED_REDIRECT, expectAuthorizeRefused, redirectsTo, authorizeControl } from './helpers.ts';

export const authorizeChecks: CheckSpec[] = [
  // ---- /authorize ---------------------------------------------------------------------------------------
  {
    name: 'authorize-requires-response-type-code',
    requirements: ['TOK-16'],
    title: '/authorize refuses a missing response_type and a response_type other than code',
    async run(ctx) {
      const alice = ctx.customer(0);
      await authorizeControl(ctx, alice);
      expectAuthorizeRefused(
        ctx,
        await ctx.tokens.authorize(alice, { query: { response_type: null } }),
        'without response_type',
      );
      expectAuthorizeRefused(
        ctx,
        await ctx.tokens.authorize(alice, { query: { response_type: 'token' } }),
        'response_type=token',
      );
    },
  },
  {
    name: 'authorize-requires-client-and-scope',
    requirements: ['TOK-16'],
    title: '/authorize refuses a request without client_id or without scope',
    async run(ctx) {
      const alice = ctx.customer(0);
      await authorizeControl(ctx, alice);
      const noClient = await ctx.tokens.authorize(alice, { query: { client_id: null } });
      expectAuthorizeRefused(ctx, noClient, 'without client_id');
      expectAuthorizeRefused(ctx, await ctx.tokens.authorize(alice, { query: { scope: null } }), 'without scope');
    },
  },
  {
    name: 'authorize-uat-requires-customer',
    requirements: ['TOK-16'],
    title: '/authorize in UAT refuses a request without uuid, without account_id, or without both',
    notApplicable: (p) => (p.environment === 'uat' ? undefined : 'uuid and account_id are required in UAT only'),
    async run(ctx) {
      const alice = ctx.customer(0);
      await authorizeControl(ctx, alice);
      expectAuthorizeRefused(
        ctx,
        await ctx.tokens.authorize(alice, { query: { uuid: null, account_id: null } }),
        'without uuid and account_id',
      );
      expectAuthorizeRefused(ctx, await ctx.tokens.authorize(alice, { query: { uuid: null } }), 'without uuid');
      expectAuthorizeRefused(
        ctx,
        await ctx.tokens.authorize(alice, { query: { account_id: null } }),
        'without account_id',
      );
    },
  },
  {
    name: 'authorize-error-not-redirected-unregistered',
    requirements: ['TOK-16'],
    title: '/authorize never redirects an error to an unregistered redirect_url',
    async run(ctx) {
      const alice = ctx.customer(0);
      await authorizeControl(ctx, alice);
      const a = await ctx.tokens.authorize(alice, {
        redirectUrl: UNREGISTERED_REDIRECT,
        query: { response_type: null },
      });
      ensureValue(
        !redirectsTo(a, UNREGISTERED_REDIRECT),
        'redirect location',
        'the error was redirected to an unregistered redirect_url',
        'an error page, no redirect',
        a.outcome,
      );
      // an error page (4xx), not a 5xx or a consent page: only a refusal shows the rule
      expectAuthorizeRefused(ctx, a, 'an error request with an unregistered redirect_url');
    },
  },
  {
    name: 'authorize-code-to-registered-uri-with-state',
    requirements: ['TOK-17'],
    title: 'the code goes only to the registered redirect URI, and state comes back unchanged',
    async run(ctx) {
      const alice = ctx.customer(0);
      const registered = ctx.profile.clients.code.redirectUri;
      const state = `harness-state/${ctx.newTransferId()}+=&x`;
      const a = await ctx.tokens.authorize(alice, { state });
      if (!a.code) throw new Inconclusive(`control: /authorize gave no code: ${a.outcome}`);
      ensureValue(
        redirectsTo(a, registered),
        'redirect location',
        'the code was delivered to another URI than the registered one',
        registered,
        a.location ? ctx.redact(a.location) : 'none',
      );
      ensureValue(a.state === state, 'state', 'state did not come back unchanged', state, a.state ?? 'absent');
      const evil = await ctx.tokens.authorize(alice, { redirectUrl: UNREGISTERED_REDIRECT });
      ensureValue(
        !redirectsTo(evil, UNREGISTERED_REDIRECT),
        'redirect location',
        'the code was redirected to an unregistered redirect_url',
        'no redirect to it',
        evil.outcome,
      );
      // a server that ignores the parameter sends the code to the registered URI: the rule holds (the flow warns)
      if (evil.code !== undefined && redirectsTo(evil, registered)) return;
      ensureValue(
        evil.code === undefined,
        'code',
        'a code was issued for an unregistered redirect_url',
        'no code',
        evil.outcome,
      );
      // a refusal (4xx, or an error to the registered URI), not a 5xx: only a refusal shows the rule
      expectAuthorizeRefused(ctx, evil, 'an authorization request with an unregistered redirect_url');
    },
  },
];
