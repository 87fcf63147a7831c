import { type CheckSpec, Inconclusive, ensureValue } from '../../lib/engine/check.ts';
import type { CheckContext } from '../../lib/engine/session/context.ts';

import { introspectionEndpoint } from '../../lib/oauth/index.ts';
import { together } from '../shared.ts';
import {
  controlToken,
  errorOf,
  expectTokenDead,
  expectTokenRefused,
  expectTokenAccepted,
  freshGrant,
  inactiveControl,
  introspect,
  probe,
} from './helpers.ts';

export const codesChecks: CheckSpec[] = [
  // ---- codes -------------------------------------------------------------------------------------------
  {
    name: 'code-single-use',
    requirements: ['TOK-03'],
    title: 'an authorization code works once: a second exchange is invalid_grant',
    async run(ctx) {
      const g = await freshGrant(ctx, ctx.customer(0));
      const again = await ctx.tokens.exchangeCode(g.code);
      expectTokenRefused(again, 'invalid_grant', [400], 'second exchange of the same code');
    },
  },
  {
    name: 'code-reuse-revokes-tokens',
    requirements: ['TOK-04'],
    title:
      'a second exchange of a code revokes the access token issued from it (on the API, or by introspection where the profile names it)',
    // under a lease from the grant to the last probe: a clock move between them (another check's fresh quota
    // window) would expire the token, and its 401 would pass the rule with no revocation
    run: (ctx) => ctx.clock.hold('a token between its positive control and its revocation probe', () => codeReuse(ctx)),
  },
  {
    name: 'code-expires',
    requirements: ['TOK-05'],
    title: 'an authorization code past its validity (contract.tokens.codeSeconds) is invalid_grant',
    needs: ['clock'],
    waitSeconds: (p) => p.contract.tokens.codeSeconds + 1,
    exclusive: true,
    clockGroup: 'token-expiry',
    async run(ctx) {
      const alice = ctx.customer(0);
      // the fresh code must still be valid when it is exchanged: no move until then
      const stale = await ctx.clock.hold('a fresh code between /authorize and its exchange', async () => {
        const [fresh, old] = await together([ctx.tokens.authorize(alice), ctx.tokens.authorize(alice)]);
        if (!fresh.code || !old.code)
          throw new Inconclusive(`/authorize gave no code: ${(fresh.code ? old : fresh).outcome}`);
        controlToken(await ctx.tokens.exchangeCode(fresh.code), 'exchange of a fresh code');
        return old.code;
      });
      // at least the code's validity (the clock group may move it further: the code is then only older)
      await ctx.clock.advanceTogether(ctx.profile.contract.tokens.codeSeconds + 1);
      expectTokenRefused(
        await ctx.tokens.exchangeCode(stale),
        'invalid_grant',
        [400],
        `exchange of a code ${ctx.profile.contract.tokens.codeSeconds + 1} s old`,
      );
    },
  },
];

/** TOK-04's sequence: a fresh grant's token accepted, the code re-used, the same token refused */
async function codeReuse(ctx: CheckContext): Promise<void> {
  const g = await freshGrant(ctx, ctx.customer(0));
  const first = 'the first access token, before the code re-use';
  const after = 'the access token issued from a re-used code';
  // the evidence of the token's state: the profile's introspection endpoint (RFC 7662), else the API's answer
  const byIntrospection = introspectionEndpoint(ctx.profile) !== undefined;
  if (byIntrospection) {
    if ((await introspect(ctx, g.access, first)) !== true) throw inactiveControl(ctx, first);
  } else await expectTokenAccepted(ctx, await probe(ctx, g.access, first), first);
  const again = await ctx.tokens.exchangeCode(g.code);
  ctx.note(`second exchange of the code: HTTP ${again.response.status} ${errorOf(again) ?? ''}`);
  if (byIntrospection) {
    const active = await introspect(ctx, g.access, after);
    ensureValue(
      active === false,
      'active',
      `${after} is still active (introspection)`,
      'active: false',
      `active: ${String(active)}`,
    );
  } else await expectTokenDead(ctx, await probe(ctx, g.access, after), after);
}
