/** Keys imported once per PEM string (parsing an RSA private key costs more than one signature with it). */
import { createPrivateKey, createPublicKey, X509Certificate, type KeyObject } from 'node:crypto';

const publicKeys = new Map<string, KeyObject>();
const privateKeys = new Map<string, KeyObject>();

/** SPKI / PKCS#1 public PEM, or an X.509 certificate PEM */
export function publicKeyFromPem(pem: string): KeyObject {
  let key = publicKeys.get(pem);
  if (!key) {
    key = pem.includes('-----BEGIN CERTIFICATE-----') ? new X509Certificate(pem).publicKey : createPublicKey(pem);
    publicKeys.set(pem, key);
  }
  return key;
}

/** PKCS#8 (or PKCS#1) private PEM */
export function privateKeyFromPem(pem: string): KeyObject {
  let key = privateKeys.get(pem);
  if (!key) {
    key = createPrivateKey(pem);
    privateKeys.set(pem, key);
  }
  return key;
}
