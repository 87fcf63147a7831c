/**
 * The client fault catalogue (the harness's own tests only): PARTNER_CLIENT_FAULTS=a,b makes the reference
 * client break one rule each, so that the partner matrix can show each client-side check fails under its fault.
 * A real client has none of this.
 */
import { generalDecrypt } from 'jose';
import { craftJwe, craftJws } from '../../lib/jose/craft.ts';
import { privateKeyFromPem } from '../../lib/jose/index.ts';

/** fault id → the requirement id whose check must fail with it on */
export const CLIENT_FAULTS = {
  'plain-body': 'CLI-01',
  rs512: 'CLI-01',
  compact: 'CLI-01',
  'no-verify': 'CLI-02',
  'no-client-id': 'CLI-03',
  'no-msgid': 'CLI-03',
  'reuse-code': 'CLI-04',
  'ignore-state': 'CLI-04',
  'retry-refresh': 'CLI-05',
  'keep-first-refresh': 'CLI-05',
  'ignore-retry-after': 'CLI-06',
  tls11: 'CLI-07',
  'new-transfer-id-on-retry': 'CLI-08',
  'unmasked-id': 'MASK-05',
  'mask-six': 'MASK-05',
  'token-per-call': 'TOK-18',
  'tls-no-verify': 'TLS-08',
} as const;
export type ClientFault = keyof typeof CLIENT_FAULTS;

const on = new Set(
  (process.env.PARTNER_CLIENT_FAULTS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);
for (const f of on) if (!(f in CLIENT_FAULTS)) throw new Error(`PARTNER_CLIENT_FAULTS: unknown fault "${f}"`);

export function faultOn(id: ClientFault): boolean {
  return on.has(id);
}

/** rs512: the right layers, the wrong signature algorithm; compact: compact JWS inside compact JWE */
export function sealFaulty(payload: unknown, signingKeyPem: string, bankKeyPem: string): string | undefined {
  const rs512 = faultOn('rs512');
  const compact = faultOn('compact');
  if (!rs512 && !compact) return undefined;
  const jws = craftJws({
    payload: JSON.stringify(payload),
    protectedHeader: { alg: rs512 ? 'RS512' : 'RS256' },
    signer: { kind: 'rsa', alg: rs512 ? 'RS512' : 'RS256', privateKeyPem: signingKeyPem },
    form: compact ? 'compact' : 'general',
  });
  const jwe = craftJwe({
    plaintext: typeof jws === 'string' ? jws : JSON.stringify(jws),
    recipientPublicKeyPem: bankKeyPem,
    alg: 'RSA-OAEP-256',
    enc: 'A256CBC-HS512',
    form: compact ? 'compact' : 'general',
  });
  return typeof jwe === 'string' ? jwe : JSON.stringify(jwe);
}

/** no-verify: reads an answer without verifying anything (decrypts when it can, takes the JWS payload unread) */
export async function looseOpen(text: string, myKeyPem: string): Promise<Record<string, unknown>> {
  let o = JSON.parse(text) as Record<string, unknown>;
  if ('ciphertext' in o && myKeyPem) {
    const d = await generalDecrypt(o as never, privateKeyFromPem(myKeyPem));
    o = JSON.parse(new TextDecoder().decode(d.plaintext)) as Record<string, unknown>;
  }
  if (typeof o.payload === 'string' && 'signatures' in o) {
    o = JSON.parse(Buffer.from(o.payload, 'base64url').toString('utf8')) as Record<string, unknown>;
  }
  return o;
}
