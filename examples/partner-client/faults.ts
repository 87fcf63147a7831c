/**
 * The client fault catalogue (the harness's own tests only): PARTNER_CLIENT_FAULTS=a,b makes the reference
 * client break one rule each, so that the partner matrix can show each client-side check fails under its fault.
 * A real client has none of this.
 */
import {
  createDecipheriv,
  createHmac,
  createPublicKey,
  createVerify,
  privateDecrypt,
  constants,
  X509Certificate,
  type KeyObject,
} from 'node:crypto';
import {
  compactDecrypt,
  compactVerify,
  flattenedDecrypt,
  flattenedVerify,
  generalDecrypt,
  generalVerify,
  type FlattenedJWE,
  type FlattenedJWSInput,
  type GeneralJWE,
  type GeneralJWSInput,
} from 'jose';
import { craftJwe, craftJws } from '../../lib/jose/craft.ts';
import { privateKeyFromPem } from '../../lib/jose/index.ts';

/** fault id → the requirement id whose check must fail with it on */
export const CLIENT_FAULTS = {
  'plain-body': 'CLI-01',
  rs512: 'CLI-01',
  compact: 'CLI-01',
  'no-verify': 'CLI-02',
  // the negative catalogue: each makes the client accept one kind of forged answer (its CLI-02 variants)
  'trust-jwk': 'CLI-02',
  'trust-x5c': 'CLI-02',
  'fetch-jku': 'CLI-02',
  'fetch-x5u': 'CLI-02',
  'skip-unknown-kid': 'CLI-02',
  'accept-alg-none': 'CLI-02',
  'hs256-with-public-key': 'CLI-02',
  'any-rsa-alg': 'CLI-02',
  'ignore-crit': 'CLI-02',
  'skip-tag-check': 'CLI-02',
  'read-unopened': 'CLI-02',
  // answer binding (CLI-09, a SHOULD): it verifies every answer but not that the answer is its call's
  'no-answer-match': 'CLI-09',
  // the serializations (JOSE-05, a SHOULD): each makes the client take a genuine answer in one other form
  'accept-compact-jwe': 'JOSE-05',
  'accept-compact-jws': 'JOSE-05',
  'accept-flattened-jwe': 'JOSE-05',
  'accept-flattened-jws': 'JOSE-05',
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

type Json = Record<string, unknown>;
const b64 = (s: unknown): Buffer => Buffer.from(String(s), 'base64url');

/** skip-tag-check: AES-CBC decryption of a general JWE without checking its HMAC tag */
function decryptWithoutTag(jwe: Json, myKeyPem: string): string {
  const r = (jwe.recipients as { encrypted_key: string }[])[0]!;
  const cek = privateDecrypt(
    { key: myKeyPem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
    b64(r.encrypted_key),
  );
  const d = createDecipheriv('aes-256-cbc', cek.subarray(32), b64(jwe.iv));
  return Buffer.concat([d.update(b64(jwe.ciphertext)), d.final()]).toString('utf8');
}

async function decrypted(jwe: Json, myKeyPem: string): Promise<string | undefined> {
  try {
    const d = await generalDecrypt(jwe as never, privateKeyFromPem(myKeyPem));
    return new TextDecoder().decode(d.plaintext);
  } catch {
    return faultOn('skip-tag-check') ? decryptWithoutTag(jwe, myKeyPem) : undefined;
  }
}

function verifies(alg: string, key: KeyObject | Buffer, input: string, sig: Buffer): boolean {
  if (alg === 'HS256')
    return createHmac('sha256', key as Buffer)
      .update(input)
      .digest()
      .equals(sig);
  const v = createVerify(alg.endsWith('512') ? 'sha512' : 'sha256').update(input);
  return alg.startsWith('PS')
    ? v.verify({ key: key as KeyObject, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 }, sig)
    : v.verify(key as KeyObject, sig);
}

/** the key a faulty client takes for this header, when one of its faults applies */
async function faultyKey(h: Json, bankKeyPem: string): Promise<KeyObject | Buffer | 'none' | undefined> {
  const alg = String(h.alg);
  if (alg === 'none') return faultOn('accept-alg-none') ? 'none' : undefined;
  if (alg === 'HS256') return faultOn('hs256-with-public-key') ? Buffer.from(bankKeyPem) : undefined;
  if (h.jwk && faultOn('trust-jwk')) return createPublicKey({ key: h.jwk as never, format: 'jwk' });
  if (Array.isArray(h.x5c) && faultOn('trust-x5c'))
    return new X509Certificate(Buffer.from(String(h.x5c[0]), 'base64')).publicKey;
  for (const [member, fault] of [
    ['jku', 'fetch-jku'],
    ['x5u', 'fetch-x5u'],
  ] as const) {
    if (typeof h[member] === 'string' && faultOn(fault)) {
      const res = await fetch(h[member]);
      if (!res.ok) throw new Error(`${member}: ${res.status}`);
    }
  }
  if (typeof h.kid === 'string' && faultOn('skip-unknown-kid')) return 'none';
  if ((alg === 'RS512' || alg === 'PS256') && faultOn('any-rsa-alg')) return createPublicKey(bankKeyPem);
  if (Array.isArray(h.crit) && faultOn('ignore-crit')) return createPublicKey(bankKeyPem);
  return undefined;
}

/**
 * The catalogue's verification faults: an answer a faulty client would take (its payload), or undefined when no
 * fault applies (the client then opens it strictly). read-unopened: an answer that does not open is taken as an
 * empty success.
 */
export async function faultyOpen(text: string, myKeyPem: string, bankKeyPem: string): Promise<Json | undefined> {
  let o: Json;
  try {
    o = JSON.parse(text) as Json;
  } catch {
    return undefined;
  }
  if (!('ciphertext' in o)) return undefined;
  const plain = await decrypted(o, myKeyPem);
  if (plain === undefined) return faultOn('read-unopened') ? { unopened: true } : undefined;
  let jws: { payload: string; signatures: { protected: string; signature: string }[] };
  try {
    jws = JSON.parse(plain) as typeof jws;
  } catch {
    return faultOn('read-unopened') ? { unopened: true } : undefined;
  }
  const sig = jws.signatures?.[0];
  if (!sig) return undefined;
  const h = JSON.parse(b64(sig.protected).toString('utf8')) as Json;
  const key = await faultyKey(h, bankKeyPem);
  if (key === undefined) return faultOn('skip-tag-check') ? strictPayload(jws, bankKeyPem) : undefined;
  if (key !== 'none' && !verifies(String(h.alg), key, `${sig.protected}.${jws.payload}`, b64(sig.signature)))
    return undefined;
  return JSON.parse(b64(jws.payload).toString('utf8')) as Json;
}

/** skip-tag-check: the signature is still checked as the client always does (RS256 with the bank's key) */
function strictPayload(
  jws: { payload: string; signatures: { protected: string; signature: string }[] },
  bankKeyPem: string,
): Json | undefined {
  const sig = jws.signatures[0]!;
  const h = JSON.parse(b64(sig.protected).toString('utf8')) as Json;
  if (h.alg !== 'RS256' || h.crit !== undefined) return undefined;
  if (!verifies('RS256', createPublicKey(bankKeyPem), `${sig.protected}.${jws.payload}`, b64(sig.signature)))
    return undefined;
  return JSON.parse(b64(jws.payload).toString('utf8')) as Json;
}

/** a fault of the negative catalogue is on (the client then tries faultyOpen first) */
export function catalogueFaultOn(): boolean {
  return CATALOGUE.some((f) => on.has(f));
}
const CATALOGUE: ClientFault[] = [
  'trust-jwk',
  'trust-x5c',
  'fetch-jku',
  'fetch-x5u',
  'skip-unknown-kid',
  'accept-alg-none',
  'hs256-with-public-key',
  'any-rsa-alg',
  'ignore-crit',
  'skip-tag-check',
  'read-unopened',
];

const FORM_FAULTS: ClientFault[] = [
  'accept-compact-jwe',
  'accept-compact-jws',
  'accept-flattened-jwe',
  'accept-flattened-jws',
];
const parsed = (text: string): Json | undefined => {
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' ? (v as Json) : undefined;
  } catch {
    return undefined;
  }
};

/**
 * The serialization faults (JOSE-05): an answer whose JWE or JWS is in the one other form the fault accepts,
 * decrypted and verified as strictly as ever (RSA-OAEP-256 + A256CBC-HS512 to the client, RS256 with the bank's
 * key); undefined when the answer is in the general forms, or in a form no fault on accepts (the client then
 * opens it strictly, and refuses it).
 */
export async function formFaultOpen(text: string, myKeyPem: string, bankKeyPem: string): Promise<Json | undefined> {
  if (!FORM_FAULTS.some((f) => on.has(f))) return undefined;
  const dec = { keyManagementAlgorithms: ['RSA-OAEP-256'], contentEncryptionAlgorithms: ['A256CBC-HS512'] };
  const ver = { algorithms: ['RS256'] };
  const myKey = privateKeyFromPem(myKeyPem);
  const bankKey = createPublicKey(bankKeyPem);
  let other = false;
  try {
    const o = parsed(text);
    let plain: Uint8Array;
    if (o === undefined) {
      if (!faultOn('accept-compact-jwe')) return undefined;
      [other, plain] = [true, (await compactDecrypt(text.trim(), myKey, dec)).plaintext];
    } else if ('recipients' in o) plain = (await generalDecrypt(o as unknown as GeneralJWE, myKey, dec)).plaintext;
    else if ('ciphertext' in o && faultOn('accept-flattened-jwe'))
      [other, plain] = [true, (await flattenedDecrypt(o as unknown as FlattenedJWE, myKey, dec)).plaintext];
    else return undefined;
    const jwsText = new TextDecoder().decode(plain);
    const jws = parsed(jwsText);
    let payload: Uint8Array;
    if (jws === undefined) {
      if (!faultOn('accept-compact-jws')) return undefined;
      [other, payload] = [true, (await compactVerify(jwsText.trim(), bankKey, ver)).payload];
    } else if ('signatures' in jws)
      payload = (await generalVerify(jws as unknown as GeneralJWSInput, bankKey, ver)).payload;
    else if ('signature' in jws && faultOn('accept-flattened-jws'))
      [other, payload] = [true, (await flattenedVerify(jws as unknown as FlattenedJWSInput, bankKey, ver)).payload];
    else return undefined;
    return other ? (JSON.parse(new TextDecoder().decode(payload)) as Json) : undefined;
  } catch {
    return undefined;
  }
}
