/**
 * The profile's keys for the workbench: which key decrypts, verifies, signs and encrypts for `--as client|bank`
 * and `--role code|partner|internal`, named by their profile field (never printed: a key is shown by its JWK
 * thumbprint, RFC 7638). A missing profile, field or key is a BadInput (exit 2).
 */
import { createPrivateKey, createPublicKey, X509Certificate, type KeyObject } from 'node:crypto';
import { calculateJwkThumbprint, type JWK } from 'jose';
import { loadProfile, ProfileError, type AnyProfile, type FullProfile } from '../profile/index.ts';
import { BadInput, ROLES, type Role, type Side } from './command/args.ts';

export { ROLES, type Role, type Side };

/** a PEM and the profile field it came from */
export interface NamedKey {
  field: string;
  pem: string;
}

/** the client's key pair (its certificate registered with the bank) and the bank's API-domain keys */
export interface WorkbenchKeys {
  role: Role;
  clientPrivateKey: NamedKey;
  clientCertificate: NamedKey;
  bankPublicKey: NamedKey;
  /** only a reviewer of their own bank has it (profile `bank.apiPrivateKey`) */
  bankPrivateKey?: NamedKey;
}

export async function loadFullProfile(path: string): Promise<FullProfile> {
  let p: AnyProfile;
  try {
    p = await loadProfile(path);
  } catch (e) {
    if (e instanceof ProfileError) throw new BadInput(`profile ${path}: ${e.message}`);
    throw e;
  }
  if ('embedded' in p)
    throw new BadInput(
      `profile ${path}: an embedded-mock profile has no keys to work with; start \`npm run mock -- --mode uat\` and use the profile it writes`,
    );
  return p;
}

function need(pem: string | undefined, field: string): NamedKey {
  if (!pem) throw new BadInput(`profile: ${field} is missing (needed for this command)`);
  return { field, pem };
}

export function keysOf(p: FullProfile, role: Role): WorkbenchKeys {
  const client = p.clients[role];
  if (!client) throw new BadInput(`profile: clients.${role} is missing (--role ${role})`);
  return {
    role,
    clientPrivateKey: need(client.privateKey, `clients.${role}.privateKey`),
    clientCertificate: need(client.certificate, `clients.${role}.certificate`),
    bankPublicKey: need(p.bank.apiPublicKey, 'bank.apiPublicKey'),
    ...(p.bank.apiPrivateKey !== undefined && {
      bankPrivateKey: { field: 'bank.apiPrivateKey', pem: p.bank.apiPrivateKey },
    }),
  };
}

/** the bank's private key, or a BadInput naming the field */
export function bankPrivate(k: WorkbenchKeys): NamedKey {
  return need(k.bankPrivateKey?.pem, 'bank.apiPrivateKey');
}

/** the keys of one direction: who signs and who can open */
export interface Direction {
  sign: NamedKey;
  encryptTo: NamedKey;
  decrypt: NamedKey;
  verifyWith: NamedKey;
}

/**
 * `--as client`: what the client seals (signed by its key, to the bank) and opens (the bank's answer: decrypted
 * with its key, verified with the bank's); `--as bank`: the reverse
 */
export function directionOf(k: WorkbenchKeys, as: Side): Direction {
  if (as === 'client')
    return {
      sign: k.clientPrivateKey,
      encryptTo: k.bankPublicKey,
      decrypt: k.clientPrivateKey,
      verifyWith: k.bankPublicKey,
    };
  const bank = bankPrivate(k);
  return { sign: bank, encryptTo: k.clientCertificate, decrypt: bank, verifyWith: k.clientCertificate };
}

/** the public key of a PEM (private key, public key or certificate); a BadInput naming the field if it does not parse */
export function publicKeyOf(k: NamedKey): KeyObject {
  try {
    return k.pem.includes('-----BEGIN CERTIFICATE-----')
      ? new X509Certificate(k.pem).publicKey
      : createPublicKey(k.pem);
  } catch (e) {
    throw new BadInput(`profile: ${k.field} is not a usable key (${e instanceof Error ? e.message : String(e)})`);
  }
}

/** how a key is shown: its field, type and size, and its RFC 7638 thumbprint (never the key) */
export async function describeKey(k: NamedKey): Promise<string> {
  const pub = publicKeyOf(k);
  const thumb = await calculateJwkThumbprint(pub.export({ format: 'jwk' }) as JWK, 'sha256');
  const bits = pub.asymmetricKeyDetails?.modulusLength;
  return `${k.field} (${pub.asymmetricKeyType ?? 'key'}${bits ? ` ${bits}` : ''}, JWK thumbprint SHA-256 ${thumb})`;
}

/** the private key of a PEM; a BadInput naming the field if it does not parse */
export function privateKeyOf(k: NamedKey): KeyObject {
  try {
    return createPrivateKey(k.pem);
  } catch (e) {
    throw new BadInput(
      `profile: ${k.field} is not a usable private key (${e instanceof Error ? e.message : String(e)})`,
    );
  }
}
