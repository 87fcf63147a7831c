import { type CheckSpec, ensure, ensureStatus, Inconclusive, isObject } from '../../lib/engine/check.ts';

import type { Customer } from '../../lib/profile/schema.ts';

import { mask } from '../../lib/mask/index.ts';
import { expectControl } from '../shared.ts';
import { otherThan } from './helpers.ts';

export const bindingChecks: CheckSpec[] = [
  // ---- what a token may act on -------------------------------------------------------------------------
  {
    name: 'code-token-bound-to-account',
    requirements: ['TOK-12'],
    title: "an authorization-code token acts only on its customer's account: another customer's account is 403",
    async run(ctx) {
      const alice = ctx.customer(0);
      const bob = otherThan(ctx, alice);
      const token = await ctx.tokens.codeToken(alice);
      expectControl(
        await ctx.api({ op: 'validate', token, body: ctx.transferBody(alice), label: 'validate (own account)' }),
        [200],
        'validate with the own account (control)',
      );
      const want = ctx.profile.contract.statuses.mismatchedIdentifier;
      const bobAccount = ctx.transferBody(bob).account_id;
      // the other customer's account with the token customer's beneficiary, and with the other customer's own: a
      // target may judge the beneficiary first (against either customer) and answer 422 naming beneficiary_id,
      // which refuses the call but does not show the account rule; one of the two must meet the account rule
      const probes = [
        ["another customer's account, own beneficiary", ctx.transferBody(alice, { account_id: bobAccount })],
        ["another customer's account and beneficiary", ctx.transferBody(bob)],
      ] as const;
      let shown = 0;
      for (const [what, body] of probes) {
        const res = await ctx.api({ op: 'validate', token, body, label: `validate (${what})` });
        if (want.includes(res.status)) {
          shown++;
          continue;
        }
        const b = res.body;
        const beneficiaryRefused = res.status === 422 && isObject(b) && b.property === 'beneficiary_id';
        ensure(
          beneficiaryRefused,
          `${what}: expected HTTP ${want.join(' or ')}, observed ${res.status}`,
          want.join(' or '),
          res.status,
        );
      }
      if (shown === 0)
        throw new Inconclusive(
          "both calls naming another customer's account were refused for the beneficiary (422): the account rule was not reached",
        );
    },
  },
  {
    name: 'cc-token-bound-by-metadata',
    requirements: ['TOK-13'],
    title: 'a client-credentials token bound by oauth_metadata acts only on that identifier: another one is 403',
    notApplicable: (p) =>
      p.clients.partner?.oauthMetadata ? undefined : 'the profile gives no oauth_metadata for the partner client',
    async run(ctx) {
      const meta = ctx.profile.clients.partner!.oauthMetadata!;
      const byEmirates = 'emirates_id' in meta;
      const own = ctx.profile.customers.find((c) =>
        'emirates_id' in meta ? c.emiratesId === meta.emirates_id : c.accountId === meta.account_id,
      );
      if (!own) throw new Inconclusive('no customer of the profile holds the identifier of the partner oauth_metadata');
      const other = otherThan(ctx, own);
      const bodyFor = (c: Customer): Record<string, unknown> => {
        const b = ctx.transferBody(c);
        if (!byEmirates) return b;
        if (!c.emiratesId) throw new Inconclusive(`the profile gives no emirates id for customer ${c.name}`);
        delete b.account_id;
        return { ...b, emirates_id: mask(c.emiratesId) };
      };
      const token = await ctx.tokens.partnerToken();
      expectControl(
        await ctx.api({
          op: 'validate',
          as: 'partner',
          token,
          body: bodyFor(own),
          label: 'validate (bound identifier)',
        }),
        [200],
        'validate with the bound identifier (control)',
      );
      const res = await ctx.api({
        op: 'validate',
        as: 'partner',
        token,
        body: bodyFor(other),
        label: 'validate (another identifier)',
      });
      const want = ctx.profile.contract.statuses.mismatchedIdentifier;
      ensureStatus(res, want, "another customer's identifier");
    },
  },
];
