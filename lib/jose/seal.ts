/**
 * seal(): JWS (general JSON, RS256) inside JWE (general JSON, RSA-OAEP-256 + A256CBC-HS512).
 *
 * With RSA keys of 2048 bits or more (the profile's), the envelope is built on node:crypto: the RS256 signature is one
 * job on libuv's thread pool (crypto.sign with a callback), the JWE lib/jose/craft.ts's (the content key wrapped with
 * the public key, AES-256-CBC and HMAC-SHA-512, in one go). jose's GeneralSign + GeneralEncrypt take four WebCrypto
 * jobs for the same work, each a thread-pool round trip that costs more CPU than its work (docs/performance.md). The
 * opening side stays independent: the mock opens requests with its own opener (lib/mock/jose/open-sealed.ts, open-fast.ts),
 * the harness opens answers with jose (open.ts); test/jose/seal-open.test.ts opens what this seals with jose and by
 * hand. Other keys go through jose, which refuses what it refuses (RSA under 2048 bits, a non-RSA key for RS256).
 */
import { sign, type KeyObject } from 'node:crypto';
import { GeneralEncrypt, GeneralSign } from 'jose';
import { b64u, craftJweBody } from './craft.ts';
import { privateKeyFromPem, publicKeyFromPem } from './keys.ts';
import { JWE_ALG, JWE_ENC, JWS_ALG, type GeneralJwe, type SealOptions } from './types.ts';

const encoder = new TextEncoder();

export async function seal(payload: unknown, opts: SealOptions): Promise<GeneralJwe> {
  const text = JSON.stringify(payload);
  if (text === undefined) throw new TypeError('seal: payload is not JSON-serializable');
  const signingKey = privateKeyFromPem(opts.signingKey);
  if (rsa2048(signingKey) && rsa2048(publicKeyFromPem(opts.encryptionKey))) return sealText(text, signingKey, opts);
  return sealWithJose(text, opts);
}

/** an RSA key of 2048 bits or more (what jose requires for RS256 and RSA-OAEP-256) */
export function rsa2048(key: KeyObject): boolean {
  return key.asymmetricKeyType === 'rsa' && (key.asymmetricKeyDetails?.modulusLength ?? 0) >= 2048;
}

/** an RS256 signature computed on libuv's thread pool (one job) */
function signRs256(input: Buffer, key: KeyObject): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    sign('sha256', input, key, (err, signature) => (err ? reject(err) : resolve(signature)));
  });
}

/**
 * the canonical envelope of the JSON text `text` on node:crypto: protected headers {alg: RS256[, kid]} and
 * {alg: RSA-OAEP-256, enc: A256CBC-HS512[, cty][, kid]}, nothing unprotected; `signingKey` an RSA key of 2048 bits or
 * more, `opts.encryptionKey` a public key or certificate PEM of one (seal() checks both; the mock's keys are its own)
 */
export async function sealText(
  text: string,
  signingKey: KeyObject,
  opts: Pick<SealOptions, 'encryptionKey' | 'signingKid' | 'encryptionKid' | 'cty'>,
): Promise<GeneralJwe> {
  const prot = b64u(JSON.stringify({ alg: JWS_ALG, ...(opts.signingKid !== undefined && { kid: opts.signingKid }) }));
  const payload = b64u(text);
  const signature = await signRs256(Buffer.from(`${prot}.${payload}`, 'ascii'), signingKey);
  const jws = { payload, signatures: [{ protected: prot, signature: b64u(signature) }] };
  return craftJweBody({
    plaintext: JSON.stringify(jws),
    protectedHeader: {
      ...(opts.cty !== undefined && { cty: opts.cty }),
      ...(opts.encryptionKid !== undefined && { kid: opts.encryptionKid }),
    },
    recipientPublicKeyPem: opts.encryptionKey,
    alg: JWE_ALG,
    enc: JWE_ENC,
    form: 'general',
  }) as unknown as GeneralJwe;
}

/** the same envelope with jose (keys seal() does not build by hand: jose refuses them as it always did) */
async function sealWithJose(text: string, opts: SealOptions): Promise<GeneralJwe> {
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
