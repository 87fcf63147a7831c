/**
 * RACE-02 and RACE-03: one authorization code exchanged, or one refresh token used, N times at once issues at most one
 * token (pair). The request alone first (the control: it must issue a token), then bursts of N copies of it.
 */
import { CheckFailed, Inconclusive, isObject, valueFailure } from '../../lib/engine/check.ts';
import type { CheckContext } from '../../lib/engine/session/context.ts';
import type { BurstReply, BurstResult } from '../../lib/http/burst/burst.ts';
import type { HttpRequest, Identity } from '../../lib/http/types.ts';
import { buildExchangeCodeRequest, buildRefreshRequest, tokenUrl } from '../../lib/oauth/index.ts';
import type { Customer } from '../../lib/profile/schema.ts';
import { clip, expectReached } from '../shared.ts';
import { control, madeAhead, openAhead, repeatBursts } from './burst.ts';
import { gateOrNothing, sizes } from './common.ts';

/** answers that issued a token: 200 with an access_token */
function tokensIssued(r: BurstResult): number {
  return r.replies.filter((x) => {
    const j = x.response?.json;
    return x.response?.status === 200 && isObject(j) && typeof j.access_token === 'string';
  }).length;
}

/**
 * A token race: the request alone (the control: it must issue a token), then bursts of N copies of one request
 * (each burst's made ahead, while the control is in flight); a burst may issue one token at most.
 */
async function raceIssuance(
  ctx: CheckContext,
  o: {
    /** "code exchange", "refresh": labels and messages */
    what: string;
    /** the request, for the first customer (and the code client's identity) */
    request: (label: string, customer: Customer, identity: Identity | undefined) => Promise<HttpRequest>;
    /** the bursts' requests may be made ahead (false: each right before its burst) */
    ahead: boolean;
    /** more of the control than its 200 (throws Inconclusive) */
    control?: (reply: BurstReply) => void;
    finding: (burst: number, issued: number, n: number) => CheckFailed;
  },
): Promise<void> {
  const { n, repeats } = sizes(ctx);
  const customer = ctx.customer(0);
  const identity = ctx.identity('code');
  const request = (label: string): Promise<HttpRequest> => o.request(label, customer, identity);
  // the control's and the first burst's connections opened while the requests are made (the token endpoint's)
  const ahead = openAhead(ctx, { url: tokenUrl(ctx.profile, 'token'), ...(identity ? { identity } : {}) }, n + 1);
  const bursts = madeAhead(
    async (i) => {
      const req = await request(`${o.what}, burst ${i + 1}`);
      return Array.from({ length: n }, () => req);
    },
    o.ahead ? repeats : 0,
  );
  // the bursts made ahead have all been made before the check ends, whatever happened
  try {
    const c = await control(ctx, await request(`${o.what} alone (control)`), ahead);
    expectReached(
      { status: c.reply.response!.status, body: ctx.redact(c.reply.response!.text) },
      [200],
      `${o.what} alone (control)`,
    );
    o.control?.(c.reply);
    await repeatBursts(ctx, {
      n,
      repeats,
      controlMs: c.ms,
      make: bursts,
      judge: async (r, i) => {
        const issued = tokensIssued(r);
        if (issued > 1) throw o.finding(i, issued, n);
        if (issued === 0) throw gateOrNothing(r, `burst ${i + 1}: no ${o.what} succeeded`);
      },
    });
  } finally {
    await bursts.settled();
  }
}

export async function raceCodeExchange(ctx: CheckContext): Promise<void> {
  await raceIssuance(ctx, {
    what: 'code exchange',
    // a code is valid for a short while: made ahead only when consent is automatic (a person consenting to each
    // in turn could leave the first one to expire before its burst)
    ahead: ctx.profile.target.consent.mode === 'auto',
    request: async (label, customer, identity) => {
      const a = await ctx.tokens.authorize(customer);
      if (!a.code) throw new Inconclusive(`/authorize gave no code: ${a.outcome}`);
      // the PKCE verifier of the code's challenge, when the profile uses PKCE (target.oauth.pkce)
      const codeVerifier = ctx.tokens.exchangeFields(a.code).code_verifier;
      const req = buildExchangeCodeRequest(ctx.profile, {
        code: a.code,
        ...(identity ? { identity } : {}),
        ...(codeVerifier ? { codeVerifier } : {}),
      });
      return { ...req, label };
    },
    // the positive control: without a readable token from one exchange alone, a burst's tokens cannot be counted
    control: (reply) => {
      if (tokensIssued({ replies: [reply], ready: 1, releaseSpreadMs: 0 }) !== 1)
        throw new Inconclusive(
          `the code exchange alone (control) gave no readable access_token: ${clip(ctx.redact(reply.response!.text), 200)}`,
        );
    },
    finding: (i, issued, n) =>
      CheckFailed.of(
        valueFailure(
          'tokens issued for one code',
          `burst ${i + 1}: one authorization code exchanged ${n} times at once issued ${issued} tokens`,
          { expected: 'at most one token', observed: `${issued} tokens`, operation: 'token' },
        ),
      ),
  });
}

export async function raceRefresh(ctx: CheckContext): Promise<void> {
  await raceIssuance(ctx, {
    what: 'refresh',
    ahead: true,
    request: async (label, customer, identity) => {
      const g = await ctx.tokens.codeGrant(customer);
      if (!g.refresh) throw new Inconclusive('the code grant gave no refresh token');
      return {
        ...buildRefreshRequest(ctx.profile, { refreshToken: g.refresh, ...(identity ? { identity } : {}) }),
        label,
      };
    },
    finding: (i, issued, n) =>
      CheckFailed.of(
        valueFailure(
          'token pairs issued for one refresh token',
          `burst ${i + 1}: one refresh token used ${n} times at once issued ${issued} token pairs`,
          { expected: 'at most one new token pair', observed: `${issued} token pairs`, operation: 'token' },
        ),
      ),
  });
}
