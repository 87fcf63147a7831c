/** keys and envelope builders for the jose tests (keys generated at run time; no lib/pki dependency) */
import { generateKeyPairSync } from 'node:crypto';
import forge from 'node-forge';
import { craftJwe, craftJws, type CraftJweInput, type CraftJwsInput } from '../../lib/jose/craft.ts';
import type { OpenOptions } from '../../lib/jose/types.ts';

export interface Pair {
  priv: string;
  pub: string;
}

export function rsaPair(bits = 2048): Pair {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: bits });
  return {
    priv: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
    pub: publicKey.export({ type: 'spki', format: 'pem' }) as string,
  };
}

/** a self-signed certificate PEM for a key pair (node:crypto cannot make certificates; node-forge can) */
export function selfSignedCert(pair: Pair, cn: string): string {
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(pair.pub);
  cert.serialNumber = '01';
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + 3600_000);
  cert.setSubject([{ name: 'commonName', value: cn }]);
  cert.setIssuer([{ name: 'commonName', value: cn }]);
  cert.sign(forge.pki.privateKeyFromPem(pair.priv) as forge.pki.rsa.PrivateKey, forge.md.sha256.create());
  return forge.pki.certificateToPem(cert);
}

export interface World {
  /** receiver: the JWE is encrypted to it */
  bank: Pair;
  /** sender: signs the JWS */
  client: Pair;
  attacker: Pair;
  opts: OpenOptions;
}

export function makeWorld(): World {
  const bank = rsaPair();
  const client = rsaPair();
  const attacker = rsaPair();
  return { bank, client, attacker, opts: { decryptionKey: bank.priv, verificationKey: client.pub } };
}

export const DOC = { beneficiary_id: 'BEN-0001', amount: { value: '150.00', currency: 'AED' }, purpose_code: 'FAM' };

/** a JWS (general RS256 by the client over DOC unless overridden) */
export function jwsOf(w: World, o: Partial<CraftJwsInput> = {}): Record<string, unknown> | string {
  return craftJws({
    payload: JSON.stringify(DOC),
    protectedHeader: { alg: 'RS256' },
    signer: { kind: 'rsa', alg: 'RS256', privateKeyPem: w.client.priv },
    form: 'general',
    ...o,
  });
}

/** a JWE (general RSA-OAEP-256/A256CBC-HS512 to the bank) of a plaintext (a JWS object is JSON-stringified) */
export function jweOf(w: World, plaintext: unknown, o: Partial<CraftJweInput> = {}): Record<string, unknown> | string {
  return craftJwe({
    plaintext: typeof plaintext === 'string' || Buffer.isBuffer(plaintext) ? plaintext : JSON.stringify(plaintext),
    recipientPublicKeyPem: w.bank.pub,
    alg: 'RSA-OAEP-256',
    enc: 'A256CBC-HS512',
    form: 'general',
    ...o,
  });
}

/** a whole envelope: jws overrides inside jwe overrides */
export function envelope(
  w: World,
  jws: Partial<CraftJwsInput> = {},
  jwe: Partial<CraftJweInput> = {},
): Record<string, unknown> | string {
  return jweOf(w, jwsOf(w, jws), jwe);
}
