/** JOSE-10: keys and key URLs in JWS headers are never trusted nor fetched; an unknown crit is refused. */
import { Inconclusive, type CheckSpec } from '../../lib/engine/check.ts';
import type { CheckContext } from '../../lib/engine/session/context.ts';
import { startCanary, type Canary } from './canary.ts';
import {
  attackerBaseline,
  critCases,
  CANARY_PATHS,
  headerKeyCases,
  headerUrlCases,
} from '../../lib/negative/catalogue.ts';
import { envelope, type Keys } from '../../lib/negative/envelopes.ts';
import { keysOf } from './keys.ts';
import {
  judge,
  partnerSender,
  positiveControl,
  sendCase,
  sendCases,
  type CaseResult,
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

export const headerKeysUntrusted: CheckSpec = {
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
};

export const headerKeyUrlsNotFetched: CheckSpec = {
  name: 'header-key-urls-not-fetched',
  requirements: ['JOSE-10'],
  needs: ['canary'],
  title: 'key URLs in headers (jku, x5u) are never fetched nor trusted (a canary the target can reach counts fetches)',
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
};
