/**
 * Recognises a JOSE body (JWE/JWS, general/flattened JSON or compact) and keeps its decoded headers only
 * (lib/jose `inspect`: no keys used, embedded jwk reduced to kty/kid/alg), so that evidence shows what was
 * sent or received without the content.
 */
import { createHash, createPublicKey } from 'node:crypto';
import { classify, inspect, type JoseForm } from '../../jose/index.ts';
import { COMPACT_JWE, COMPACT_JWS } from '../../jose/forms.ts';
import { isObject } from '../../jose/json.ts';

/**
 * The fingerprint of a public key (PEM: SPKI, or a certificate), as a reviewer can recompute it:
 * "SHA-256 of the SPKI <hex>" = `openssl pkey -pubin -in key.pem -outform der | sha256sum`
 * (for a certificate: `openssl x509 -in cert.pem -pubkey -noout | openssl pkey -pubin -outform der | sha256sum`).
 */
export function keyFingerprint(pem: string): string {
  // a run asks for the same few keys' fingerprints once per recorded exchange: each is computed once
  let f = fingerprints.get(pem);
  if (f === undefined) {
    f = fingerprintOf(pem);
    if (fingerprints.size >= 64) fingerprints.clear();
    fingerprints.set(pem, f);
  }
  return f;
}
const fingerprints = new Map<string, string>();

function fingerprintOf(pem: string): string {
  try {
    const der = createPublicKey(pem).export({ type: 'spki', format: 'der' });
    return `SHA-256 of the SPKI ${createHash('sha256').update(der).digest('hex')}`;
  } catch {
    return 'a key that could not be read for its fingerprint';
  }
}

export interface JoseSummary {
  kind: 'JWE' | 'JWS';
  form: JoseForm;
  /** decoded protected + unprotected + per-recipient / per-signature headers */
  headers: Record<string, unknown>[];
}

/**
 * `parsed`: the value JSON.parse gave for `text` when the caller has it (an answer's body, parsed once for its
 * reader: lib/http/client.ts), so that the text is not parsed again here
 */
export function summariseJose(text: string, parsed?: unknown): JoseSummary | undefined {
  // a JSON body is parsed once here, then classified and inspected as a value (each would parse the text again:
  // a sealed body of a few kB three times per recorded exchange)
  if (isObject(parsed)) return summariseValue(parsed, false);
  const t = text.trim();
  const compact = COMPACT_JWE.test(t) || COMPACT_JWS.test(t);
  let value: unknown = t;
  if (!compact) {
    try {
      value = JSON.parse(t) as unknown;
    } catch {
      return undefined;
    }
    // a JSON string, number, array…: not an envelope (a JSON string holding a compact one is shown as text)
    if (!isObject(value)) return undefined;
  }
  return summariseValue(value, compact);
}

/** the summary of a compact envelope's text, or of a parsed JSON object (`compact` false) */
function summariseValue(value: unknown, compact: boolean): JoseSummary | undefined {
  const { kind, form } = classify(value);
  if (kind !== 'jwe' && kind !== 'jws') return undefined;
  if (!compact) {
    // classify calls any object with an `iv` or `tag` member a JWE; an envelope without its content is shown
    // as plain (redacted) JSON instead, which is the more useful evidence
    const rec = value as Record<string, unknown>;
    if (kind === 'jwe' && typeof rec.ciphertext !== 'string') return undefined;
    if (kind === 'jws' && !('payload' in rec)) return undefined;
  }
  const { headers } = inspect(value);
  // a dotted plain-text body (e.g. "v1.2.3") is not a compact JWS unless its first part is a JSON header
  if (form === 'compact' && headers.length === 0) return undefined;
  return { kind: kind === 'jwe' ? 'JWE' : 'JWS', form, headers };
}
