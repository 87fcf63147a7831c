/**
 * The forged body `send --variant` sends: a case of the JOSE negative catalogue (suites/jose/catalogue.ts), built by
 * the very function the check uses, with the calling client's keys, over the document to seal. One function
 * (forgeVariant), so that the workbench's one list of variants, shared with `npm run jose -- forge`, can take its
 * place. Left out here: the key-URL cases (H2, H3: they need the checks' canary listener) and the isolation baseline
 * (its id is A5's).
 */
import type { CheckContext, ClientRole } from '../engine/context.ts';
import * as catalogue from '../../suites/jose/catalogue.ts';
import { attacker, type Keys } from '../../suites/jose/envelopes.ts';
import type { NegativeCase } from '../../suites/jose/negatives.ts';
import { SendUsage } from './send-args.ts';

/** a forged request body */
export interface Forged {
  id: string;
  title: string;
  /** sent exactly as built (an object is sent as JSON) */
  body: string | object;
  /** statuses that also count as its refusal (the size case: 413) */
  alsoRefused?: readonly number[];
}

/** the variant `id` over `doc`, signed as the `as` client; an unknown or unbuildable one is a usage error */
export async function forgeVariant(
  ctx: CheckContext,
  as: ClientRole,
  id: string,
  doc: Record<string, unknown>,
): Promise<Forged> {
  const variants = await variantsFor(ctx, as, doc);
  const v = variants.get(id);
  if (!v) throw new SendUsage(`--variant: unknown variant "${id}" (known: ${[...variants.keys()].join(', ')})`);
  const body = await v.body();
  if (body === undefined)
    throw new SendUsage(`--variant ${v.id}: cannot be built for this profile: ${v.skipped?.() ?? 'no body'}`);
  return { id: v.id, title: v.title, body, ...(v.alsoRefused ? { alsoRefused: v.alsoRefused } : {}) };
}

/** every variant for `doc`, signed as the `as` client, by id (the first of an id kept) */
async function variantsFor(
  ctx: CheckContext,
  as: ClientRole,
  doc: Record<string, unknown>,
): Promise<Map<string, NegativeCase>> {
  const key = ctx.jose.clientKey(as);
  const k: Keys = {
    clientPrivateKey: key.privateKey,
    clientCertificate: key.certificate,
    bankPublicKey: ctx.jose.bankPublicKey,
    attacker: await attacker(),
  };
  const cases = [
    ...catalogue.structureCases(doc),
    ...catalogue.formCases(k, doc),
    ...catalogue.layerCases(k, doc),
    ...catalogue.jwsAlgCases(k, doc),
    ...catalogue.jweAlgCases(k, doc),
    ...catalogue.jweEncCases(k, doc),
    ...catalogue.signatureKeyCases(k, doc),
    ...catalogue.encryptionKeyCases(ctx, k, doc),
    ...catalogue.tamperCases(k, doc),
    ...catalogue.headerKeyCases(k, doc),
    ...catalogue.critCases(k, doc),
    ...catalogue.duplicateCases(k, doc),
    ...catalogue.zipCases(k, doc),
    ...catalogue.multiplicityCases(k, doc),
  ];
  const byId = new Map<string, NegativeCase>();
  for (const c of cases) if (!byId.has(c.id)) byId.set(c.id, c);
  return byId;
}
