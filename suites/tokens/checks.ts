import { defineSuite, ensure, ensureEqual, Inconclusive, isObject } from '../../lib/engine/check.ts';
import type { CheckContext } from '../../lib/engine/context.ts';
import type { Customer } from '../../lib/profile/schema.ts';
import { basicAuth } from '../../lib/oauth/index.ts';
import { mask } from '../../lib/mask/index.ts';
import { clip, expectReached, expectTokenFields, together, tokenOf } from '../shared.ts';
import {
  UNREGISTERED_REDIRECT,
  bearerChallenge,
  controlToken,
  errorOf,
  expectAuthorizeRefused,
  expectTokenDead,
  expectTokenRefused,
  expectTokenWorks,
  freshGrant,
  grantWithRefresh,
  probe,
  redirectsTo,
} from './helpers.ts';

const DAY = 86_400;

/** another customer of the profile than `c` (NotApplicable when there is none) */
function otherThan(ctx: CheckContext, c: Customer): Customer {
  const o = ctx.profile.customers.find((x) => x.uuid !== c.uuid && x.accountId !== c.accountId);
  if (!o) throw new Inconclusive('the profile has a single customer: a second one is needed');
  return o;
}

export const suite = defineSuite('tokens', [
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
      const r = await ctx.tokens.clientCredentials('partner');
      expectTokenFields(tokenOf(r, 'client-credentials token request'), ctx, ctx.profile.clients.partner.scope);
    },
  },
  {
    name: 'code-token-has-refresh',
    requirements: ['TOK-02'],
    title: 'authorization-code tokens carry refresh_token and an integer refresh_token_expires_in',
    async run(ctx) {
      const t = tokenOf(await ctx.tokens.codeGrant(ctx.customer(0)), 'code exchange');
      ensure(
        typeof t.refresh_token === 'string' && t.refresh_token.length > 0,
        'refresh_token missing',
        'non-empty string',
        typeof t.refresh_token,
      );
      ensure(
        Number.isInteger(t.refresh_token_expires_in) && (t.refresh_token_expires_in as number) > 0,
        'refresh_token_expires_in is not a positive integer',
        'integer seconds',
        t.refresh_token_expires_in,
      );
      const max = ctx.profile.contract.tokens.refreshMaxDays * 86400;
      ensure(
        (t.refresh_token_expires_in as number) <= max,
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
      const t = tokenOf(await ctx.tokens.clientCredentials('partner'), 'client-credentials token request');
      ensure(!('refresh_token' in t), 'a client-credentials token response carries refresh_token', 'absent', 'present');
      ensure(
        !('refresh_token_expires_in' in t),
        'a client-credentials token response carries refresh_token_expires_in',
        'absent',
        'present',
      );
    },
  },
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
    title: 'a second exchange of a code revokes the access token issued from it',
    async run(ctx) {
      const g = await freshGrant(ctx, ctx.customer(0));
      expectTokenWorks(
        await probe(ctx, g.access, 'first access token, before the code re-use'),
        'the first access token',
      );
      const again = await ctx.tokens.exchangeCode(g.code);
      ctx.note(`second exchange of the code: HTTP ${again.response.status} ${errorOf(again) ?? ''}`);
      expectTokenDead(
        await probe(ctx, g.access, 'first access token, after the code re-use'),
        'the access token issued from a re-used code',
      );
    },
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
        if (!fresh.code || !old.code) throw new Inconclusive(`/authorize gave no code (HTTP ${old.response.status})`);
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
  // ---- access tokens -----------------------------------------------------------------------------------
  {
    name: 'access-token-expires',
    requirements: ['TOK-06'],
    title: 'an access token older than contract.tokens.accessTokenSeconds gets 401',
    needs: ['clock'],
    waitSeconds: (p) => p.contract.tokens.accessTokenSeconds + 1,
    exclusive: true,
    clockGroup: 'token-expiry',
    async run(ctx) {
      // the session's token of the customer (issued before the clock moves, so older than the limit after it)
      // the token must still be valid when the control finds it working: no move until then
      const access = await ctx.clock.hold('an access token between its issue and the control', async () => {
        const token = await ctx.tokens.codeToken(ctx.customer(0));
        expectTokenWorks(await probe(ctx, token, 'access token, before the clock moves'), 'the access token');
        return token;
      });
      // at least the token's life (the clock group may move it further: the token is then only older)
      await ctx.clock.advanceTogether(ctx.profile.contract.tokens.accessTokenSeconds + 1);
      expectTokenDead(
        await probe(ctx, access, 'expired access token'),
        `an access token ${ctx.profile.contract.tokens.accessTokenSeconds + 1} s old`,
      );
    },
  },
  {
    name: 'missing-token-401',
    requirements: ['TOK-07'],
    title:
      'a call without a token gets 401 with a Bearer challenge: no error code (RFC 6750 §3.1) or error="invalid_token" (contract.md)',
    async run(ctx) {
      const res = await probe(ctx, null, 'no Authorization header');
      expectTokenDead(res, 'a call without a token');
      const ch = bearerChallenge(res.headers);
      ensure(
        ch !== undefined,
        'the 401 carries no WWW-Authenticate: Bearer challenge',
        'WWW-Authenticate: Bearer ...',
        res.headers['www-authenticate'] ?? 'absent',
      );
      // RFC 6750 §3.1 says the challenge SHOULD NOT carry an error code here; contract.md's invalid_token passes too
      ensure(
        ch.error === undefined || ch.error === 'invalid_token',
        'the challenge to a request without credentials carries another error code',
        'no error parameter, or error="invalid_token"',
        ch.error,
      );
    },
  },
  {
    name: 'invalid-token-401',
    requirements: ['TOK-07'],
    title: 'a malformed or unknown token gets 401 with WWW-Authenticate: Bearer error="invalid_token"',
    async run(ctx) {
      const cases: [string, string][] = [
        ['malformed token', 'not a token!'],
        ['unknown token', `unknown${'A'.repeat(36)}`],
      ];
      for (const [what, token] of cases) {
        const res = await probe(ctx, token, what);
        expectTokenDead(res, `a ${what}`);
        const ch = bearerChallenge(res.headers);
        ensure(
          ch !== undefined,
          `${what}: the 401 carries no WWW-Authenticate: Bearer challenge`,
          'WWW-Authenticate: Bearer error="invalid_token"',
          res.headers['www-authenticate'] ?? 'absent',
        );
        ensureEqual(ch.error, 'invalid_token', `${what}: challenge error`);
      }
    },
  },
  {
    name: 'revoked-token-401',
    requirements: ['TOK-07'],
    title: 'a revoked token gets 401 with WWW-Authenticate: Bearer error="invalid_token"',
    async run(ctx) {
      // the contract's revocation: re-use of the code revokes the tokens issued from it
      const g = await freshGrant(ctx, ctx.customer(0));
      expectTokenWorks(await probe(ctx, g.access, 'access token before revocation'), 'the access token');
      await ctx.tokens.exchangeCode(g.code);
      const res = await probe(ctx, g.access, 'revoked access token');
      if (res.status !== 401 && res.status !== 429) {
        throw new Inconclusive(
          `no revoked token to test: the token still works after its code was re-used (HTTP ${res.status}); revocation is TOK-04's rule`,
        );
      }
      expectTokenDead(res, 'a revoked token');
      const ch = bearerChallenge(res.headers);
      ensure(
        ch !== undefined,
        'the 401 carries no WWW-Authenticate: Bearer challenge',
        'WWW-Authenticate: Bearer error="invalid_token"',
        res.headers['www-authenticate'] ?? 'absent',
      );
      ensureEqual(ch.error, 'invalid_token', 'challenge error');
    },
  },
  {
    name: 'scope-required',
    requirements: ['TOK-08'],
    title: 'a token without the transfers scope gets 403 with error="insufficient_scope"',
    async run(ctx) {
      const alice = ctx.customer(0);
      const { transfers, other } = ctx.profile.contract.scopes;
      expectTokenWorks(
        await probe(ctx, await ctx.tokens.codeToken(alice), `token with scope ${transfers}`),
        `a token with scope ${transfers}`,
      );
      const g = await ctx.tokens.codeGrant(alice, { scope: other });
      const granted = typeof g.token?.scope === 'string' ? g.token.scope.split(' ') : [other];
      if (granted.includes(transfers))
        throw new Inconclusive(`asked for scope "${other}", the target granted "${String(g.token?.scope)}"`);
      const res = await probe(ctx, g.access, `token with scope ${other} only`);
      ensure(
        res.status === 403,
        `a token with scope "${other}" only: expected HTTP 403, observed ${res.status}`,
        403,
        res.status,
      );
      const ch = bearerChallenge(res.headers);
      ensureEqual(ch?.error, 'insufficient_scope', 'WWW-Authenticate Bearer error');
    },
  },
  // ---- refresh tokens ----------------------------------------------------------------------------------
  {
    name: 'refresh-rotates',
    requirements: ['TOK-09'],
    title: 'a refresh returns a new access token and a new refresh token, and the new access token works',
    async run(ctx) {
      const g = await grantWithRefresh(ctx, ctx.customer(0));
      const r = await ctx.tokens.refresh(g.refresh);
      const t = tokenOf(r, 'refresh');
      ensure(
        typeof t.access_token === 'string' && t.access_token !== g.access,
        'the refresh did not return a new access token',
        'a new access_token',
        t.access_token === g.access ? 'the same one' : typeof t.access_token,
      );
      ensure(
        typeof t.refresh_token === 'string' && t.refresh_token.length > 0,
        'the refresh did not return a refresh token',
        'a new refresh_token',
        typeof t.refresh_token,
      );
      ensure(
        t.refresh_token !== g.refresh,
        'the refresh returned the same refresh token (not rotated)',
        'a new refresh_token',
        'the same one',
      );
      const res = await probe(ctx, t.access_token, 'refreshed access token');
      ensure(res.status !== 401, 'the refreshed access token gets 401', 'accepted', res.status);
      expectTokenWorks(res, 'the refreshed access token');
    },
  },
  {
    name: 'refresh-reuse-revokes-grant',
    requirements: ['TOK-10'],
    title:
      'a used (rotated) refresh token is refused, and its re-use revokes the grant (the newest refresh token fails too)',
    async run(ctx) {
      const g = await grantWithRefresh(ctx, ctx.customer(0));
      const first = await ctx.tokens.refresh(g.refresh);
      controlToken(first, 'first refresh');
      const newest = first.token?.refresh_token;
      if (typeof newest !== 'string') throw new Inconclusive('the refresh gave no refresh token');
      expectTokenRefused(
        await ctx.tokens.refresh(g.refresh),
        'invalid_grant',
        [400],
        'second use of a rotated refresh token',
      );
      expectTokenRefused(
        await ctx.tokens.refresh(newest),
        'invalid_grant',
        [400],
        'the newest refresh token after the re-use of an old one',
      );
    },
  },
  {
    name: 'refresh-idle-limit',
    requirements: ['TOK-11'],
    title: 'a refresh token unused for more than contract.tokens.refreshIdleDays is refused',
    needs: ['clock'],
    exclusive: true,
    // its first move (a day less than the limit) is the group's; then it lets the limit pass on the moves of
    // refresh-max-age, which exchanges a token of its own every few months, so both walks take one
    clockGroup: 'token-expiry',
    async run(ctx) {
      const { refreshIdleDays: idle, refreshMaxDays: max } = ctx.profile.contract.tokens;
      const g = await grantWithRefresh(ctx, ctx.customer(0));
      // control: unused for a day less than the limit, it still works
      const first = await ctx.clock.advanceTogether((idle - 1) * DAY, (idle - 1) * DAY);
      // every move from here on, whoever makes it: how old the family can be when its last refresh is answered
      const since = ctx.clock.stopwatch();
      const r = await ctx.tokens.refresh(g.refresh);
      controlToken(r, `refresh after ${first / DAY} idle days`);
      const next = r.token?.refresh_token;
      if (typeof next !== 'string') throw new Inconclusive('the refresh gave no refresh token');
      const unused = await ctx.clock.waitFor((idle + 1) * DAY);
      const res = await ctx.tokens.refresh(next);
      // the refusal must be the idle limit's, not the maximum age's: the family was younger than that
      const age = first + since();
      if (age >= max * DAY)
        throw new Inconclusive(
          `the refresh token family may have been ${Math.floor(age / DAY)} days old when its refresh was answered: past the maximum age too`,
        );
      expectTokenRefused(res, 'invalid_grant', [400], `refresh after ${Math.floor(unused / DAY)} idle days`);
    },
  },
  {
    name: 'refresh-max-age',
    requirements: ['TOK-11'],
    title: 'a refresh token family older than contract.tokens.refreshMaxDays is refused, even when exchanged regularly',
    needs: ['clock'],
    exclusive: true,
    clockGroup: 'token-expiry',
    async run(ctx) {
      const { refreshIdleDays: idle, refreshMaxDays: max } = ctx.profile.contract.tokens;
      const step = Math.max(1, idle - 2);
      const g = await grantWithRefresh(ctx, ctx.customer(0));
      let rt = g.refresh;
      // exchanged at most every `idle - 1` days (under the idle limit) up to just before the maximum age: each
      // must work; the first move is the clock group's (a day under the idle limit at most)
      let days = (await ctx.clock.advanceTogether(step * DAY, (idle - 1) * DAY)) / DAY;
      if (days + 1 >= max)
        throw new Inconclusive(`the clock group moved ${days} days at once: the family is already too old`);
      for (let i = 0; i < 50; i++) {
        const r = await ctx.tokens.refresh(rt);
        controlToken(r, `refresh on day ${days} (exchanged every ${step} days at most)`);
        if (typeof r.token?.refresh_token !== 'string') throw new Inconclusive('the refresh gave no refresh token');
        rt = r.token.refresh_token;
        if (days + step >= max) break;
        await ctx.clock.advance(step * DAY);
        days += step;
      }
      const last = max - days + 1; // <= step + 1 < idle: not idle, only too old
      if (last >= idle)
        throw new Inconclusive(
          `the walk stopped ${last} days short of the maximum age: the last refresh would be idle too`,
        );
      await ctx.clock.advance(last * DAY);
      expectTokenRefused(
        await ctx.tokens.refresh(rt),
        'invalid_grant',
        [400],
        `refresh on day ${days + last} of the grant (limit ${max} days)`,
      );
    },
  },
  // ---- what a token may act on -------------------------------------------------------------------------
  {
    name: 'code-token-bound-to-account',
    requirements: ['TOK-12'],
    title: "an authorization-code token acts only on its customer's account: another customer's account is 403",
    async run(ctx) {
      const alice = ctx.customer(0);
      const bob = otherThan(ctx, alice);
      const token = await ctx.tokens.codeToken(alice);
      expectReached(
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
      expectReached(
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
      ensure(
        want.includes(res.status),
        `another customer's identifier: expected HTTP ${want.join(' or ')}, observed ${res.status}`,
        want.join(' or '),
        res.status,
      );
    },
  },
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
      controlToken(await ctx.tokens.clientCredentials('partner'), 'client-credentials request with the right secret');
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
      // the form exactly as RFC 6749 §4.1.3 / §4.4.2 shows it: the media type with its charset parameter
      const formRequest = (url: string, id: string, secret: string, body: Record<string, string>, label: string) =>
        ctx.send({
          method: 'POST',
          url,
          headers: {
            authorization: basicAuth(id, secret),
            'content-type': 'application/x-www-form-urlencoded;charset=UTF-8',
            accept: 'application/json',
          },
          body: new URLSearchParams(body).toString(),
          label,
        });
      const issued = (res: { status: number; json: unknown }): boolean =>
        res.status >= 200 && res.status < 300 && isObject(res.json) && typeof res.json.access_token === 'string';

      const a = await ctx.tokens.authorize(ctx.customer(0));
      if (!a.code) throw new Inconclusive(`/authorize gave no code (HTTP ${a.response.status})`);
      const viaForm = await formRequest(
        ctx.url('token'),
        code.clientId,
        code.clientSecret,
        { grant_type: 'authorization_code', code: a.code },
        'token (authorization_code, form; charset=UTF-8, Basic)',
      );
      // accepted (2xx) but no token to read (e.g. a sealed token response, JOSE-13's concern): not a refusal
      if (!issued(viaForm) && viaForm.status >= 200 && viaForm.status < 300)
        throw new Inconclusive(`the sign-in token endpoint answered HTTP ${viaForm.status} without a readable token`);
      ensure(
        issued(viaForm),
        `the sign-in token endpoint refused a form request with Basic auth (HTTP ${viaForm.status})`,
        'HTTP 200 with a token',
        clip(viaForm.text, 200),
      );
      if (partner) {
        const key = partner.tokenEndpoint === 'internal' ? 'internalToken' : 'partnerToken';
        const cc = await formRequest(
          ctx.url(key),
          partner.clientId,
          partner.clientSecret,
          { grant_type: 'client_credentials', scope: partner.scope },
          'token (client_credentials, form; charset=UTF-8, Basic)',
        );
        if (!issued(cc) && cc.status >= 200 && cc.status < 300)
          throw new Inconclusive(
            `the client-credentials token endpoint answered HTTP ${cc.status} without a readable token`,
          );
        ensure(
          issued(cc),
          `the client-credentials token endpoint refused a form request with Basic auth (HTTP ${cc.status})`,
          'HTTP 200 with a token',
          clip(cc.text, 200),
        );
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
      controlToken(await ctx.tokens.clientCredentials('partner'), 'client-credentials request with MsgId');
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
  // ---- /authorize ---------------------------------------------------------------------------------------
  {
    name: 'authorize-requires-response-type-code',
    requirements: ['TOK-16'],
    title: '/authorize refuses a missing response_type and a response_type other than code',
    async run(ctx) {
      const alice = ctx.customer(0);
      const ok = await ctx.tokens.authorize(alice);
      if (!ok.code) throw new Inconclusive(`control: /authorize gave no code (HTTP ${ok.response.status})`);
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
      const ok = await ctx.tokens.authorize(alice);
      if (!ok.code) throw new Inconclusive(`control: /authorize gave no code (HTTP ${ok.response.status})`);
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
      const ok = await ctx.tokens.authorize(alice);
      if (!ok.code) throw new Inconclusive(`control: /authorize gave no code (HTTP ${ok.response.status})`);
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
      const ok = await ctx.tokens.authorize(alice);
      if (!ok.code) throw new Inconclusive(`control: /authorize gave no code (HTTP ${ok.response.status})`);
      const a = await ctx.tokens.authorize(alice, {
        redirectUrl: UNREGISTERED_REDIRECT,
        query: { response_type: null },
      });
      ensure(
        !redirectsTo(a, UNREGISTERED_REDIRECT),
        'the error was redirected to an unregistered redirect_url',
        'an error page, no redirect',
        `HTTP ${a.response.status} to ${UNREGISTERED_REDIRECT}`,
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
      if (!a.code) throw new Inconclusive(`/authorize gave no code (HTTP ${a.response.status})`);
      ensure(
        redirectsTo(a, registered),
        'the code was delivered to another URI than the registered one',
        registered,
        a.location ? ctx.redact(a.location) : 'none',
      );
      ensure(a.state === state, 'state did not come back unchanged', state, a.state ?? 'absent');
      const evil = await ctx.tokens.authorize(alice, { redirectUrl: UNREGISTERED_REDIRECT });
      ensure(
        !redirectsTo(evil, UNREGISTERED_REDIRECT),
        'the code was redirected to an unregistered redirect_url',
        'no redirect to it',
        `HTTP ${evil.response.status} to ${UNREGISTERED_REDIRECT}`,
      );
      ensure(evil.code === undefined, 'a code was issued for an unregistered redirect_url', 'no code', 'a code');
      // a refusal (4xx, or an error to the registered URI), not a 5xx: only a refusal shows the rule
      expectAuthorizeRefused(ctx, evil, 'an authorization request with an unregistered redirect_url');
    },
  },
]);
