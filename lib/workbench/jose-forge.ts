/**
 * A variant of the catalogue (variants.ts) built with a profile's keys: the client of `--role` and the bank's keys,
 * E7's TLS server key read from a handshake with the profile's target (as the client, as the check reads it).
 * `npm run jose -- forge` prints it; `npm run send -- --variant` can send it.
 */
import type { FullProfile } from '../profile/index.ts';
import { serverPublicKey } from '../negative/server-key.ts';
import { BadInput } from './jose-input.ts';
import type { WorkbenchKeys } from './jose-keys.ts';
import { buildVariant, VariantError, type Variant } from './variants.ts';

/** the variant `id` over `doc` with the profile's keys; an unknown or unbuildable variant is a BadInput (one line) */
export async function profileVariant(
  id: string,
  doc: Record<string, unknown>,
  p: FullProfile,
  k: WorkbenchKeys,
  keyUrl?: string,
): Promise<{ variant: Variant; body: unknown }> {
  const identity = {
    name: k.role,
    certificate: k.clientCertificate.pem,
    privateKey: k.clientPrivateKey.pem,
    ...(p.tls && { ca: p.tls.caCertificate }),
    ...(p.tls?.serverName !== undefined && { serverName: p.tls.serverName }),
  };
  try {
    return await buildVariant(
      id,
      doc,
      {
        clientPrivateKey: k.clientPrivateKey.pem,
        clientCertificate: k.clientCertificate.pem,
        bankPublicKey: k.bankPublicKey.pem,
        ...(k.bankPrivateKey && { bankPrivateKey: k.bankPrivateKey.pem }),
      },
      {
        ...(keyUrl !== undefined && { keyUrl }),
        tlsServerKey: () => serverPublicKey(p.target.baseUrl, identity),
      },
    );
  } catch (e) {
    if (e instanceof VariantError) throw new BadInput(e.message);
    throw e;
  }
}

/** a built body as printed or sent: a string as it is (a compact serialization, a duplicated member), else JSON */
export const bodyText = (body: unknown): string => (typeof body === 'string' ? body : JSON.stringify(body));
