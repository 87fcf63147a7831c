/** Validate (the pre-confirmation call): XFER-01's answer, XFER-02's approvers. */
import { type CheckSpec, isObject, ensureValue } from '../../lib/engine/check.ts';
import { bodyObject, expectMoney, expectReached } from '../shared.ts';

export const validatePreConfirmation: CheckSpec = {
  name: 'validate-pre-confirmation',
  requirements: ['XFER-01'],
  title: 'validate returns charges, debit amount, total credit amount and authentication mode',
  async run(ctx) {
    const alice = ctx.customer({ workflow: false });
    const res = await ctx.api({
      op: 'validate',
      token: await ctx.tokens.codeToken(alice),
      body: ctx.transferBody(alice),
    });
    expectReached(res, [200], 'validate');
    const b = bodyObject(res, 'validate');
    expectMoney(b.charges, 'charges');
    expectMoney(b.debit_amount, 'debit_amount');
    expectMoney(b.total_credit_amount, 'total_credit_amount');
    ensureValue(
      typeof b.authentication_mode === 'string' && b.authentication_mode.length > 0,
      'authentication_mode',
      'authentication_mode missing',
      'non-empty string',
      b.authentication_mode,
    );
  },
};

export const approversOnlyWithWorkflow: CheckSpec = {
  name: 'approvers-only-with-workflow',
  requirements: ['XFER-02'],
  title: 'validate lists approvers for a customer with a workflow, and none for a customer without',
  async run(ctx) {
    const bob = ctx.customer({ workflow: true });
    const alice = ctx.customer({ workflow: false });
    const withWf = await ctx.api({
      op: 'validate',
      token: await ctx.tokens.codeToken(bob),
      body: ctx.transferBody(bob),
      label: 'validate (workflow customer)',
    });
    expectReached(withWf, [200], 'validate for a workflow customer');
    const a = bodyObject(withWf, 'validate for a workflow customer').approvers;
    ensureValue(
      Array.isArray(a) && a.length > 0,
      'approvers',
      'a customer with a workflow gets no approvers',
      'a non-empty approvers list',
      a,
    );
    ensureValue(
      a.every((x) => isObject(x) && Object.keys(x).length > 0),
      'approvers',
      'an approver is not a non-empty object',
      'approver objects',
      a,
    );
    const without = await ctx.api({
      op: 'validate',
      token: await ctx.tokens.codeToken(alice),
      body: ctx.transferBody(alice),
      label: 'validate (no workflow)',
    });
    expectReached(without, [200], 'validate for a customer without a workflow');
    const b = bodyObject(without, 'validate for a customer without a workflow');
    // an empty list lists no approver: `approvers: []` says the same as no member
    ensureValue(
      !('approvers' in b) || (Array.isArray(b.approvers) && b.approvers.length === 0),
      'approvers',
      'a customer without a workflow gets approvers',
      'no approvers member, or an empty list',
      b.approvers,
    );
  },
};
