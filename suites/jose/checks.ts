import {
  CheckFailed,
  defineSuite,
  ensure,
  ensureEqual,
  Inconclusive,
  isObject,
  type CheckSpec,
} from '../../lib/engine/check.ts';
import type { ApiResponse, CheckContext } from '../../lib/engine/context.ts';
import { JWE_ALG, JWE_ENC, JWS_ALG, type OpenResult } from '../../lib/jose/types.ts';
import { buildClientCredentialsRequest } from '../../lib/oauth/index.ts';
import { clip, expectReached } from '../shared.ts';
import { startCanary, type Canary } from './canary.ts';
import {
  attackerBaseline,
  critCases,
  duplicateCases,
  encryptionKeyCases,
  formCases,
  CANARY_PATHS,
  headerKeyCases,
  headerUrlCases,
  jweAlgCases,
  jweEncCases,
  jwsAlgCases,
  layerCases,
  multiplicityCases,
  signatureKeyCases,
  structureCases,
  tamperBase,
  tamperCases,
  zipCases,
} from './catalogue.ts';
import { envelope, keysOf, rsa, type Keys } from './envelopes.ts';
import {
  judge,
  partnerSender,
  positiveControl,
  sendCase,
  sendCases,
  type CaseResult,
  type NegativeCase,
  type Sender,
} from './negatives.ts';

/** the harness itself reaches the canary once, so that "zero requests from the target" later means something */
async function canarySelfCheck(ctx: CheckContext, canary: Canary): Promise<void> {
  const self = await ctx.send({
    method: 'GET',
    url: canary.url('/jwks.json'),
    label: 'canary self-check (from the harness)',
  });
  if (self.status !== 200 || canary.hits !== 1) {
    throw new Inconclusive(
      `the jku/x5u canary at ${canary.url('/')} is not reachable from the harness itself (HTTP ${self.status}, ${canary.hits} request(s) seen)`,
    );
  }
}

/** isolate: is an attacker signature accepted without any header key? then the cause is JOSE-06's rule */
async function isolateFromJose06(ctx: CheckContext, s: Sender, k: Keys, results: CaseResult[]): Promise<void> {
  if (!results.some((r) => r.outcome === 'accepted')) return;
  const base = await sendCase(ctx, s, attackerBaseline(k, s.doc));
  if (base.outcome !== 'accepted') return;
  ctx.note(
    'isolation: an attacker signature is accepted without any header key, so the accepted header-key cases are not attributed to JOSE-10',
  );
  for (const r of results)
    if (r.outcome === 'accepted')
      Object.assign(r, {
        outcome: 'unisolated',
        detail: `${r.detail}, but an attacker signature without any header key is accepted too (JOSE-06)`,
      });
}

/** JOSE-11/12: an opened response is a general JWE (RSA-OAEP-256/A256CBC-HS512) around a general JWS (RS256) that verifies. */
function expectSealed(o: OpenResult | undefined, rawText: string, what: string): void {
  ensure(o !== undefined, `${what}: the response is not a JOSE envelope`, 'sealed JWE JSON', clip(rawText, 200));
  ensure(
    o.ok,
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

type Build = (ctx: CheckContext, k: Keys, doc: Record<string, unknown>) => NegativeCase[];

/**
 * One family of negatives against validate, as the partner: the positive control is the same document sealed
 * by the same builder with no deviation (or by seal(), for the tamper family, whose cases start from it).
 */
function family(
  name: string,
  requirement: string,
  title: string,
  build: Build,
  control: 'builder' | 'seal' = 'builder',
): CheckSpec {
  return {
    name,
    requirements: [requirement],
    title,
    async run(ctx) {
      const s = await partnerSender(ctx);
      const k = await keysOf(ctx);
      const base = control === 'seal' ? await tamperBase(k, s.doc) : envelope(k, s.doc);
      await positiveControl(
        ctx,
        s,
        base,
        control === 'seal' ? 'sealed by lib/jose seal()' : 'sealed by the negative builder, no deviation',
      );
      judge(ctx, await sendCases(ctx, s, build(ctx, k, s.doc)), name);
    },
  };
}

export const suite = defineSuite('jose', [
  family('sealed-structure', 'JOSE-01', 'a request body must be sealed: plain JSON is refused', (_c, _k, d) =>
    structureCases(d),
  ),
  family(
    'jws-alg-rs256-only',
    'JOSE-02',
    'the request JWS must be RS256: none, HS256 key confusion, RS512, PS256, and a duplicated alg whose last value is RS512, are refused',
    (_c, k, d) => jwsAlgCases(k, d),
  ),
  family(
    'jwe-alg-rsa-oaep-256-only',
    'JOSE-03',
    'the request JWE alg must be RSA-OAEP-256: RSA-OAEP, RSA1_5, PBES2, and a duplicated alg whose last value is RSA-OAEP, are refused',
    (_c, k, d) => jweAlgCases(k, d),
  ),
  family(
    'jwe-enc-a256cbc-hs512-only',
    'JOSE-04',
    'the request JWE enc must be A256CBC-HS512: GCM, A128CBC-HS256, and a duplicated enc whose last value is A128GCM, are refused',
    (_c, k, d) => jweEncCases(k, d),
  ),
  family(
    'general-serialization-only',
    'JOSE-05',
    'compact and flattened JWE/JWS serializations are refused on requests',
    (_c, k, d) => formCases(k, d),
  ),
  family(
    'signature-key-pinned',
    'JOSE-06',
    "a request JWS must verify with the client's registered certificate key: another key, a swapped payload are refused",
    (_c, k, d) => signatureKeyCases(k, d),
  ),
  family(
    'encryption-key-pinned',
    'JOSE-07',
    "a request JWE must be encrypted to the bank's API-domain key: an attacker key, the bank's TLS key, the client's own key are refused",
    encryptionKeyCases,
  ),
  family(
    'tampering-refused',
    'JOSE-08',
    'a tampered JWE protected header, iv, ciphertext or tag (or a duplicated ciphertext whose last value is junk) is refused',
    (_c, k, d) => tamperCases(k, d),
    'seal',
  ),
  family(
    'signed-and-encrypted',
    'JOSE-09',
    'encrypted-but-unsigned and signed-but-unencrypted request bodies are refused',
    (_c, k, d) => layerCases(k, d),
  ),
  family(
    'duplicate-members-refused',
    'HARD-01',
    'hardening: duplicated JOSE members are refused even when the last value complies (RFC parsers may take the last)',
    (_c, k, d) => duplicateCases(k, d),
  ),
  family('zip-refused', 'HARD-02', 'hardening: a compressed (zip DEF) JWE is refused', (_c, k, d) => zipCases(k, d)),
  family(
    'one-recipient-one-signature',
    'HARD-03',
    'hardening: an envelope with two recipients or two signatures is refused',
    (_c, k, d) => multiplicityCases(k, d),
  ),
  {
    name: 'header-keys-untrusted',
    requirements: ['JOSE-10'],
    title: 'keys in headers (jwk, x5c) are never trusted; an unknown crit is refused',
    async run(ctx) {
      const s = await partnerSender(ctx);
      const k = await keysOf(ctx);
      await positiveControl(ctx, s, envelope(k, s.doc), 'sealed by the negative builder, no deviation');
      const keyed = await sendCases(ctx, s, headerKeyCases(k, s.doc));
      const crit = await sendCases(ctx, s, critCases(k, s.doc));
      await isolateFromJose06(ctx, s, k, keyed);
      judge(ctx, [...keyed, ...crit], 'header-keys-untrusted');
    },
  },
  {
    name: 'header-key-urls-not-fetched',
    requirements: ['JOSE-10'],
    needs: ['canary'],
    title:
      'key URLs in headers (jku, x5u) are never fetched nor trusted (a canary the target can reach counts fetches)',
    async run(ctx) {
      const s = await partnerSender(ctx);
      const k = await keysOf(ctx);
      const run = ctx.profile.run;
      const canary = await startCanary(
        {
          host: run.canaryHost ?? '127.0.0.1',
          ...(run.canaryPort !== undefined ? { port: run.canaryPort } : {}),
          ...(run.canaryUrl !== undefined ? { publicUrl: run.canaryUrl } : {}),
        },
        {
          [CANARY_PATHS.H2]: { contentType: 'application/json', body: JSON.stringify({ keys: [k.attacker.jwk] }) },
          [CANARY_PATHS.H3]: { contentType: 'application/pem-certificate-chain', body: k.attacker.certificatePem },
        },
      );
      try {
        await canarySelfCheck(ctx, canary);
        await positiveControl(ctx, s, envelope(k, s.doc), 'sealed by the negative builder, no deviation');
        const before = { H2: canary.hitsOn(CANARY_PATHS.H2), H3: canary.hitsOn(CANARY_PATHS.H3) };
        const results = await sendCases(
          ctx,
          s,
          headerUrlCases(k, s.doc, (p) => canary.url(p)),
        );
        await isolateFromJose06(ctx, s, k, results);
        for (const r of results) {
          const id = r.c.id as keyof typeof CANARY_PATHS;
          const fetched = canary.hitsOn(CANARY_PATHS[id]) - before[id];
          ctx.note(`${id}: requests the canary received from the target: ${fetched}`);
          if (fetched > 0)
            Object.assign(r, {
              outcome: 'fetched',
              detail: `${r.detail}; the target fetched the header's key URL ${fetched} time(s): it must never be fetched`,
            });
        }
        judge(ctx, results, 'header-key-urls-not-fetched');
      } finally {
        await canary.close();
      }
    },
  },
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
      } else
        ctx.note(
          'GET responses not checked: the profile says the target does not seal them (contract.sealGetResponses=false)',
        );
    },
  },
  {
    name: 'cc-token-sealed',
    requirements: ['JOSE-12'],
    title:
      'the client-credentials token request must be sealed (the same JSON unsealed is refused) and the token response is sealed',
    async run(ctx) {
      const sealed = await ctx.tokens.clientCredentials('partner');
      expectReached(
        { status: sealed.response.status, body: sealed.response.json },
        [200],
        'sealed client-credentials token request',
      );
      expectSealed(sealed.opened, sealed.response.text, 'client-credentials token response');
      ensure(
        sealed.token,
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
  },
  {
    name: 'sign-in-token-plain',
    requirements: ['JOSE-13'],
    title: 'the customer sign-in token response is plain JSON, neither signed nor encrypted',
    async run(ctx) {
      const a = await ctx.tokens.authorize(ctx.customer(0));
      if (!a.code) throw new Inconclusive(`/authorize gave no code: ${a.outcome}`);
      const g = await ctx.tokens.exchangeCode(a.code);
      expectReached({ status: g.response.status, body: g.response.json }, [200], 'code exchange');
      const j = g.response.json;
      ensure(
        typeof j === 'object' && j !== null,
        'the token response is not plain JSON',
        'JSON object',
        clip(g.response.text, 200),
      );
      for (const m of ['ciphertext', 'recipients', 'payload', 'signatures', 'protected']) {
        ensure(!(m in j), `the token response carries the JOSE member "${m}"`, 'plain token JSON', Object.keys(j));
      }
      ensure(
        typeof (j as Record<string, unknown>).access_token === 'string',
        'the plain token response has no access_token',
        'access_token',
        Object.keys(j),
      );
    },
  },
  {
    name: 'refusal-no-side-effect',
    requirements: ['JOSE-14'],
    title: 'a sealed PUT refused for its JOSE layer (bad signature) creates nothing: GET of its id is 404 afterwards',
    async run(ctx) {
      const s = await partnerSender(ctx);
      const k = await keysOf(ctx);
      const put = (transferId: string, body: object, label: string): Promise<ApiResponse> =>
        ctx.api({ op: 'create', as: 'partner', transferId, token: s.token, rawBody: body, label });
      const get = (transferId: string, label: string): Promise<ApiResponse> =>
        ctx.api({ op: 'get', as: 'partner', transferId, token: s.token, label });
      const notVisible = ctx.profile.contract.statuses.notVisible;

      // control: the same request correctly sealed creates a transfer that GET shows
      const goodId = ctx.newTransferId();
      const good = await put(goodId, envelope(k, s.doc) as object, 'positive control: PUT sealed correctly');
      if (!ctx.profile.contract.statuses.create.includes(good.status)) {
        throw new Inconclusive(
          `positive control: a correctly sealed PUT was answered HTTP ${good.status}; a refusal would prove nothing`,
        );
      }
      const seen = await get(goodId, 'positive control: GET of the created transfer');
      if (seen.status !== 200)
        throw new Inconclusive(
          `positive control: GET of a created transfer was answered HTTP ${seen.status}; a 404 later would prove nothing`,
        );

      // the negative: signed by an attacker key
      const badId = ctx.newTransferId();
      const bad = await put(
        badId,
        envelope(k, s.doc, { jws: { signer: rsa(k.attacker.privateKeyPem) } }) as object,
        'PUT signed by an attacker key',
      );
      ctx.note(`PUT signed by an attacker key: HTTP ${bad.status}`);
      if (!ctx.profile.contract.statuses.joseRefused.includes(bad.status)) {
        throw new Inconclusive(
          `the PUT signed by an attacker key was not refused for its JOSE layer (HTTP ${bad.status}): JOSE-06's rule; no refusal to examine`,
        );
      }
      const after = await get(badId, 'GET of the refused transfer id');
      ctx.note(`GET of the refused transfer id: HTTP ${after.status}`);
      if (notVisible.includes(after.status)) return;
      if (after.status === 200) {
        // isolate: does GET answer 200 for any id (ERR-04's rule)?
        const unknown = await get(ctx.newTransferId(), 'isolation: GET of an id never used');
        if (unknown.status === 200)
          throw new Inconclusive('GET answers 200 even for an id never used (ERR-04): a 200 proves no side effect');
        throw new CheckFailed('the refused PUT created the transfer: GET of its id answers 200', {
          expected: `HTTP ${notVisible.join(' or ')}`,
          observed: 200,
        });
      }
      expectReached(after, notVisible, 'GET of the refused transfer id');
    },
  },
]);
