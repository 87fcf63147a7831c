import { defineSuite } from '../../lib/engine/check.ts';
import { expectErrorStructure, expectReached } from '../shared.ts';

export const suite = defineSuite('errors', [
  {
    name: 'error-structure-422',
    requirements: ['ERR-01'],
    title: 'a 422 body has exactly status, response_code, property, response_message, description, all strings',
    async run(ctx) {
      const alice = ctx.customer({ workflow: false });
      const body = ctx.transferBody(alice);
      delete body.beneficiary_id;
      const res = await ctx.api({ op: 'validate', token: await ctx.tokens.codeToken(alice), body });
      expectReached(res, [422], 'validate without beneficiary_id');
      expectErrorStructure(res.body, 422, '422 body');
    },
  },
]);
