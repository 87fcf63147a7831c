/** seal(): JWS (general JSON, RS256) inside JWE (general JSON, RSA-OAEP-256 + A256CBC-HS512), with jose. */
import { GeneralEncrypt, GeneralSign } from 'jose';
import { privateKeyFromPem, publicKeyFromPem } from './keys.ts';
import { JWE_ALG, JWE_ENC, JWS_ALG, type GeneralJwe, type SealOptions } from './types.ts';
import { countCryptoOp } from '../crypto-ops.ts';

const encoder = new TextEncoder();

export async function seal(payload: unknown, opts: SealOptions): Promise<GeneralJwe> {
  const text = JSON.stringify(payload);
  if (text === undefined) throw new TypeError('seal: payload is not JSON-serializable');
  countCryptoOp('sign');
  const jws = await new GeneralSign(encoder.encode(text))
    .addSignature(privateKeyFromPem(opts.signingKey))
    .setProtectedHeader({ alg: JWS_ALG, ...(opts.signingKid !== undefined && { kid: opts.signingKid }) })
    .sign();
  const jwe = await new GeneralEncrypt(encoder.encode(JSON.stringify(jws)))
    .setProtectedHeader({
      alg: JWE_ALG,
      enc: JWE_ENC,
      ...(opts.cty !== undefined && { cty: opts.cty }),
      ...(opts.encryptionKid !== undefined && { kid: opts.encryptionKid }),
    })
    .addRecipient(publicKeyFromPem(opts.encryptionKey))
    .encrypt();
  return jwe as GeneralJwe;
}
