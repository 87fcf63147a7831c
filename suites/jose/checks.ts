import { defineSuite, ensure, ensureEqual, Inconclusive } from '../../lib/engine/check.ts';
import type { ApiResponse } from '../../lib/engine/context.ts';
import { JWE_ALG, JWE_ENC, JWS_ALG } from '../../lib/jose/types.ts';
import { clip, expectReached } from '../shared.ts';

/** JOSE-11: a response is a general JWE (RSA-OAEP-256/A256CBC-HS512) around a general JWS (RS256) that verifies. */
function expectSealedResponse(res: ApiResponse, what: string): void {
  const o = res.opened;
  ensure(o !== undefined, `${what}: the response is not a JOSE envelope`, 'sealed JWE JSON', clip(res.raw.text, 200));
  ensure(o.ok, `${what}: the sealed response did not open (${o.ok ? '' : `${o.step}: ${o.code} ${o.reason}`})`, 'opens with the client key and verifies with the bank key', o.ok ? '' : o.code);
  ensureEqual(o.jweForm, 'general', `${what}: JWE serialization`);
  ensureEqual(o.jwsForm, 'general', `${what}: JWS serialization`);
  ensureEqual(o.jweHeader.alg, JWE_ALG, `${what}: JWE alg`);
  ensureEqual(o.jweHeader.enc, JWE_ENC, `${what}: JWE enc`);
  ensureEqual(o.jwsHeader.alg, JWS_ALG, `${what}: JWS alg`);
}

export const suite = defineSuite('jose', [
  {
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
      } else ctx.note('GET responses not checked: the profile says the target does not seal them (contract.sealGetResponses=false)');
    },
  },
  {
    name: 'sign-in-token-plain',
    requirements: ['JOSE-13'],
    title: 'the customer sign-in token response is plain JSON, neither signed nor encrypted',
    async run(ctx) {
      const a = await ctx.tokens.authorize(ctx.customer(0));
      if (!a.code) throw new Inconclusive(`/authorize gave no code (HTTP ${a.response.status})`);
      const g = await ctx.tokens.exchangeCode(a.code);
      expectReached({ status: g.response.status, body: g.response.json }, [200], 'code exchange');
      const j = g.response.json;
      ensure(typeof j === 'object' && j !== null, 'the token response is not plain JSON', 'JSON object', clip(g.response.text, 200));
      for (const m of ['ciphertext', 'recipients', 'payload', 'signatures', 'protected']) {
        ensure(!(m in j), `the token response carries the JOSE member "${m}"`, 'plain token JSON', Object.keys(j));
      }
      ensure(typeof (j as Record<string, unknown>).access_token === 'string', 'the plain token response has no access_token', 'access_token', Object.keys(j));
    },
  },
]);
