/** CONV (seed §1, §9): general conventions of the transfers API. */
import { defineSuite, ensure } from '../../lib/engine/check.ts';
import { expectReached } from '../shared.ts';

/** a version segment of a path: /v1, /v2.1 */
const VERSION_SEGMENT = /\/v\d+(?:\.\d+)*(?=\/|$)/i;

export const suite = defineSuite('conventions', [
  {
    name: 'basepath-versioned',
    requirements: ['CONV-01'],
    title: 'the transfers basepath carries the API version (e.g. /v1), and the API is not served without it',
    async run(ctx) {
      const alice = ctx.customer({ workflow: false });
      const { transfersBasepath, validate } = ctx.profile.target.paths;
      ensure(
        VERSION_SEGMENT.test(transfersBasepath),
        'the transfers basepath has no version segment',
        '/v<N> in the basepath',
        transfersBasepath,
      );
      const token = await ctx.tokens.codeToken(alice);
      const body = ctx.transferBody(alice);
      expectReached(
        await ctx.api({ op: 'validate', token, body, label: 'validate through the versioned basepath' }),
        [200],
        'validate through the versioned basepath',
      );
      const unversioned = transfersBasepath.replace(VERSION_SEGMENT, '');
      const res = await ctx.api({
        op: 'validate',
        token,
        body,
        path: `${unversioned}${validate}`,
        label: 'validate without the version segment',
      });
      ensure(
        res.status < 200 || res.status >= 300,
        `validate without the version segment (${unversioned}${validate}) is served`,
        'not served (e.g. 404)',
        res.status,
      );
    },
  },
  {
    name: 'empty-body-refused',
    requirements: ['CONV-02'],
    title: 'POST validate and PUT create without a body are refused (400 or 422)',
    async run(ctx) {
      const alice = ctx.customer({ workflow: false });
      const token = await ctx.tokens.codeToken(alice);
      const want = ctx.profile.contract.statuses.emptyBody;
      expectReached(
        await ctx.api({ op: 'validate', token, label: 'validate without a body' }),
        want,
        'POST validate without a body',
      );
      expectReached(
        await ctx.api({ op: 'create', token, label: 'create without a body' }),
        want,
        'PUT create without a body',
      );
    },
  },
]);
