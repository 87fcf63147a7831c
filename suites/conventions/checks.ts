/** CONV (specification §1, §9): general conventions of the transfers API. */
import { TransportError } from '../../lib/http/types.ts';
import {
  CheckFailed,
  Inconclusive,
  NotRun,
  defineSuite,
  ensure,
  leakFailure,
  statusFailure,
  ensureValue,
} from '../../lib/engine/check.ts';
import type { ApiResponse, CheckContext } from '../../lib/engine/session/context.ts';
import { headerLeaks } from '../errors/leaks.ts';
import { clip, expectReached } from '../shared.ts';

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
      ensureValue(
        VERSION_SEGMENT.test(transfersBasepath),
        'transfers basepath',
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

  // ---- HARD: hardening beyond the specification (SHOULD)
  {
    name: 'oversize-body-413',
    requirements: ['HARD-04'],
    title: "a request body one byte over the profile's size limit (contract.maxRequestBytes) is refused with 413",
    async run(ctx) {
      const limit = ctx.profile.contract.maxRequestBytes;
      if (limit === undefined)
        throw new NotRun('the profile states no request size limit (contract.maxRequestBytes): the probe is not run');
      const alice = ctx.customer({ workflow: false });
      const token = await ctx.tokens.codeToken(alice);
      // positive control: the same call with a body of ordinary size is processed
      expectReached(
        await ctx.api({ op: 'validate', token, body: ctx.transferBody(alice), label: 'validate (ordinary size)' }),
        [200],
        'validate with an ordinary body',
      );
      const text = JSON.stringify(ctx.transferBody(alice));
      // JSON whitespace after the opening brace pads the document to limit + 1 bytes (ASCII: bytes = characters)
      const padded = `{${' '.repeat(Math.max(0, limit + 1 - text.length))}${text.slice(1)}`;
      const res = await sendOversized(ctx, token, padded, `validate (${limit + 1} bytes)`);
      if (res.status === 413) return;
      throw CheckFailed.of(
        statusFailure(
          res,
          [413],
          `a body of ${limit + 1} bytes (limit ${limit}) was answered HTTP ${res.status}, not 413`,
          {
            operation: 'validate',
          },
        ),
      );
    },
  },
  {
    name: 'no-software-headers',
    requirements: ['HARD-05'],
    title: 'no response header names server software or its version (Server, X-Powered-By, …; Via is not one)',
    async run(ctx) {
      const alice = ctx.customer({ workflow: false });
      const token = await ctx.tokens.codeToken(alice);
      const answers: [string, ApiResponse][] = [
        ['validate', await ctx.api({ op: 'validate', token, body: ctx.transferBody(alice), label: 'validate' })],
        ['get unknown id', await ctx.api({ op: 'get', token, label: 'get unknown id' })],
        ['get without token', await ctx.api({ op: 'get', token: null, label: 'get without token' })],
      ];
      const found = answers.flatMap(([what, res]) =>
        headerLeaks(res.headers).map((l) => `${what}: ${l.where}: ${l.excerpt}`),
      );
      if (found.length > 0)
        throw CheckFailed.of(
          leakFailure(`response headers name server software: ${clip(found.join('; '), 400)}`, found, {
            title: 'server software named',
            expected: 'no Server/X-Powered-By naming software or a version',
          }),
        );
      noteChecked(ctx, answers.length);
    },
  },
]);

/**
 * a connection reset while the body is still being sent may erase the answer on its way (RFC 9112 §9.6: a server
 * that closes at once after an early 413; a relay, a proxy): the oversized probe is sent again, this many times at
 * most, each a call of the validate quota
 */
export const OVERSIZE_ATTEMPTS = 3;

/** the oversized call, sent again after a transport error; inconclusive when no attempt got an HTTP answer */
async function sendOversized(ctx: CheckContext, token: string, rawBody: string, label: string): Promise<ApiResponse> {
  const lost: string[] = [];
  for (let attempt = 1; attempt <= OVERSIZE_ATTEMPTS; attempt++) {
    try {
      const res = await ctx.api({ op: 'validate', token, rawBody, label: attempt === 1 ? label : `${label}, again` });
      if (lost.length > 0)
        ctx.note(
          `adapted: the oversized request was sent ${attempt} times (a validate call each); ` +
            `${lost.length} got no HTTP answer (${clip(lost.join('; '), 300)})`,
        );
      return res;
    } catch (e) {
      // a call not sent (the quota budget of a non-destructive run) keeps its verdict
      if (!(e instanceof TransportError)) throw e;
      lost.push(e.message);
    }
  }
  // a connection closed while uploading is a refusal of some kind, but not the 413 the rule asks for
  throw new Inconclusive(
    `the oversized request got no HTTP answer in ${OVERSIZE_ATTEMPTS} attempts (${clip(lost.join('; '), 400)})`,
  );
}

function noteChecked(ctx: CheckContext, n: number): void {
  ctx.note(`${n} answers' headers inspected`);
}
