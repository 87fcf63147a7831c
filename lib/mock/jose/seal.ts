/**
 * JOSE at the mock's edge (UAT): requests are opened with the mock's own opener (open-sealed.ts: jose's
 * primitives, pinned algorithms and keys; hardening rules on unless the mock is lenient); a JOSE fault that
 * breaks the crypto rules swaps in lenientOpen() with exactly one relaxation. Responses are signed with the bank's
 * API key and encrypted to the client's registered certificate (sealClean: the mock's own node:crypto sealer,
 * seal-clean.ts). What the faults make of the opening is read once per set of faults (FaultSet.memo).
 */
import { FlattenedEncrypt, FlattenedSign, GeneralEncrypt, GeneralSign } from 'jose';
import { openByHand } from '../../jose/craft.ts';
import { privateKeyFromPem, publicKeyFromPem } from '../../jose/keys.ts';
import type { Issued, KeyPair } from '../../pki/types.ts';
import type { MockContext } from '../context.ts';
import type { RegisteredClient } from '../data.ts';
import type { FaultSet } from '../fault-set.ts';
import { isJsonObject, readJson, type JsonReading } from './jose-json.ts';
import { lenientOpen, type Relaxations } from './lenient-open.ts';
import { LENIENT_RULES, openSealed, STRICT_RULES, type OpenRules } from './open-sealed.ts';
import type { JsonText } from '../server/http.ts';
import { sealCleanText } from './seal-clean.ts';

/**
 * `code`: NOT_JSON / PAYLOAD_NOT_JSON when the body / the signed payload is not JSON; `status` 500: the refusal
 * surfaces as an internal error (the jose-tag-failure-500 and jose-pbes2-unbounded faults)
 */
export type OpenOutcome = { ok: true; payload: unknown } | { ok: false; reason: string; code?: string; status?: 500 };

/** the reason shown to the caller: the step that refused, without library error codes or messages */
export function publicReason(reason: string): string {
  return reason
    .replace(/\s*\([^)]*\)/g, '')
    .replace(/[\r\n]+/g, ' ')
    .slice(0, 200);
}

/** relaxations switched on by the faults; `plainFault` names the fault that lets plain JSON through here */
function relaxations(faults: FaultSet, plainFault: 'jose-accept-plain' | 'cc-token-accept-plain'): Relaxations {
  const on = (id: string): boolean => faults.on(id);
  const r: Relaxations = {};
  if (on(plainFault)) r.plain = true;
  if (on('jose-accept-any-jws-alg')) r.anyJwsAlg = true;
  if (on('jose-accept-any-key-alg')) r.anyKeyAlg = true;
  if (on('jose-accept-any-enc')) r.anyEnc = true;
  if (on('jose-accept-flattened')) r.flattened = true;
  if (on('jose-skip-signature-key-pin')) r.skipSignature = true;
  if (on('jose-accept-tampered')) r.ignoreTag = true;
  if (on('jose-accept-unsigned')) r.unsigned = true;
  if (on('jose-accept-unencrypted')) r.unencrypted = true;
  if (on('jose-trust-header-jwk')) r.headerJwk = true;
  if (on('jose-fetch-jku')) r.fetchJku = true;
  if (on('jose-accept-unknown-crit')) r.ignoreCrit = true;
  // JOSE cases (8a)
  if (on('jose-fetch-x5u')) r.fetchX5u = true;
  if (on('jose-trust-header-x5c')) r.headerX5c = true;
  if (on('jose-hs256-key-confusion')) r.hs256 = true;
  if (on('jose-pbes2-unbounded')) r.pbes2 = true;
  if (on('jose-accept-compact')) r.compact = true;
  if (on('jose-tag-failure-500')) r.tag500 = true;
  // for the property checks (docs/properties.md)
  if (on('jose-tag-unchecked-other-recipient')) r.tagFirstRecipientOnly = true;
  return r;
}

/** what the faults make of a request's opening, read once per set of faults (FaultSet.memo) */
interface OpeningFaults {
  plain: boolean;
  flattened: boolean;
  /** the relaxations lenientOpen applies (flattened aside); empty: the clean opener */
  rest: Omit<Relaxations, 'plain' | 'flattened'>;
  anyKey: boolean;
  duplicates: JsonReading | undefined;
  zip: boolean;
  several: boolean;
  /** the jose-accept-second-spelling fault: a member written in a second spelling is read as its bytes */
  respell: boolean;
}

function openingFaults(faults: FaultSet, plainFault: 'jose-accept-plain' | 'cc-token-accept-plain'): OpeningFaults {
  const { plain, flattened, ...rest } = relaxations(faults, plainFault);
  return {
    plain: plain === true,
    flattened: flattened === true,
    rest,
    anyKey: faults.on('jose-decrypt-any-known-key'),
    duplicates: faults.on('jose-duplicates-first-wins')
      ? 'first-wins'
      : faults.on('jose-accept-duplicates')
        ? 'last-wins'
        : undefined,
    zip: faults.on('jose-accept-zip'),
    several: faults.on('jose-accept-several'),
    respell: faults.on('jose-accept-second-spelling'),
  };
}

const OPENING_FAULTS = {
  'jose-accept-plain': (faults: FaultSet) => openingFaults(faults, 'jose-accept-plain'),
  'cc-token-accept-plain': (faults: FaultSet) => openingFaults(faults, 'cc-token-accept-plain'),
} as const;

/** what the clean opener allows: the lenient mode, the hardening faults, the flattened and first-wins faults */
function openRules(ctx: MockContext, o: OpeningFaults): OpenRules {
  const base = ctx.lenient ? LENIENT_RULES : STRICT_RULES;
  return {
    duplicates: o.duplicates ?? base.duplicates,
    zip: base.zip || o.zip,
    several: base.several || o.several,
    flattened: o.flattened,
    spelling: o.respell || ctx.readSpellings ? 'read' : base.spelling,
  };
}

/** a plain JSON object (no JOSE members) read as strictly as the clean opener would */
function plainObject(text: string): unknown {
  try {
    const v = readJson(text, 'refuse', 'the body');
    const jose = isJsonObject(v) && ['recipients', 'ciphertext', 'signatures', 'payload'].some((m) => m in v);
    return isJsonObject(v) && !jose ? v : undefined;
  } catch {
    return undefined;
  }
}

/** every private key the bank holds (the jose-decrypt-any-known-key fault) */
function allBankKeys(ctx: MockContext): (Issued | KeyPair)[] {
  const p = ctx.pki;
  return [
    p.bankApi,
    p.server,
    p.bankCa,
    p.partnerCa,
    p.untrustedCa,
    p.attacker,
    ...Object.values(p.clients),
    ...Object.values(p.negative),
  ];
}

function keyList(pairs: (Issued | KeyPair)[]): { key: ReturnType<typeof privateKeyFromPem>; pem: string }[] {
  return pairs.map((k) => ({ key: privateKeyFromPem(k.privateKeyPem), pem: k.privateKeyPem }));
}

/**
 * jose refuses RSA keys under 2048 bits; a client with such a key only gets this far under the
 * accept-weak-client-key fault, and its requests are then opened by the node:crypto implementation of
 * lib/jose/craft.ts (same algorithms, no key-size floor).
 */
function weakKey(client: RegisteredClient): boolean {
  return (publicKeyFromPem(client.cert.certPem).asymmetricKeyDetails?.modulusLength ?? 0) < 2048;
}

export async function openRequest(
  ctx: MockContext,
  body: Buffer,
  client: RegisteredClient,
  plainFault: 'jose-accept-plain' | 'cc-token-accept-plain',
): Promise<OpenOutcome> {
  if (weakKey(client)) {
    try {
      const payload = await openByHand({
        envelope: body.toString('utf8'),
        decryptionKeyPem: ctx.pki.bankApi.privateKeyPem,
        verificationKeyPem: client.cert.certPem,
      });
      return { ok: true, payload };
    } catch (e) {
      return { ok: false, reason: e instanceof Error ? e.message : 'the sealed body could not be opened' };
    }
  }
  const o = ctx.faults.memo(OPENING_FAULTS[plainFault]);
  const text = body.toString('utf8');
  if (o.plain) {
    // jose-accept-plain / cc-token-accept-plain: a plain JSON object goes through (strict JSON all the same)
    const payload = plainObject(text);
    if (payload !== undefined) return { ok: true, payload };
  }
  const rules = openRules(ctx, o);
  if (Object.keys(o.rest).length === 0 && !o.anyKey) {
    return openSealed(
      text,
      {
        decryption: privateKeyFromPem(ctx.pki.bankApi.privateKeyPem),
        verification: publicKeyFromPem(client.cert.certPem),
      },
      rules,
    );
  }
  return lenientOpen(
    text,
    {
      decryptionKeys: keyList(o.anyKey ? allBankKeys(ctx) : [ctx.pki.bankApi]),
      verificationKey: publicKeyFromPem(client.cert.certPem),
    },
    { ...o.rest, ...(o.flattened ? { flattened: true } : {}), ...allowedBy(rules) },
  );
}

/**
 * what the clean opener's rules allow that lenientOpen keeps too (zip, several, last-wins duplicates, a second
 * spelling read as its bytes), so that a
 * relaxation switched on beside a hardening fault (or in the lenient mock) does not take it back
 */
function allowedBy(rules: OpenRules): Relaxations {
  return {
    ...(rules.zip ? { zip: true } : {}),
    ...(rules.several ? { several: true } : {}),
    ...(rules.duplicates === 'refuse' ? {} : { duplicates: rules.duplicates }),
    ...(rules.spelling === 'read' ? { readSpellings: true } : {}),
  };
}

/** everything relaxed (the jose-side-effect-on-refusal fault: what a careless bank would have read) */
export async function openCarelessly(ctx: MockContext, body: Buffer, client: RegisteredClient): Promise<unknown> {
  const r = await lenientOpen(
    body.toString('utf8'),
    {
      decryptionKeys: keyList(allBankKeys(ctx)),
      verificationKey: publicKeyFromPem(client.cert.certPem),
    },
    {
      plain: true,
      anyJwsAlg: true,
      anyKeyAlg: true,
      anyEnc: true,
      flattened: true,
      skipSignature: true,
      ignoreTag: true,
      unsigned: true,
      unencrypted: true,
      ignoreCrit: true,
    },
  );
  return r.ok ? r.payload : undefined;
}

const encoder = new TextEncoder();

/**
 * the lenient mock's responses: what JOSE-11 allows beyond the minimal envelope — the plaintext compressed
 * (zip DEF) and the content key also wrapped for a second recipient (the bank's own archive key)
 */
async function sealLeniently(ctx: MockContext, payload: unknown, client: RegisteredClient): Promise<unknown> {
  const jws = await new GeneralSign(encoder.encode(JSON.stringify(payload)))
    .addSignature(privateKeyFromPem(ctx.pki.bankApi.privateKeyPem))
    .setProtectedHeader({ alg: 'RS256' })
    .sign();
  const jwe = new GeneralEncrypt(encoder.encode(JSON.stringify(jws))).setProtectedHeader({
    alg: 'RSA-OAEP-256',
    enc: 'A256CBC-HS512',
    zip: 'DEF',
  });
  jwe.addRecipient(publicKeyFromPem(ctx.pki.bankApi.certPem));
  jwe.addRecipient(publicKeyFromPem(client.cert.certPem));
  return jwe.encrypt();
}

/**
 * the clean mock's envelope (general JWS RS256 in general JWE RSA-OAEP-256 + A256CBC-HS512, the profile's): the mock's
 * own node:crypto sealer (seal-clean.ts: the RSA signature one job on libuv's thread pool beside the mock's thread, the
 * JWE in one go, the envelope as JSON text), where jose takes four thread-pool round trips that cost more CPU than the
 * work. The harness opens it with jose: an interop check too.
 */
async function sealClean(payload: unknown, signingPem: string, encryptionPem: string): Promise<JsonText> {
  const text = JSON.stringify(payload);
  if (text === undefined) throw new TypeError('sealResponse: payload is not JSON-serializable');
  return sealCleanText(text, privateKeyFromPem(signingPem), publicKeyFromPem(encryptionPem));
}

/**
 * seals a response to `client` (UAT). The JOSE-11 faults change exactly one property of the envelope, of the
 * transfers API's responses only (`scope` 'oauth': the token endpoints' sealed answers, which JOSE-12 covers).
 */
export async function sealResponse(
  ctx: MockContext,
  payload: unknown,
  client: RegisteredClient,
  scope: 'transfers' | 'oauth' = 'transfers',
): Promise<unknown> {
  const f = { on: (id: string): boolean => scope === 'transfers' && ctx.faults.on(id) };
  if (f.on('response-unsealed')) return payload;
  const signingPem = f.on('response-signed-wrong-key') ? ctx.pki.server.privateKeyPem : ctx.pki.bankApi.privateKeyPem;
  const enc = f.on('response-wrong-enc') ? 'A128CBC-HS256' : 'A256CBC-HS512';
  if (!f.on('response-signed-wrong-key') && !f.on('response-wrong-enc') && !f.on('response-flattened')) {
    // RSA-OAEP-256 cannot wrap a 64-byte A256CBC-HS512 key for a 1024-bit key (at most 62 bytes): such a client
    // (only past the gate under accept-weak-client-key) is answered in plain JSON
    if (weakKey(client)) return payload;
    if (ctx.lenient) return sealLeniently(ctx, payload, client);
    return sealClean(payload, signingPem, client.cert.certPem);
  }
  const signKey = privateKeyFromPem(signingPem);
  const encKey = publicKeyFromPem(client.cert.certPem);
  const bytes = encoder.encode(JSON.stringify(payload));
  if (f.on('response-flattened')) {
    const jws = await new FlattenedSign(bytes).setProtectedHeader({ alg: 'RS256' }).sign(signKey);
    return new FlattenedEncrypt(encoder.encode(JSON.stringify(jws)))
      .setProtectedHeader({ alg: 'RSA-OAEP-256', enc })
      .encrypt(encKey);
  }
  const jws = await new GeneralSign(bytes).addSignature(signKey).setProtectedHeader({ alg: 'RS256' }).sign();
  return new GeneralEncrypt(encoder.encode(JSON.stringify(jws)))
    .setProtectedHeader({ alg: 'RSA-OAEP-256', enc })
    .addRecipient(encKey)
    .encrypt();
}
