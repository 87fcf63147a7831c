/**
 * open(): parse (open-parse.ts) → policy (policy.ts) → crypto (here), for each layer: the JWE, then the JWS
 * inside it. jose does the cryptography with the algorithms and keys pinned (a KeyObject, never a resolver:
 * header keys are never used); the one canonical layer shape first goes through a node:crypto fast path
 * (open-fast.ts) that only accepts what jose accepts, every refusal being jose's. Every layer is checked explicitly
 * BEFORE any crypto and the step that refused is named. The request policy (default) is the bank's strict one; the response policy asks what JOSE-11 asks.
 */
import type { KeyObject } from 'node:crypto';
import { flattenedDecrypt, flattenedVerify } from 'jose';
import { errText, parseJson, sanitizeHeader, strictUtf8, type Json } from './json.ts';
import { privateKeyFromPem, publicKeyFromPem } from './keys.ts';
import {
  envelopeText,
  jweHeaderOf,
  jweRecipients,
  jwsHeaderOf,
  jwsSignatures,
  parseJwe,
  parseJws,
  type OpenState,
} from './open-parse.ts';
import {
  checkJweHeader,
  checkJwsHeader,
  MAX_DECOMPRESSED_BYTES,
  OpenRefusal,
  policyOf,
  refuse,
  type OpenPolicy,
} from './policy.ts';
import { JWE_ALG, JWE_ENC, JWS_ALG, type OpenOptions, type OpenResult } from './types.ts';
import { decryptCanonical, verifyCanonical } from './open-fast.ts';

/** header parameters that name or carry a key: never used, never fetched (the pinned key is always used) */
export const KEY_HEADER_PARAMS = ['jwk', 'jku', 'x5u', 'x5c', 'x5t', 'x5t#S256'] as const;

export async function open(envelope: unknown, opts: OpenOptions & { maxBytes?: number }): Promise<OpenResult> {
  const st: OpenState = {};
  try {
    return await openSteps(envelope, opts, st);
  } catch (e) {
    if (e instanceof OpenRefusal) return { ok: false, step: e.step, code: e.code, reason: e.message, ...st };
    // open() never throws for bad input; a throw here is a bad key/option (our side), still reported as a failure
    return { ok: false, step: 'parse', code: 'INTERNAL', reason: `unexpected error: ${errText(e)}`, ...st };
  }
}

async function openSteps(
  envelope: unknown,
  opts: OpenOptions & { maxBytes?: number },
  st: OpenState,
): Promise<OpenResult> {
  const keys = importKeys(opts);
  const p = policyOf(opts);
  const outer = parseJwe(envelopeText(envelope, p), p, st);
  const dec = await decryptAny(jweRecipients(outer.jwe, outer.form, p), keys.decryption, p, st);
  const inner = parseJws(dec.plaintext, p, st);
  if (opts.keepInner) st.jws = inner.jws;
  const ver = await verifyAny(jwsSignatures(inner.jws, inner.form, p), keys.verification, p, st);
  return {
    ok: true,
    payload: parsePayload(ver.payload, p),
    jweForm: outer.form,
    jwsForm: inner.form,
    jweHeader: sanitizeHeader(dec.header),
    jwsHeader: sanitizeHeader(ver.header),
    ignoredHeaderKeys: [...presentKeyParams(dec.header, 'jwe'), ...presentKeyParams(ver.header, 'jws')],
    ...(st.jws && { jws: st.jws }),
  };
}

/** our own keys first: a bad key is a configuration error, not the envelope's fault */
function importKeys(opts: OpenOptions): { decryption: KeyObject; verification: KeyObject } {
  let decryption: KeyObject;
  try {
    decryption = privateKeyFromPem(opts.decryptionKey);
  } catch (e) {
    return refuse('decrypt', 'KEY_INVALID', `the decryption key does not import: ${errText(e)}`);
  }
  try {
    return { decryption, verification: publicKeyFromPem(opts.verificationKey) };
  } catch (e) {
    return refuse('verify', 'KEY_INVALID', `the verification key does not import: ${errText(e)}`);
  }
}

/** the first candidate that passes; when none does, the first one's refusal */
async function firstThatPasses<T>(candidates: Json[], attempt: (c: Json) => Promise<T>): Promise<T> {
  let first: unknown;
  for (const c of candidates) {
    try {
      return await attempt(c);
    } catch (e) {
      if (!(e instanceof OpenRefusal)) throw e;
      first ??= e;
    }
  }
  throw first;
}

/** policy, then decryption with the pinned key and algorithms; several recipients: the first that opens */
function decryptAny(
  recipients: Json[],
  key: KeyObject,
  p: OpenPolicy,
  st: OpenState,
): Promise<{ plaintext: Uint8Array; header: Json }> {
  return firstThatPasses(recipients, async (members) => {
    const header = jweHeaderOf(members, p, st);
    checkJweHeader(header, p);
    try {
      // the canonical layer through node:crypto (open-fast.ts); anything else, and any failure there, is jose's
      const fast = await decryptCanonical(members, key);
      if (fast) return { plaintext: fast, header };
      const out = await flattenedDecrypt(members as unknown as Parameters<typeof flattenedDecrypt>[0], key, {
        keyManagementAlgorithms: [JWE_ALG],
        contentEncryptionAlgorithms: [JWE_ENC],
        maxDecompressedLength: p.zip ? MAX_DECOMPRESSED_BYTES : 0,
      });
      return { plaintext: out.plaintext, header };
    } catch (e) {
      if ('crit' in header && (e as { code?: unknown }).code === 'ERR_JOSE_NOT_SUPPORTED')
        return refuse(
          'jwe-header',
          'CRIT_UNSUPPORTED',
          `JWE crit: an extension jose does not understand (${errText(e)})`,
        );
      return refuse('decrypt', 'DECRYPT_FAILED', `decryption failed (${errText(e)})`);
    }
  });
}

/** policy, then verification with the pinned key only; several signatures: one must verify */
function verifyAny(
  signatures: Json[],
  key: KeyObject,
  p: OpenPolicy,
  st: OpenState,
): Promise<{ payload: Uint8Array; header: Json }> {
  return firstThatPasses(signatures, async (members) => {
    const header = jwsHeaderOf(members, p, st);
    checkJwsHeader(header, p);
    try {
      const fast = verifyCanonical(members, key);
      if (fast) return { payload: fast, header };
      const out = await flattenedVerify(members as unknown as Parameters<typeof flattenedVerify>[0], key, {
        algorithms: [JWS_ALG],
      });
      return { payload: out.payload, header };
    } catch (e) {
      if ('crit' in header && (e as { code?: unknown }).code === 'ERR_JOSE_NOT_SUPPORTED')
        return refuse(
          'jws-header',
          'CRIT_UNSUPPORTED',
          `JWS crit: an extension jose does not understand (${errText(e)})`,
        );
      return refuse('verify', 'SIGNATURE_INVALID', `signature does not verify with the pinned key (${errText(e)})`);
    }
  });
}

function parsePayload(bytes: Uint8Array, p: OpenPolicy): unknown {
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    return refuse('payload', 'PAYLOAD_NOT_JSON', 'payload is not UTF-8 text');
  }
  const payload = parseJson(text, p.duplicates);
  if (!payload.ok)
    refuse('payload', payload.code === 'NOT_JSON' ? 'PAYLOAD_NOT_JSON' : payload.code, `payload: ${payload.reason}`);
  return (payload as { value: unknown }).value;
}

function presentKeyParams(header: Json, prefix: string): string[] {
  return KEY_HEADER_PARAMS.filter((k) => Object.hasOwn(header, k)).map((k) => `${prefix}.${k}`);
}
