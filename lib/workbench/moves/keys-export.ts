/**
 * `npm run jose -- keys --out DIR`: the harness's attacker key (lib/negative/envelopes.ts `attacker()`: the run-time
 * test PKI's, registered nowhere; the key H1..H4, A5, S9 and S10 are signed or wrapped with) written for a reviewer
 * who serves it to a bank that fetches `jku` / `x5u`: the private key (PEM and JWK, mode 0600), the public key, the
 * self-signed certificate and a JWKS. Prints the files and the key's RFC 7638 thumbprint, never the key.
 */
import { createPrivateKey } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { calculateJwkThumbprint, type JWK } from 'jose';
import { attacker } from '../../negative/envelopes.ts';
import { BadInput } from '../command/args.ts';

export async function exportAttacker(dir: string): Promise<string> {
  const a = await attacker();
  const privateJwk = { ...(createPrivateKey(a.privateKeyPem).export({ format: 'jwk' }) as JWK), kid: 'attacker' };
  const files: [string, string, number][] = [
    ['attacker-private.pem', a.privateKeyPem, 0o600],
    ['attacker-private.jwk.json', `${JSON.stringify(privateJwk)}\n`, 0o600],
    ['attacker-public.pem', a.publicKeyPem, 0o644],
    ['attacker-cert.pem', a.certificatePem, 0o644],
    ['jwks.json', `${JSON.stringify({ keys: [a.jwk] }, null, 2)}\n`, 0o644],
  ];
  try {
    mkdirSync(dir, { recursive: true });
    for (const [name, text, mode] of files) writeFileSync(join(dir, name), text, { mode });
  } catch (e) {
    throw new BadInput(`--out ${dir}: cannot write (${(e as { code?: string }).code ?? String(e)})`);
  }
  const thumb = await calculateJwkThumbprint(a.jwk as JWK, 'sha256');
  return [
    `the attacker key (kid "attacker", JWK thumbprint SHA-256 ${thumb}) written to ${dir}:`,
    ...files.map(([name, , mode]) => `  ${name}${mode === 0o600 ? '  (private: mode 0600)' : ''}`),
    'serve jwks.json where jku points and attacker-cert.pem where x5u points; sign with --sign-key attacker',
    '',
  ].join('\n');
}
