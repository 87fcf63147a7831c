import { type CheckSpec, CheckFailed, ensure, Inconclusive, isObject, statusFailure } from '../../lib/engine/check.ts';
import type { HttpResponse } from '../../lib/http/types.ts';

import { basicAuth } from '../../lib/oauth/index.ts';

import { clip } from '../shared.ts';
import { controlToken, errorOf, expectTokenRefused } from './helpers.ts';

export const clientAuthChecks: CheckSpec[] = [
  // ---- client authentication and request format --------------------------------------------------------
  {
    name: 'code-endpoint-authenticates-client',
    requirements: ['TOK-14'],
    title: 'the sign-in token endpoint answers invalid_client (401) to a wrong secret or an unknown client',
    async run(ctx) {
      // a code that does not exist: with the right client it is invalid_grant, which proves the client passed
      const code = `harness-unknown-code-${ctx.newTransferId()}`;
      const control = await ctx.tokens.exchangeCode(code);
      if (errorOf(control) !== 'invalid_grant')
        throw new Inconclusive(
          `control (right client, unknown code): expected invalid_grant, observed HTTP ${control.response.status} ${errorOf(control) ?? ''}`,
        );
      expectTokenRefused(
        await ctx.tokens.exchangeCode(code, { clientSecret: 'harness-wrong-secret' }),
        'invalid_client',
        [401],
        'wrong client secret',
      );
      expectTokenRefused(
        await ctx.tokens.exchangeCode(code, { clientId: 'harness-unknown-client' }),
        'invalid_client',
        [401],
        'unknown client id',
      );
    },
  },
  {
    name: 'cc-endpoint-authenticates-client',
    requirements: ['TOK-14'],
    title: 'the client-credentials token endpoint answers invalid_client (401) to a wrong secret or an unknown client',
    async run(ctx) {
      controlToken(
        await ctx.tokens.clientCredentials('partner', { fresh: true }),
        'client-credentials request with the right secret',
      );
      expectTokenRefused(
        await ctx.tokens.clientCredentials('partner', { clientSecret: 'harness-wrong-secret' }),
        'invalid_client',
        [401],
        'wrong client secret',
      );
      expectTokenRefused(
        await ctx.tokens.clientCredentials('partner', { clientId: 'harness-unknown-client' }),
        'invalid_client',
        [401],
        'unknown client id',
      );
    },
  },
  {
    name: 'sandbox-token-requests-form-basic',
    requirements: ['TOK-15'],
    title:
      'sandbox token endpoints take form bodies with Basic auth (any charset parameter); whether JSON is also taken is not the rule',
    notApplicable: (p) => (p.environment === 'sandbox' ? undefined : 'the form + Basic rule is the sandbox one'),
    async run(ctx) {
      const code = ctx.profile.clients.code;
      const partner = ctx.profile.clients.partner;
      // the form exactly as RFC 6749 §4.1.3 / §4.4.2 shows it: the media type with its charset parameter; the same
      // without the parameter only after a refusal, to say whether the parameter was its cause
      const formRequest = (
        url: string,
        id: string,
        secret: string,
        body: Record<string, string>,
        grant: string,
        charset = true,
      ) =>
        ctx.send({
          method: 'POST',
          url,
          headers: {
            authorization: basicAuth(id, secret),
            'content-type': `application/x-www-form-urlencoded${charset ? ';charset=UTF-8' : ''}`,
            accept: 'application/json',
          },
          body: new URLSearchParams(body).toString(),
          label: `token (${grant}, form${charset ? '; charset=UTF-8' : ' without charset'}, Basic)`,
        });
      const issued = (res: { status: number; json: unknown }): boolean =>
        res.status >= 200 && res.status < 300 && isObject(res.json) && typeof res.json.access_token === 'string';
      /** a refusal of the form with its charset parameter, and whether the same without the parameter was taken */
      const refused = async (
        endpoint: string,
        res: HttpResponse,
        withoutCharset: () => Promise<{ status: number; json: unknown }>,
      ): Promise<never> => {
        const plain = await withoutCharset();
        const message = issued(plain)
          ? `${endpoint} refused a form request with Basic auth for the charset parameter of its Content-Type ` +
            `(application/x-www-form-urlencoded;charset=UTF-8: HTTP ${res.status}; without the parameter a token was issued)`
          : `${endpoint} refused a form request with Basic auth (HTTP ${res.status}; without the charset parameter: HTTP ${plain.status})`;
        // the record names the refused exchange; the result's expected and observed stay the token and the body
        const record = statusFailure({ status: res.status, raw: res }, [200], message, {
          expected: 'HTTP 200 with a token',
          operation: 'token',
        });
        throw new CheckFailed(message, {
          expected: 'HTTP 200 with a token',
          observed: clip(res.text, 200),
          failures: [record],
        });
      };

      const exchange = async (charset: boolean) => {
        const a = await ctx.tokens.authorize(ctx.customer(0));
        if (!a.code) throw new Inconclusive(`/authorize gave no code: ${a.outcome}`);
        return formRequest(
          ctx.url('token'),
          code.clientId,
          code.clientSecret,
          { grant_type: 'authorization_code', code: a.code, ...ctx.tokens.exchangeFields(a.code) },
          'authorization_code',
          charset,
        );
      };
      const viaForm = await exchange(true);
      // accepted (2xx) but no token to read (e.g. a sealed token response, JOSE-13's concern): not a refusal
      if (!issued(viaForm) && viaForm.status >= 200 && viaForm.status < 300)
        throw new Inconclusive(`the sign-in token endpoint answered HTTP ${viaForm.status} without a readable token`);
      if (!issued(viaForm)) await refused('the sign-in token endpoint', viaForm, () => exchange(false));
      if (partner) {
        const key = partner.tokenEndpoint === 'internal' ? 'internalToken' : 'partnerToken';
        const clientCredentials = (charset: boolean) =>
          formRequest(
            ctx.url(key),
            partner.clientId,
            partner.clientSecret,
            { grant_type: 'client_credentials', scope: partner.scope },
            'client_credentials',
            charset,
          );
        const cc = await clientCredentials(true);
        if (!issued(cc) && cc.status >= 200 && cc.status < 300)
          throw new Inconclusive(
            `the client-credentials token endpoint answered HTTP ${cc.status} without a readable token`,
          );
        if (!issued(cc)) await refused('the client-credentials token endpoint', cc, () => clientCredentials(false));
      }
    },
  },
  {
    name: 'uat-cc-token-request-headers',
    requirements: ['TOK-15'],
    title:
      'UAT client-credentials requests need the X-Gateway headers and MsgId: without MsgId 400 invalid_request; Basic + form refused',
    notApplicable: (p) => (p.environment === 'uat' ? undefined : 'the X-Gateway/MsgId rule is the UAT one'),
    async run(ctx) {
      const partner = ctx.profile.clients.partner;
      if (!partner) throw new Inconclusive('the profile has no partner client');
      controlToken(
        await ctx.tokens.clientCredentials('partner', { fresh: true }),
        'client-credentials request with MsgId',
      );
      expectTokenRefused(
        await ctx.tokens.clientCredentials('partner', { omitMsgId: true }),
        'invalid_request',
        [400],
        'client-credentials request without MsgId',
      );
      const key = partner.tokenEndpoint === 'internal' ? 'internalToken' : 'partnerToken';
      const identity = ctx.identity('partner');
      const basic = await ctx.send({
        method: 'POST',
        url: ctx.url(key),
        headers: {
          authorization: basicAuth(partner.clientId, partner.clientSecret),
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: new URLSearchParams({ grant_type: 'client_credentials', scope: partner.scope }).toString(),
        ...(identity ? { identity } : {}),
        label: 'token (client_credentials, sandbox style: Basic + form)',
      });
      ensure(
        basic.status >= 400 && basic.status < 500,
        `a Basic + form client-credentials request (no X-Gateway headers) was answered HTTP ${basic.status}`,
        'refused (4xx)',
        basic.status,
      );
    },
  },
];
