import {
  CheckFailed,
  Inconclusive,
  defineSuite,
  ensureEqual,
  isObject,
  leakFailure,
  ensureValue,
} from '../../lib/engine/check.ts';
import type { ApiCall, ApiResponse, CheckContext } from '../../lib/engine/session/context.ts';
import { bodyObject, clip, expectErrorStructure, expectReached, together } from '../shared.ts';
import { bodyLeaks, isGatewayPage, pageLeaks } from './leaks.ts';
import { BROKEN_JSON, malformedBody, sealText, withoutEcho } from './bodies.ts';
import { invalidDocumentsProperty } from './property.ts';
import { documentInputsProperty } from './document-property.ts';

/** A validate call as the first customer without a workflow (code client, cached token). */
async function validateAs(ctx: CheckContext, body: unknown, label: string): Promise<ApiResponse> {
  const alice = ctx.customer({ workflow: false });
  return ctx.api({ op: 'validate', token: await ctx.tokens.codeToken(alice), body, label });
}

/** A 422 naming `property`: a refusal by a gate (401/403/429) is inconclusive, any other status fails. */
async function expect422Naming(
  ctx: CheckContext,
  body: unknown,
  property: string,
  what: string,
): Promise<Record<string, unknown>> {
  const res = await validateAs(ctx, body, `validate (${what})`);
  expectReached(res, [422], what);
  const b = bodyObject(res, what);
  ensureEqual(b.property, property, `${what}: property`);
  return b;
}

/** A value of the wrong type (or out of its list) for each required property: an invalid, present value. */
const INVALID: Record<string, unknown> = {
  beneficiary_id: 12345,
  amount: 'ten',
  account_id: 12345,
  'amount.value': 10,
  'amount.currency': 7,
};

/**
 * ERR-02's "a message that says it is missing", in any language or wording: a non-empty response_message, and not
 * the very message the target gives for an invalid (present) value of the same property (a generic "invalid"
 * message does not say the property is missing). When the invalid value is not answered with a 422 naming the
 * property, the second part cannot be judged: inconclusive, naming it (never a pass on the first part alone).
 */
async function expectSaysMissing(
  ctx: CheckContext,
  missing: Record<string, unknown>,
  property: string,
  invalidBody: unknown,
): Promise<void> {
  const msg = missing.response_message;
  ensureValue(
    typeof msg === 'string' && msg.trim().length > 0,
    'response_message',
    `without ${property}: response_message is empty`,
    'a message saying the property is missing',
    msg,
  );
  const res = await validateAs(ctx, invalidBody, `validate with an invalid ${property}`);
  // without the invalid value's own 422 message there is nothing to tell "missing" apart from: that half of the
  // rule is not verified, and the check does not pass on the other half
  const unjudged = (why: string): Inconclusive =>
    new Inconclusive(
      `without ${property}: 422 naming it, but whether its message says the property is missing was not verified: ${why}`,
    );
  if (res.status !== 422 || (res.opened && !res.opened.ok) || !isObject(res.body))
    throw unjudged(
      `an invalid ${property} was answered HTTP ${res.status}, not a 422 body to compare the message with`,
    );
  if (res.body.property !== property)
    throw unjudged(`the 422 for an invalid ${property} names ${JSON.stringify(res.body.property)}, not ${property}`);
  ensureValue(
    res.body.response_message !== msg,
    'response_message',
    `without ${property}: response_message is the same as for an invalid value, it does not say the property is missing`,
    'a message saying the property is missing',
    msg,
  );
}

/** The valid request with `amount` replaced. */
function withAmount(ctx: CheckContext, amount: Record<string, unknown>): Record<string, unknown> {
  const body = ctx.transferBody(ctx.customer({ workflow: false }));
  return { ...body, amount: { ...(body.amount as Record<string, unknown>), ...amount } };
}

/** Allow header as a set of upper-case methods */
function allowOf(res: ApiResponse): Set<string> {
  return new Set(
    (res.headers.allow ?? '')
      .split(',')
      .map((m) => m.trim().toUpperCase())
      .filter(Boolean),
  );
}

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
      expectErrorStructure(bodyObject(res, '422 body'), 422, '422 body');
    },
  },

  // ---- ERR-02: missing required properties
  {
    name: 'missing-top-level-property',
    requirements: ['ERR-02'],
    title: 'a missing beneficiary_id, amount or account_id is 422 naming it, with a message that says it is missing',
    async run(ctx) {
      // the properties side by side (each its own two calls, one after the other)
      await together(
        ['beneficiary_id', 'amount', 'account_id'].map(async (p) => {
          const body = ctx.transferBody(ctx.customer({ workflow: false }));
          delete body[p];
          const b = await expect422Naming(ctx, body, p, `validate without ${p}`);
          await expectSaysMissing(ctx, b, p, {
            ...ctx.transferBody(ctx.customer({ workflow: false })),
            [p]: INVALID[p],
          });
        }),
      );
    },
  },
  {
    name: 'missing-nested-property',
    requirements: ['ERR-02'],
    title:
      'a missing amount.value or amount.currency is 422 naming it with a dot, with a message that says it is missing',
    async run(ctx) {
      const members = [
        ['value', 'amount.value'],
        ['currency', 'amount.currency'],
      ] as const;
      await together(
        members.map(async ([member, p]) => {
          const body = ctx.transferBody(ctx.customer({ workflow: false }));
          const amount = { ...(body.amount as Record<string, unknown>) };
          delete amount[member];
          const b = await expect422Naming(ctx, { ...body, amount }, p, `validate without ${p}`);
          await expectSaysMissing(ctx, b, p, withAmount(ctx, { [member]: INVALID[p] }));
        }),
      );
    },
  },

  // ---- ERR-03: invalid values
  {
    name: 'unknown-currency-refused',
    requirements: ['ERR-03'],
    title: 'a currency that is not in the currency code list is 422 naming amount.currency',
    async run(ctx) {
      const code = ctx.profile.contract.invalidCurrency;
      await expect422Naming(
        ctx,
        withAmount(ctx, { currency: code }),
        'amount.currency',
        `validate with currency ${code}`,
      );
    },
  },
  {
    name: 'invalid-amount-refused',
    requirements: ['ERR-03'],
    title: 'a zero, negative or three-decimal amount is 422 naming amount.value',
    async run(ctx) {
      for (const value of ['0.00', '-10.00', '10.005']) {
        await expect422Naming(ctx, withAmount(ctx, { value }), 'amount.value', `validate with amount ${value}`);
      }
    },
  },

  // ---- ERR-04: 404, 405, 400
  {
    name: 'unknown-transfer-404',
    requirements: ['ERR-04'],
    title: 'GET of a transfer id that does not exist is 404',
    async run(ctx) {
      const alice = ctx.customer({ workflow: false });
      const res = await ctx.api({
        op: 'get',
        transferId: ctx.newTransferId(),
        token: await ctx.tokens.codeToken(alice),
        label: 'get unknown id',
      });
      expectReached(res, [404], 'GET of an unknown transfer id');
    },
  },
  {
    name: 'method-not-allowed-405',
    requirements: ['ERR-04'],
    title:
      'a method the resource does not allow (DELETE /transfers/{id}; GET /transfers/validate, or 404 there) is 405 with an Allow header',
    async run(ctx) {
      const alice = ctx.customer({ workflow: false });
      const token = await ctx.tokens.codeToken(alice);
      // the transfer exists, so "not found" cannot be the answer to a DELETE of it
      const id = ctx.newTransferId();
      const created = await ctx.api({
        op: 'create',
        transferId: id,
        token,
        body: ctx.transferBody(alice),
        label: 'create (setup)',
      });
      expectReached(created, ctx.profile.contract.statuses.create, 'create (setup)');
      // GET /transfers/validate may also be 404: a router that resolves /transfers/{id} first reads it as the GET of
      // a transfer named "validate", which does not exist (RFC 9110 leaves the order of resolution to the server)
      const cases: { call: ApiCall; refused: string; allowedOne: string[]; alsoOk: number[] }[] = [
        {
          call: { op: 'get', transferId: id, token, method: 'DELETE', label: 'DELETE transfer' },
          refused: 'DELETE',
          allowedOne: ['GET', 'PUT'],
          alsoOk: [],
        },
        {
          call: { op: 'validate', token, method: 'GET', label: 'GET validate' },
          refused: 'GET',
          allowedOne: ['POST'],
          alsoOk: [404],
        },
      ];
      for (const c of cases) {
        const what = `${c.refused} ${c.call.op === 'validate' ? '/transfers/validate' : '/transfers/{id}'}`;
        const res = await ctx.api(c.call);
        expectReached(res, [405, ...c.alsoOk], what);
        if (res.status !== 405) continue;
        const allow = allowOf(res);
        ensureValue(
          allow.size > 0,
          'Allow',
          `${what}: the 405 answer has no Allow header`,
          `Allow: ${c.allowedOne.join(', ')}`,
          res.headers.allow ?? '(none)',
        );
        ensureValue(
          !allow.has(c.refused),
          'Allow',
          `${what}: Allow lists the refused method`,
          `without ${c.refused}`,
          res.headers.allow,
        );
        ensureValue(
          c.allowedOne.some((m) => allow.has(m)),
          'Allow',
          `${what}: Allow does not list the method the resource offers`,
          c.allowedOne.join(' or '),
          res.headers.allow,
        );
      }
    },
  },
  {
    name: 'malformed-json-400',
    requirements: ['ERR-04'],
    title: 'a request body that is not valid JSON is 400 (in UAT: inside a valid sealed envelope)',
    async run(ctx) {
      const alice = ctx.customer({ workflow: false });
      const token = await ctx.tokens.codeToken(alice);
      if (ctx.env === 'uat') {
        // positive control: the hand-made envelope is accepted when its content is valid JSON
        const ok = await ctx.api({
          op: 'validate',
          token,
          rawBody: sealText(ctx, JSON.stringify(ctx.transferBody(alice))),
          label: 'validate (hand-sealed, valid JSON)',
        });
        if (ok.status !== 200)
          throw new Inconclusive(
            `the hand-sealed valid request was not accepted (HTTP ${ok.status}); the malformed-JSON case cannot be isolated`,
          );
      }
      const res = await ctx.api({
        op: 'validate',
        token,
        rawBody: malformedBody(ctx, BROKEN_JSON),
        label: 'validate (malformed JSON)',
      });
      expectReached(res, [400], 'validate with a malformed JSON body');
    },
  },

  // ---- ERR-05: no internals in error answers
  {
    name: 'errors-do-not-leak-internals',
    requirements: ['ERR-05'],
    title:
      'no error body (400, 401, 404, 405, 422) shows stack traces, SQL, file paths, exception classes or server versions',
    async run(ctx) {
      const alice = ctx.customer({ workflow: false });
      const token = await ctx.tokens.codeToken(alice);
      const missing = ctx.transferBody(alice);
      delete missing.beneficiary_id;
      const basepath = ctx.profile.target.paths.transfersBasepath;
      const calls: ApiCall[] = [
        { op: 'validate', token, body: missing, label: 'validate without beneficiary_id (422)' },
        { op: 'validate', token, rawBody: malformedBody(ctx, BROKEN_JSON), label: 'validate malformed JSON (400)' },
        { op: 'get', transferId: ctx.newTransferId(), token, label: 'get unknown id (404)' },
        { op: 'get', transferId: ctx.newTransferId(), token, method: 'DELETE', label: 'DELETE transfer (405)' },
        { op: 'get', token, path: `${basepath}/no-such-resource/x`, label: 'unknown path (404)' },
        { op: 'get', transferId: ctx.newTransferId(), token: null, label: 'get without token (401)' },
      ];
      const found: string[] = [];
      let errors = 0;
      let sealedShut = 0;
      let gateway = 0;
      // the calls side by side, their answers read in the calls' order
      const answers = await together(calls.map((call) => ctx.api(call)));
      for (const [i, call] of calls.entries()) {
        const res = answers[i]!;
        if (res.status < 400) continue;
        // a sealed error that does not open is JOSE-11's business: its ciphertext is never scanned
        if (res.opened && !res.opened.ok) {
          sealedShut++;
          continue;
        }
        // the opened document when the answer was sealed and opened, else the text as received; the path the
        // harness sent may be echoed back (it is the caller's own text, not an internal detail)
        const text = withoutEcho(res.opened?.ok ? JSON.stringify(res.body) : res.raw.text, basepath);
        // a gateway's page (an HTML 429 or 503) is not the API's error answer (leaks.ts isGatewayPage): only its
        // version string is its own; a traceback or a path on it leaks all the same (pageLeaks)
        const page = isGatewayPage(res.status, res.raw.text, ctx.profile.contract.quota.status);
        const leaks = page ? pageLeaks(text) : bodyLeaks(text);
        if (page && leaks.length === 0) {
          gateway++;
          continue;
        }
        errors++;
        for (const l of leaks)
          found.push(`${call.label} HTTP ${res.status}, ${l.where}: ${l.kind}: ${ctx.redact(l.excerpt)}`);
      }
      if (errors === 0 && sealedShut > 0)
        throw new Inconclusive(`the sealed error answers did not open (${sealedShut}); that is JOSE-11's rule`);
      if (errors === 0 && gateway > 0)
        throw new Inconclusive(`only a gateway's pages answered (${gateway}): no error answer of the API to inspect`);
      if (errors === 0) throw new Inconclusive('none of the calls provoked an error answer to inspect');
      ctx.note(`${errors} error answers inspected`);
      if (found.length > 0)
        throw CheckFailed.of(
          leakFailure(`error answers leak internals: ${clip(found.join('; '), 600)}`, found, {
            title: 'internals in error answers',
            expected: 'no internals in error answers',
          }),
        );
    },
  },
  // ---- ERR-01..05 as a property (docs/property-invalid-documents.md): generated documents, where the checks above
  // send fixed ones
  invalidDocumentsProperty,
  documentInputsProperty,
]);
