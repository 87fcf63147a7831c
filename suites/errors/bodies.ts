/**
 * Request bodies of the ERR checks that the harness's sealing does not make: broken JSON text sealed by hand (in UAT
 * the JSON parser is reached only inside a valid envelope), and the request path an error answer may echo.
 */
import type { CheckContext, ClientRole } from '../../lib/engine/session/context.ts';
import { craftJwe, craftJws } from '../../lib/jose/craft.ts';

/**
 * A body whose JSON text is broken. In UAT a plain body would be refused by JOSE first (JOSE-01), so the broken
 * text is signed and encrypted by hand (lib/jose/craft.ts, which seals any bytes) to reach the JSON parser.
 */
export function malformedBody(ctx: CheckContext, text: string, as: ClientRole = 'code'): string | object {
  if (ctx.env !== 'uat') return text;
  return sealText(ctx, text, as);
}

/** general JWE (RSA-OAEP-256, A256CBC-HS512) around general JWS (RS256, the `as` client's key) of exactly `text` */
export function sealText(ctx: CheckContext, text: string, as: ClientRole = 'code'): object {
  const jws = craftJws({
    payload: text,
    protectedHeader: { alg: 'RS256' },
    signer: { kind: 'rsa', alg: 'RS256', privateKeyPem: ctx.jose.clientKey(as).privateKey },
    form: 'general',
  });
  return craftJwe({
    plaintext: JSON.stringify(jws),
    recipientPublicKeyPem: ctx.jose.bankPublicKey,
    alg: 'RSA-OAEP-256',
    enc: 'A256CBC-HS512',
    form: 'general',
  }) as object;
}

export const BROKEN_JSON = '{"beneficiary_id": "BEN-0001", "amount": {"value": "1.00", ';

/** the text without the request paths the harness sent (under the basepath): an echo of them is no leak */
export function withoutEcho(text: string, basepath: string): string {
  if (!basepath || basepath === '/') return text;
  const escaped = basepath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return text.replace(new RegExp(`${escaped}(?:/[^\\s"']*)?`, 'g'), '');
}
