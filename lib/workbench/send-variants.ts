/**
 * The forged body `send --variant` sends: a request variant of the workbench's one list of forgeries
 * (lib/workbench/variants.ts, each built by the function its check uses), with the calling client's keys, over the
 * document to seal. E7 reads the target's TLS server key with the client's identity (lib/negative/server-key.ts).
 */
import type { CheckContext, ClientRole } from '../engine/session/context.ts';
import { serverPublicKey } from '../negative/server-key.ts';
import { SendUsage } from './send-args.ts';
import { buildVariant, listVariants, VariantError } from './variants.ts';

/** a forged request body */
export interface Forged {
  id: string;
  title: string;
  /** sent exactly as built (an object is sent as JSON) */
  body: string | object;
  /** statuses that also count as its refusal (the size case: 413) */
  alsoRefused?: readonly number[];
}

/** the variant `id` over `doc`, signed as the `as` client; an unknown, unbuildable or answer-side one is a usage error */
export async function forgeVariant(
  ctx: CheckContext,
  as: ClientRole,
  id: string,
  doc: Record<string, unknown>,
): Promise<Forged> {
  const key = ctx.jose.clientKey(as);
  const keys = {
    clientPrivateKey: key.privateKey,
    clientCertificate: key.certificate,
    bankPublicKey: ctx.jose.bankPublicKey,
  };
  if ((await listVariants()).find((v) => v.id === id)?.side === 'answer')
    throw new SendUsage(`--variant ${id}: a forged answer (the bank's side), not a request: see npm run jose -- forge`);
  try {
    // through send's proxy (its transport) when it has one, as certify's JOSE-07 reads it
    const tlsServerKey = () => serverPublicKey(ctx.url('validate'), ctx.identity(as), ctx.proxy);
    const { variant, body } = await buildVariant(id, doc, keys, {
      tlsServerKey,
      ...(ctx.proxy ? { proxy: ctx.proxy } : {}),
    });
    if (typeof body !== 'string' && (typeof body !== 'object' || body === null))
      throw new SendUsage(`--variant ${id}: cannot be built for this profile`);
    return { id: variant.id, title: variant.title, body };
  } catch (e) {
    if (e instanceof VariantError) throw new SendUsage(`--variant: ${e.message}`);
    throw e;
  }
}
