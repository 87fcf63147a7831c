/**
 * What the test PKI needs of node:crypto alone (no certificate builder): RSA key pairs, generated on libuv's thread
 * pool, and certificate fingerprints.
 */
import { generateKeyPair, X509Certificate } from 'node:crypto';
import type { KeyPair } from './types.ts';

/**
 * Key generation runs on libuv's thread pool, which file reads share (module loading among them): at most this
 * many keys are generated at once, so a run that loads its modules while its PKI is generated is not stalled
 * behind a queue of key generations.
 */
const KEYGEN_AT_ONCE = 2;
let keygenRunning = 0;
const keygenQueue: (() => void)[] = [];

async function keygenSlot<T>(work: () => Promise<T>): Promise<T> {
  if (keygenRunning >= KEYGEN_AT_ONCE) await new Promise<void>((resolve) => keygenQueue.push(resolve));
  keygenRunning++;
  try {
    return await work();
  } finally {
    keygenRunning--;
    keygenQueue.shift()?.();
  }
}

/** RSA key pair as PEM (PKCS#8 private, SPKI public). */
export function generateRsaKeyPair(bits = 2048): Promise<KeyPair> {
  return keygenSlot(() => generateOne(bits));
}

function generateOne(bits: number): Promise<KeyPair> {
  return new Promise((resolve, reject) => {
    generateKeyPair(
      'rsa',
      {
        modulusLength: bits,
        publicExponent: 0x10001,
        publicKeyEncoding: { type: 'spki', format: 'pem' },
        privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      },
      (err, publicKeyPem, privateKeyPem) => (err ? reject(err) : resolve({ publicKeyPem, privateKeyPem })),
    );
  });
}

/** Lower-case hex SHA-256 of the DER certificate. */
export function certSha256(certPem: string | Buffer): string {
  return new X509Certificate(certPem).fingerprint256.replace(/:/g, '').toLowerCase();
}
