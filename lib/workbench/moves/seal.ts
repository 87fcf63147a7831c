/**
 * `npm run jose -- seal` and `tamper`: jwt_tool's moves for a JWS in a JWE. The envelope is built by the builders
 * the checks' forgeries are built with (lib/negative/envelopes.ts `envelope` and `jwsOf`, over lib/jose/craft.ts):
 * `seal --alg none` is A1's envelope, `--sign-key attacker --embed jwk` H1's, `--unsigned` S6's, `--also-to
 * attacker` S9's, `--enc A128GCM` E1's, `--flip tag` T4's (craft's tamper). A header is edited member by member on
 * either layer; the JWS is signed with the profile's key, a key file, the attacker's key, an HS256 secret, or not.
 */
import { createPrivateKey, createPublicKey, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { compactDecrypt, flattenedDecrypt, generalDecrypt } from 'jose';
import { tamper as flipBit, type Signer } from '../../jose/craft.ts';
import { classify } from '../../jose/index.ts';
import { attacker, envelope, jwsOf, rsa, type Attacker, type Keys } from '../../negative/envelopes.ts';
import {
  BadInput,
  JWE_ALGS,
  ENCS,
  type Changes,
  type Edit,
  type Enc,
  type Form,
  type JweAlg,
} from '../command/args.ts';
import type { Input } from '../jose-input.ts';
import type { Direction, NamedKey } from '../jose-keys.ts';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

const readText = (file: string, what: string): Buffer => {
  try {
    return readFileSync(file);
  } catch (e) {
    throw new BadInput(`${what} ${file}: cannot be read (${(e as { code?: string }).code ?? String(e)})`);
  }
};

/** a PEM or a JWK file, as a PKCS#8 PEM private key */
function privateKeyFile(file: string): string {
  const text = readText(file, '--sign-key').toString('utf8');
  try {
    if (text.trim().startsWith('{')) {
      const jwk = JSON.parse(text) as Json;
      if (typeof jwk.kty !== 'string') throw new Error('JSON, but not a JWK (no "kty")');
      if (jwk.d === undefined) throw new Error('a public JWK (no "d")');
      return createPrivateKey({ key: jwk as never, format: 'jwk' }).export({ type: 'pkcs8', format: 'pem' }) as string;
    }
    return createPrivateKey(text).export({ type: 'pkcs8', format: 'pem' }) as string;
  } catch (e) {
    throw new BadInput(`--sign-key ${file}: not a private key, PEM or JWK (${e instanceof Error ? e.message : e})`);
  }
}

/** a public key or certificate file (PEM), for --also-to */
function publicKeyFile(file: string): string {
  const text = readText(file, '--also-to').toString('utf8');
  try {
    publicPem(text);
    return text;
  } catch (e) {
    throw new BadInput(
      `--also-to ${file}: not a public key or certificate PEM (${e instanceof Error ? e.message : e})`,
    );
  }
}

/** the SPKI PEM of a key or certificate PEM (as the catalogue's A2 keys its HMAC) */
function publicPem(pem: string): string {
  const key = pem.includes('-----BEGIN CERTIFICATE-----') ? new X509Certificate(pem).publicKey : createPublicKey(pem);
  return key.export({ type: 'spki', format: 'pem' }) as string;
}

/** what the builders are given: the direction's keys, the attacker's loaded only when an option names it */
async function keysFor(d: Direction, c: Changes, clientCertificate: NamedKey): Promise<Keys> {
  const needs = c.signKey === 'attacker' || c.alsoTo === 'attacker';
  const a: Attacker | undefined = needs ? await attacker() : undefined;
  return {
    clientPrivateKey: d.sign.pem,
    clientCertificate: clientCertificate.pem,
    bankPublicKey: d.encryptTo.pem,
    get attacker(): Attacker {
      if (!a) throw new BadInput('the attacker key is needed here: --sign-key attacker');
      return a;
    },
  };
}

function applyEdits(base: Json, edits: readonly Edit[], layer: Edit['layer']): Json {
  const out = structuredClone(base);
  for (const e of edits.filter((x) => x.layer === layer)) {
    let at: Json = out;
    for (const p of e.path.slice(0, -1)) {
      if (!isObject(at[p])) at[p] = {};
      at = at[p] as Json;
    }
    const last = e.path.at(-1)!;
    if (e.value === undefined) delete at[last];
    else at[last] = e.value;
  }
  return out;
}

const isNone = (alg: string): boolean => alg.toLowerCase() === 'none';

function signerOf(alg: string, c: Changes, k: Keys, d: Direction): Signer {
  if (isNone(alg)) return { kind: 'none' };
  if (alg === 'HS256') {
    const h = c.hmac;
    if (!h) throw new BadInput('--alg HS256 needs its key: --secret, --secret-file or --hmac-public-key');
    const secret =
      'text' in h
        ? Buffer.from(h.text)
        : 'file' in h
          ? readText(h.file, '--secret-file')
          : Buffer.from(publicPem(h.publicKey === 'bank' ? d.encryptTo.pem : k.clientCertificate));
    return { kind: 'hmac', alg: 'HS256', secret };
  }
  const pem =
    c.signKey === undefined
      ? d.sign.pem
      : c.signKey === 'attacker'
        ? k.attacker.privateKeyPem
        : privateKeyFile(c.signKey);
  return rsa(pem, alg as 'RS256' | 'RS512' | 'PS256');
}

/** the header members --kid and --embed add */
function keyMembers(c: Changes, k: Keys, signer: Signer): Json {
  const out: Json = c.kid !== undefined ? { kid: c.kid } : {};
  if (c.embed === 'jwk') {
    if (signer.kind !== 'rsa') throw new BadInput('--embed jwk: the JWS is not signed with an RSA key');
    out.jwk =
      c.signKey === 'attacker' ? k.attacker.jwk : createPublicKey(signer.privateKeyPem).export({ format: 'jwk' });
  }
  if (c.embed === 'x5c') {
    if (c.signKey !== 'attacker')
      throw new BadInput('--embed x5c needs --sign-key attacker (the harness holds its certificate)');
    out.x5c = [k.attacker.certificateDerB64];
  }
  return out;
}

/** the signature of a built JWS emptied or cut to its first half (its form kept) */
function spoilSignature(jws: Json | string, how: 'empty' | 'truncated'): Json | string {
  const cut = (sig: string): string => (how === 'empty' ? '' : sig.slice(0, Math.floor(sig.length / 2)));
  if (typeof jws === 'string') {
    const [h, p, s] = jws.split('.');
    return `${h}.${p}.${cut(s ?? '')}`;
  }
  const copy = structuredClone(jws);
  if (Array.isArray(copy.signatures)) {
    const first = copy.signatures[0] as Json | undefined;
    if (first) first.signature = cut(String(first.signature ?? ''));
  } else copy.signature = cut(String(copy.signature ?? ''));
  return copy;
}

const jwsText = (jws: Json | string): string => (typeof jws === 'string' ? jws : JSON.stringify(jws));

/** a JWS signed anew over `doc`, its protected header `header` with the changes */
function newJws(doc: Json, header: Json, baseAlg: string, c: Changes, k: Keys, d: Direction, form: Form): string {
  const alg = c.alg ?? baseAlg;
  const signer = signerOf(alg, c, k, d);
  const protectedHeader = applyEdits({ ...header, alg, ...keyMembers(c, k, signer) }, c.edits, 'jws');
  const jws = jwsOf(k, doc, { protectedHeader, rawProtected: JSON.stringify(protectedHeader), signer, form });
  return jwsText(c.signature ? spoilSignature(jws, c.signature) : jws);
}

/** the JWE around `plaintext`: the header read (tamper) or the profile's, with the changes; then a bit flipped */
function newJwe(plaintext: string, header: Json, c: Changes, k: Keys): string {
  const alg: JweAlg =
    c.jweAlg ?? ((JWE_ALGS as readonly unknown[]).includes(header.alg) ? (header.alg as JweAlg) : 'RSA-OAEP-256');
  const enc: Enc = c.enc ?? ((ENCS as readonly unknown[]).includes(header.enc) ? (header.enc as Enc) : 'A256CBC-HS512');
  const form = c.jweForm ?? 'general';
  const protectedHeader = applyEdits({ ...header, alg, enc }, c.edits, 'jwe');
  if (c.alsoTo !== undefined && form !== 'general') throw new BadInput('--also-to: only a general JWE has recipients');
  const extra =
    c.alsoTo === undefined ? [] : [c.alsoTo === 'attacker' ? k.attacker.publicKeyPem : publicKeyFile(c.alsoTo)];
  const env = envelope(k, undefined, {
    plaintext,
    jwe: {
      alg,
      enc,
      form,
      rawProtected: JSON.stringify(protectedHeader),
      ...(extra.length && { extraRecipientPublicKeyPems: extra }),
    },
  });
  if (c.flip === undefined) return jwsText(env);
  if (typeof env === 'string') throw new BadInput('--flip: give a JSON JWE form (general or flattened)');
  return JSON.stringify(flipBit(env, c.flip));
}

const jwsChanged = (c: Changes): boolean =>
  c.alg !== undefined ||
  c.kid !== undefined ||
  c.signKey !== undefined ||
  c.embed !== undefined ||
  c.jwsForm !== undefined ||
  c.edits.some((e) => e.layer !== 'jwe');

/** seal: the document (or, with --inner-jws, the JWS read) sealed as the direction says, with the changes */
export async function sealWith(input: Input, d: Direction, c: Changes, clientCert: NamedKey): Promise<string> {
  const k = await keysFor(d, c, clientCert);
  if (c.innerJws) {
    const text = input.text.trim();
    if (classify(text).kind !== 'jws') throw new BadInput(`${input.name}: --inner-jws: not a JWS (compact or JSON)`);
    return newJwe(text, {}, c, k);
  }
  const doc = payloadOf(input);
  if (c.unsigned) return newJwe(JSON.stringify(applyEdits(doc, c.edits, 'payload')), {}, c, k);
  const edited = applyEdits(doc, c.edits, 'payload');
  return newJwe(newJws(edited, {}, 'RS256', c, k, d, c.jwsForm ?? 'general'), {}, c, k);
}

function payloadOf(input: Input): Json {
  let v: unknown;
  try {
    v = JSON.parse(input.text);
  } catch (e) {
    throw new BadInput(`${input.name}: not JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  if (!isObject(v)) throw new BadInput(`${input.name}: the payload must be a JSON object`);
  return v;
}

/** the plaintext and protected header of a JWE, decrypted with `key` (jose; RSA-OAEP-256 or RSA-OAEP) */
async function decrypt(
  value: unknown,
  form: string,
  key: NamedKey,
  name: string,
): Promise<{ text: string; header: Json }> {
  // the extensions the header marks crit are read here, not processed: tamper re-seals what it reads
  const prot = form === 'compact' ? String(value).split('.')[0] : isObject(value) ? value.protected : undefined;
  const crit = typeof prot === 'string' ? safeJson(Buffer.from(prot, 'base64url').toString('utf8')) : undefined;
  const names = isObject(crit) && Array.isArray(crit.crit) ? crit.crit.filter((n) => typeof n === 'string') : [];
  const options = {
    keyManagementAlgorithms: ['RSA-OAEP-256', 'RSA-OAEP'],
    contentEncryptionAlgorithms: [...ENCS],
    crit: Object.fromEntries(names.map((n) => [n, true])),
  };
  try {
    const k = createPrivateKey(key.pem);
    const r =
      form === 'compact'
        ? await compactDecrypt(value as string, k, options)
        : form === 'flattened'
          ? await flattenedDecrypt(value as never, k, options)
          : await generalDecrypt(value as never, k, options);
    return { text: Buffer.from(r.plaintext).toString('utf8'), header: { ...(r.protectedHeader ?? {}) } };
  } catch (e) {
    throw new BadInput(`${name}: does not decrypt with ${key.field} (${e instanceof Error ? e.message : String(e)})`);
  }
}

/** the payload and first protected header of a JWS text (compact or JSON) */
function readJws(text: string, name: string): { doc: unknown; header: Json; form: Form } {
  const { kind, form } = classify(text);
  if (kind !== 'jws') throw new BadInput(`${name}: the plaintext is not a JWS`);
  let payload: string;
  let prot: string;
  if (form === 'compact') [prot = '', payload = ''] = text.trim().split('.');
  else {
    const v = JSON.parse(text) as Json;
    const sig = (Array.isArray(v.signatures) ? (v.signatures[0] as Json | undefined) : v) ?? {};
    prot = String(sig.protected ?? '');
    payload = String(v.payload ?? '');
  }
  const decode = (b64: string): unknown => {
    try {
      return JSON.parse(Buffer.from(b64, 'base64url').toString('utf8')) as unknown;
    } catch {
      return undefined;
    }
  };
  const header = decode(prot);
  return { doc: decode(payload), header: isObject(header) ? header : {}, form: form as Form };
}

/**
 * tamper: an envelope decrypted with the recipient's key (or a JWS read as it is), changed, sealed again to the
 * same recipient. The inner JWS is kept byte for byte unless a JWS option or a payload member changes it.
 */
export async function tamperWith(
  input: Input,
  d: Direction,
  /** the key that opens the envelope (asked for only when the input is an envelope, not its inner JWS) */
  recipientKey: () => NamedKey,
  c: Changes,
  clientCert: NamedKey,
): Promise<string> {
  const text = input.text.trim();
  const { kind, form } = classify(text);
  if (kind !== 'jwe' && kind !== 'jws')
    throw new BadInput(`${input.name}: tamper reads an envelope or its inner JWS (seal seals a JSON payload)`);
  const value: unknown = form === 'compact' ? text : (JSON.parse(text) as unknown);
  const opened = kind === 'jwe' ? await decrypt(value, form, recipientKey(), input.name) : { text, header: {} };
  // the plaintext read is decompressed: sealed again uncompressed, the header says so (unless --set jwe.zip)
  delete opened.header.zip;
  const k = await keysFor(d, c, clientCert);
  let inner = opened.text;
  const innerKind = classify(inner).kind;
  if (c.unsigned) {
    const doc = innerKind === 'jws' ? readJws(inner, input.name).doc : (JSON.parse(inner) as unknown);
    inner = JSON.stringify(isObject(doc) ? applyEdits(doc, c.edits, 'payload') : doc);
  } else if (jwsChanged(c)) {
    const read =
      innerKind === 'jws' ? readJws(inner, input.name) : { doc: safeJson(inner), header: {}, form: 'general' as Form };
    if (!isObject(read.doc)) throw new BadInput(`${input.name}: the payload inside is not a JSON object`);
    const baseAlg = ['RS256', 'RS512', 'PS256'].includes(String(read.header.alg)) ? String(read.header.alg) : 'RS256';
    inner = newJws(applyEdits(read.doc, c.edits, 'payload'), read.header, baseAlg, c, k, d, c.jwsForm ?? read.form);
  } else if (c.signature) {
    if (innerKind !== 'jws') throw new BadInput(`${input.name}: --signature: the plaintext is not a JWS`);
    inner = jwsText(spoilSignature(inner.startsWith('{') ? (JSON.parse(inner) as Json) : inner, c.signature));
  }
  return newJwe(inner, opened.header, c, k);
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
