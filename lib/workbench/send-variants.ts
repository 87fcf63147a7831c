/**
 * The forged bodies `send --variant` can send: the JOSE catalogue's negative cases (suites/jose/catalogue.ts), built
 * by the very functions the checks use, for the calling client's keys and the document to seal. One function, so
 * that the workbench's list of variants (shared with `npm run jose -- forge`) can take its place.
 * Left out: the key-URL cases (H2, H3: they need the checks' canary listener) and the isolation baseline (its id is
 * A5's).
 */
import type { CheckContext, ClientRole } from '../engine/context.ts';
import * as catalogue from '../../suites/jose/catalogue.ts';
import { attacker, type Keys } from '../../suites/jose/envelopes.ts';
import type { NegativeCase } from '../../suites/jose/negatives.ts';

export type Variant = NegativeCase;

/** every variant for `doc`, signed as the `as` client, by id (the first of an id kept) */
export async function variantsFor(
  ctx: CheckContext,
  as: ClientRole,
  doc: Record<string, unknown>,
): Promise<Map<string, Variant>> {
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
  const byId = new Map<string, Variant>();
  for (const c of cases) if (!byId.has(c.id)) byId.set(c.id, c);
  return byId;
}
