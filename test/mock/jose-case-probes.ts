/**
 * Probes of the JOSE case faults (8a) for test/mock/faults.test.ts: each sends one hand-built validate body and
 * says whether the fault's behaviour is seen (accepted, or answered 500 where the fault is an error oracle).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { X509Certificate } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';
import { craftJwe, craftJws, tamper, type CraftJweInput, type CraftJwsInput } from '../../lib/jose/craft.ts';
import { selfSignedCertificate } from '../../lib/pki/issue.ts';
import type { KeyPair } from '../../lib/pki/types.ts';

export interface ProbeKeys {
  clientPrivateKey: string;
  clientCertificate: string;
  bankPublicKey: string;
  attacker: KeyPair;
  /** a valid transfer request body (what a correctly sealed validate accepts) */
  doc: unknown;
}
/** POST /transfers/validate with this raw body: the status */
export type Send = (raw: string) => Promise<number>;
type Probe = (k: ProbeKeys, send: Send) => Promise<boolean>;

const jws = (k: ProbeKeys, o: Partial<CraftJwsInput> = {}): string => {
  const j = craftJws({
    payload: JSON.stringify(k.doc),
    protectedHeader: { alg: 'RS256' },
    signer: { kind: 'rsa', alg: 'RS256', privateKeyPem: k.clientPrivateKey },
    form: 'general',
    ...o,
  });
  return typeof j === 'string' ? j : JSON.stringify(j);
};
const jwe = (k: ProbeKeys, plaintext: string | Buffer, o: Partial<CraftJweInput> = {}): string => {
  const e = craftJwe({
    plaintext,
    recipientPublicKeyPem: k.bankPublicKey,
    alg: 'RSA-OAEP-256',
    enc: 'A256CBC-HS512',
    form: 'general',
    ...o,
  });
  return typeof e === 'string' ? e : JSON.stringify(e);
};
const attackerSigned = (k: ProbeKeys, header: Record<string, unknown>): string =>
  jwe(
    k,
    jws(k, {
      protectedHeader: { alg: 'RS256', ...header },
      signer: { kind: 'rsa', alg: 'RS256', privateKeyPem: k.attacker.privateKeyPem },
    }),
  );

async function withPemServer<T>(pem: string, f: (url: string) => Promise<T>): Promise<T> {
  const server = createServer((_req, res) => res.end(pem));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    return await f(`http://127.0.0.1:${(server.address() as AddressInfo).port}/x5u.pem`);
  } finally {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
}

export const JOSE_CASE_PROBES: Record<string, Probe> = {
  'jose-duplicates-first-wins': async (k, send) =>
    (await send(
      jwe(
        k,
        jws(k, {
          rawProtected: '{"alg":"RS256","alg":"RS512"}',
          signer: { kind: 'rsa', alg: 'RS512', privateKeyPem: k.clientPrivateKey },
        }),
      ),
    )) === 200,
  'jose-accept-duplicates': async (k, send) =>
    (await send(jwe(k, jws(k, { rawProtected: '{"alg":"none","alg":"RS256"}' })))) === 200,
  'jose-accept-zip': async (k, send) =>
    (await send(jwe(k, deflateRawSync(jws(k)), { protectedHeader: { zip: 'DEF' } }))) === 200,
  'jose-accept-several': async (k, send) =>
    (await send(jwe(k, jws(k), { extraRecipientPublicKeyPems: [k.attacker.publicKeyPem] }))) === 200,
  'jose-accept-compact': async (k, send) => (await send(jwe(k, jws(k), { form: 'compact' }))) === 200,
  'jose-hs256-key-confusion': async (k, send) => {
    const secret = Buffer.from(
      new X509Certificate(k.clientCertificate).publicKey.export({ type: 'spki', format: 'pem' }),
    );
    return (
      (await send(
        jwe(k, jws(k, { protectedHeader: { alg: 'HS256' }, signer: { kind: 'hmac', alg: 'HS256', secret } })),
      )) === 200
    );
  },
  'jose-pbes2-unbounded': async (k, send) =>
    (await send(
      jwe(k, jws(k), {
        protectedHeader: { alg: 'PBES2-HS512+A256KW', p2s: 'c2FsdHNhbHRzYWx0c2FsdA', p2c: 1_000_000_000 },
      }),
    )) === 500,
  'jose-fetch-x5u': (k, send) =>
    withPemServer(
      selfSignedCertificate('probe-attacker', k.attacker).certPem,
      async (url) => (await send(attackerSigned(k, { x5u: url }))) === 200,
    ),
  'jose-trust-header-x5c': async (k, send) => {
    const der = new X509Certificate(selfSignedCertificate('probe-attacker', k.attacker).certPem).raw.toString('base64');
    return (await send(attackerSigned(k, { x5c: [der] }))) === 200;
  },
  'jose-tag-failure-500': async (k, send) =>
    (await send(JSON.stringify(tamper(JSON.parse(jwe(k, jws(k))) as Record<string, unknown>, 'tag')))) === 500,
};
