/** JOSE-11..13: what the bank answers is sealed (transfers, client-credentials tokens) or plain (sign-in tokens). */
import { ensure, ensureEqual, Inconclusive, isObject, type CheckSpec, ensureValue } from '../../lib/engine/check.ts';
import type { ApiResponse } from '../../lib/engine/session/context.ts';
import { JWE_ALG, JWE_ENC, JWS_ALG, type OpenResult } from '../../lib/jose/types.ts';
import { buildClientCredentialsRequest } from '../../lib/oauth/index.ts';
import { clip, expectReached } from '../shared.ts';

/** JOSE-11/12: an opened response is a general JWE (RSA-OAEP-256/A256CBC-HS512) around a general JWS (RS256) that verifies. */
function expectSealed(o: OpenResult | undefined, rawText: string, what: string): void {
  ensureValue(
    o !== undefined,
    'response envelope',
    `${what}: the response is not a JOSE envelope`,
    'sealed JWE JSON',
    clip(rawText, 200),
  );
  ensureValue(
    o.ok,
    'response envelope',
    `${what}: the sealed response did not open (${o.ok ? '' : `${o.step}: ${o.code} ${o.reason}`})`,
    'opens with the client key and verifies with the bank key',
    o.ok ? '' : o.code,
  );
  ensureEqual(o.jweForm, 'general', `${what}: JWE serialization`);
  ensureEqual(o.jwsForm, 'general', `${what}: JWS serialization`);
  ensureEqual(o.jweHeader.alg, JWE_ALG, `${what}: JWE alg`);
  ensureEqual(o.jweHeader.enc, JWE_ENC, `${what}: JWE enc`);
  ensureEqual(o.jwsHeader.alg, JWS_ALG, `${what}: JWS alg`);
}

function expectSealedResponse(res: ApiResponse, what: string): void {
  expectSealed(res.opened, res.raw.text, what);
}

export const responsesSealed: CheckSpec = {
  name: 'responses-sealed',
  requirements: ['JOSE-11'],
  title: 'validate, create and get responses are JWE JSON (general) around JWS JSON (general) from the bank key',
  async run(ctx) {
    const alice = ctx.customer({ workflow: false });
    const token = await ctx.tokens.codeToken(alice);
    const body = ctx.transferBody(alice);
    const v = await ctx.api({ op: 'validate', token, body });
    expectReached(v, [200], 'validate');
    expectSealedResponse(v, 'validate');
    const id = ctx.newTransferId();
    const c = await ctx.api({ op: 'create', transferId: id, token, body });
    expectReached(c, ctx.profile.contract.statuses.create, 'create');
    expectSealedResponse(c, 'create');
    if (ctx.profile.contract.sealGetResponses) {
      const g = await ctx.api({ op: 'get', transferId: id, token });
      expectReached(g, [200], 'get');
      expectSealedResponse(g, 'get');
    } else
      ctx.note(
        'GET responses not checked: the profile says the target does not seal them (contract.sealGetResponses=false)',
      );
  },
};

export const ccTokenSealed: CheckSpec = {
  name: 'cc-token-sealed',
  requirements: ['JOSE-12'],
  title:
    'the client-credentials token request must be sealed (the same JSON unsealed is refused) and the token response is sealed',
  async run(ctx) {
    const sealed = await ctx.tokens.clientCredentials('partner', { fresh: true });
    expectReached(
      { status: sealed.response.status, body: sealed.response.json },
      [200],
      'sealed client-credentials token request',
    );
    expectSealed(sealed.opened, sealed.response.text, 'client-credentials token response');
    ensureValue(
      sealed.token,
      'access_token',
      'the sealed token response holds no access_token',
      'access_token',
      clip(ctx.redact(JSON.stringify(sealed.opened?.ok ? sealed.opened.payload : null)), 200),
    );

    const identity = ctx.identity('partner');
    const req = await buildClientCredentialsRequest(ctx.profile, {
      role: 'partner',
      style: 'plain-json',
      ...(identity ? { identity } : {}),
    });
    const res = await ctx.send({ ...req, label: 'client-credentials token request, plain JSON (not sealed)' });
    // the answer may itself be sealed: look inside for a token
    let answer: unknown = res.json;
    if (isObject(res.json) && ('recipients' in res.json || 'ciphertext' in res.json)) {
      const o = await ctx.jose.open(res.json, 'partner');
      if (o.ok) answer = o.payload;
    }
    const issued = isObject(answer) && typeof answer.access_token === 'string';
    ensure(
      !issued && !(res.status >= 200 && res.status < 300),
      `the unsealed token request was accepted (HTTP ${res.status}${issued ? ', a token was issued' : ''})`,
      'refused',
      res.status,
    );
    expectReached(res, ctx.profile.contract.statuses.joseRefused, 'unsealed client-credentials token request');
  },
};

export const signInTokenPlain: CheckSpec = {
  name: 'sign-in-token-plain',
  requirements: ['JOSE-13'],
  title: 'the customer sign-in token response is plain JSON, neither signed nor encrypted',
  async run(ctx) {
    const a = await ctx.tokens.authorize(ctx.customer(0));
    if (!a.code) throw new Inconclusive(`/authorize gave no code: ${a.outcome}`);
    const g = await ctx.tokens.exchangeCode(a.code);
    expectReached({ status: g.response.status, body: g.response.json }, [200], 'code exchange');
    const j = g.response.json;
    ensureValue(
      typeof j === 'object' && j !== null,
      'token response',
      'the token response is not plain JSON',
      'JSON object',
      clip(g.response.text, 200),
    );
    for (const m of ['ciphertext', 'recipients', 'payload', 'signatures', 'protected']) {
      ensureValue(
        !(m in j),
        'token response members',
        `the token response carries the JOSE member "${m}"`,
        'plain token JSON',
        Object.keys(j),
      );
    }
    ensureValue(
      typeof (j as Record<string, unknown>).access_token === 'string',
      'access_token',
      'the plain token response has no access_token',
      'access_token',
      Object.keys(j),
    );
  },
};
