/**
 * The client-side negative catalogue (CLI-02): an answer the client must act on, spoiled one way per variant.
 * Built here with lib/jose craft and the test PKI (the mock stays the clean bank): forgeries signed by the
 * attacker's key and offering that key (`jwk`, `x5c`) or pointing at it (`jku`, `x5u` at the harness's own
 * listener, `kid`), algorithm confusions (`none`, HS256 keyed with the bank's public key, RS512, PS256), an
 * unknown `crit`, tampered JWE members, a JWE to another key, and a genuine answer of another call replayed; and
 * (JOSE-05) a genuine answer in a compact or flattened serialization.
 */
import { createPublicKey } from 'node:crypto';
import { craftJwe, craftJws, type Signer } from '../jose/craft.ts';
import { issueCertificate, selfSignedCertificate } from '../pki/issue.ts';
import type { TestPki } from '../pki/types.ts';
import { FORM_SPOILS, type FormSpoil, type Spoil } from './types.ts';

type Json = Record<string, unknown>;

export interface SpoilContext {
  pki: TestPki;
  /** the partner's certificate: sealed answers are encrypted to it */
  partnerCertPem: string;
  /** the harness's own key listener (jku, x5u): any fetch of it is recorded and fails the variant */
  listenerUrl: string;
}

/** the `kid` a forged answer names: not the key the client was given */
export const FORGED_KID = 'bank-api-2024-rotated';

function jws(payload: string, header: Json, signer: Signer): Json {
  return craftJws({ payload, protectedHeader: header, signer, form: 'general' }) as Json;
}

function seal(plaintext: string, c: SpoilContext, to = c.partnerCertPem): Json {
  return sealAs('general', plaintext, c, to) as Json;
}

function sealAs(form: Form, plaintext: string, c: SpoilContext, to = c.partnerCertPem): Json | string {
  return craftJwe({ plaintext, recipientPublicKeyPem: to, alg: 'RSA-OAEP-256', enc: 'A256CBC-HS512', form }) as
    Json | string;
}

type Form = 'general' | 'flattened' | 'compact';

/**
 * a genuine answer, correctly signed by the bank and sealed to the client, one layer in another serialization
 * (JOSE-05): a compact answer is a string, sent as it is
 */
function otherForm(how: FormSpoil, payload: string, c: SpoilContext): Json | string {
  const [form, layer] = how.split('-') as ['compact' | 'flattened', 'jwe' | 'jws'];
  const signed = craftJws({
    payload,
    protectedHeader: { alg: 'RS256' },
    signer: { kind: 'rsa', alg: 'RS256', privateKeyPem: c.pki.bankApi.privateKeyPem },
    form: layer === 'jws' ? form : 'general',
  });
  return sealAs(layer === 'jwe' ? form : 'general', typeof signed === 'string' ? signed : JSON.stringify(signed), c);
}

const attackerJwk = (pki: TestPki): Json => ({
  ...(createPublicKey(pki.attacker.publicKeyPem).export({ format: 'jwk' }) as Json),
  kid: 'attacker',
});
const der = (pem: string): string =>
  pem
    .replace(/-----[^-]+-----/g, '')
    .replace(/\s+/g, '')
    .trim();

/** a certificate of the attacker's key issued by a CA the client was not given (the untrusted CA), valid now */
export function attackerLeaf(
  pki: TestPki,
  cn: string,
  role: 'api' | 'server',
): { certPem: string; privateKeyPem: string } {
  const now = Date.now();
  return issueCertificate({
    cn,
    keys: pki.attacker,
    role,
    issuer: pki.untrustedCa,
    notBefore: new Date(now - 86_400_000),
    notAfter: new Date(now + 86_400_000),
  });
}

/** that leaf with its CA, as x5c lists them (leaf first) */
function attackerChain(pki: TestPki): string[] {
  return [der(attackerLeaf(pki, 'bank-api', 'api').certPem), der(pki.untrustedCa.certPem)];
}

/** the signed layer of a forgery: which header, which signer */
function signedLayer(how: Spoil, payload: string, c: SpoilContext): Json | undefined {
  const bank = (alg: 'RS256' | 'RS512' | 'PS256'): Signer => ({
    kind: 'rsa',
    alg,
    privateKeyPem: c.pki.bankApi.privateKeyPem,
  });
  const attacker: Signer = { kind: 'rsa', alg: 'RS256', privateKeyPem: c.pki.attacker.privateKeyPem };
  switch (how) {
    case 'other-key':
      return jws(payload, { alg: 'RS256' }, attacker);
    case 'jwk':
      return jws(payload, { alg: 'RS256', jwk: attackerJwk(c.pki) }, attacker);
    case 'x5c':
      return jws(
        payload,
        { alg: 'RS256', x5c: [der(selfSignedCertificate('bank-api', c.pki.attacker).certPem)] },
        attacker,
      );
    case 'x5c-chain':
      return jws(payload, { alg: 'RS256', x5c: attackerChain(c.pki) }, attacker);
    case 'jku':
      return jws(payload, { alg: 'RS256', jku: `${c.listenerUrl}/jwks.json`, kid: 'attacker' }, attacker);
    case 'x5u':
      return jws(payload, { alg: 'RS256', x5u: `${c.listenerUrl}/bank-api.pem` }, attacker);
    case 'kid':
      return jws(payload, { alg: 'RS256', kid: FORGED_KID }, attacker);
    case 'alg-none':
      return jws(payload, { alg: 'none' }, { kind: 'none' });
    case 'hs256':
      return jws(
        payload,
        { alg: 'HS256' },
        { kind: 'hmac', alg: 'HS256', secret: Buffer.from(c.pki.bankApi.publicKeyPem) },
      );
    case 'rs512':
    case 'ps256':
      return jws(payload, { alg: how.toUpperCase() }, bank(how === 'rs512' ? 'RS512' : 'PS256'));
    case 'crit':
      return jws(payload, { alg: 'RS256', crit: ['urn:bank:expiry'], 'urn:bank:expiry': 0 }, bank('RS256'));
    default:
      return undefined;
  }
}

function flip(b64: string, at: 'middle' | 'first' = 'middle'): string {
  const b = Buffer.from(b64, 'base64url');
  b[at === 'first' ? 0 : b.length >> 1]! ^= 0x01;
  return b.toString('base64url');
}

/** a genuine sealed answer, one JWE member altered */
function tampered(how: Spoil, genuine: Json): Json {
  const jwe = { ...genuine };
  if (how === 'tampered-ciphertext') jwe.ciphertext = flip(jwe.ciphertext as string);
  if (how === 'tampered-tag') jwe.tag = flip(jwe.tag as string);
  if (how === 'tampered-iv') jwe.iv = flip(jwe.iv as string, 'first');
  if (how === 'tampered-protected') {
    const h = JSON.parse(Buffer.from(jwe.protected as string, 'base64url').toString('utf8')) as Json;
    jwe.protected = Buffer.from(JSON.stringify({ ...h, cty: 'JWT' })).toString('base64url');
  }
  return jwe;
}

/**
 * The answer as the variant spoils it. `body` is the answer this call would get; `other` the genuine answer of
 * another call (replayed). A string is a compact serialization, sent as it is (not as a JSON string).
 */
export function spoiledAnswer(how: Spoil, body: Json, other: Json, c: SpoilContext): unknown {
  const payload = JSON.stringify(body);
  const genuine = (p: string) =>
    jws(p, { alg: 'RS256' }, { kind: 'rsa', alg: 'RS256', privateKeyPem: c.pki.bankApi.privateKeyPem });
  if ((FORM_SPOILS as readonly Spoil[]).includes(how)) return otherForm(how as FormSpoil, payload, c);
  const signed = signedLayer(how, payload, c);
  if (signed) return seal(JSON.stringify(signed), c);
  switch (how) {
    case 'plain':
      return body;
    case 'unsigned':
      return seal(payload, c);
    case 'bad-signature': {
      const s = genuine(payload) as { signatures: { signature: string }[] };
      s.signatures[0]!.signature = flip(s.signatures[0]!.signature);
      return seal(JSON.stringify(s), c);
    }
    case 'other-recipient':
      return seal(JSON.stringify(genuine(payload)), c, c.pki.attacker.publicKeyPem);
    case 'replayed':
      return seal(JSON.stringify(genuine(JSON.stringify(other))), c);
    default:
      return tampered(how, seal(JSON.stringify(genuine(payload)), c));
  }
}
