/**
 * What a JOSE check reads from its context for the negative catalogue (lib/negative): the keys it seals with, and
 * the environment its cases may need from the target.
 */
import type { CheckContext } from '../../lib/engine/session/context.ts';
import { attacker, type Keys } from '../../lib/negative/envelopes.ts';
import type { CaseEnv } from '../../lib/negative/families.ts';
import { serverPublicKey } from '../../lib/negative/server-key.ts';

export async function keysOf(ctx: CheckContext, as: 'partner' | 'code' = 'partner'): Promise<Keys> {
  const k = ctx.jose.clientKey(as);
  return {
    clientPrivateKey: k.privateKey,
    clientCertificate: k.certificate,
    bankPublicKey: ctx.jose.bankPublicKey,
    attacker: await attacker(),
  };
}

/** the environment of a check: the TLS server key read from a handshake with the target, as the partner */
export function caseEnvOf(ctx: CheckContext): CaseEnv {
  return {
    tlsServerKey: () => serverPublicKey(ctx.url('validate'), ctx.identity('partner'), ctx.proxy),
    ...(ctx.proxy ? { proxy: ctx.proxy } : {}),
  };
}
