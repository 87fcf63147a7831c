/**
 * What can be read of an envelope without a key, for `npm run jose -- open`: its layers' members, every protected
 * header decoded and every unprotected one, the sizes of the encrypted members. Display only (headers through
 * lib/jose's sanitizeHeader: an embedded jwk shows kty/kid/alg only); the opening is lib/jose's open().
 */
import { findDuplicateMember, formOf, sanitizeHeader } from '../jose/index.ts';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function bytesOf(b64: unknown): string {
  if (typeof b64 !== 'string') return 'absent';
  if (!/^[A-Za-z0-9_-]*$/.test(b64)) return `${b64.length} characters, not base64url`;
  return `${Buffer.from(b64, 'base64url').length} bytes`;
}

/** a protected header member decoded: its JSON (sanitized), a duplicate member named */
export function protectedText(b64: unknown): string {
  if (b64 === undefined) return '(none)';
  if (typeof b64 !== 'string') return `not a string: ${JSON.stringify(b64)}`;
  const text = Buffer.from(b64, 'base64url').toString('utf8');
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return `not JSON once decoded (${bytesOf(b64)})`;
  }
  if (!isObject(v)) return `not a JSON object: ${JSON.stringify(v)}`;
  const dup = findDuplicateMember(text);
  return `${JSON.stringify(sanitizeHeader(v))}${dup ? ` (duplicate member "${dup}": parsers differ on which value wins)` : ''}`;
}

const plainHeader = (h: unknown): string =>
  h === undefined ? '(none)' : isObject(h) ? JSON.stringify(sanitizeHeader(h)) : `not an object: ${JSON.stringify(h)}`;

/** the JWE's lines: form, headers, recipients, sizes */
export function jweLines(value: unknown): string[] {
  const form = formOf(value);
  if (typeof value === 'string') {
    const [p, k, iv, c, t] = value.trim().split('.');
    return [
      `JWE (compact serialization)`,
      `  protected header: ${protectedText(p)}`,
      `  encrypted_key ${bytesOf(k)}, iv ${bytesOf(iv)}, ciphertext ${bytesOf(c)}, tag ${bytesOf(t)}`,
    ];
  }
  if (!isObject(value)) return [`not a JWE (${form})`];
  const out = [
    `JWE (${form} JSON serialization)`,
    `  protected header: ${protectedText(value.protected)}`,
    `  unprotected header: ${plainHeader(value.unprotected)}`,
  ];
  const recipients = Array.isArray(value.recipients) ? (value.recipients as unknown[]) : [value];
  recipients.forEach((r, i) => {
    const rr = isObject(r) ? r : {};
    out.push(`  recipient ${i + 1}: header ${plainHeader(rr.header)}; encrypted_key ${bytesOf(rr.encrypted_key)}`);
  });
  out.push(
    `  iv ${bytesOf(value.iv)}, ciphertext ${bytesOf(value.ciphertext)}, tag ${bytesOf(value.tag)}${value.aad === undefined ? '' : `, aad ${bytesOf(value.aad)}`}`,
  );
  return out;
}

/** the inner JWS's lines (as open() parsed it from the plaintext) */
export function jwsLines(jws: Json | undefined, form: string | undefined): string[] {
  if (!jws) return [`JWS inside: ${form ? `${form} (not readable as a JWS)` : 'not reached (the JWE did not open)'}`];
  const out = [`JWS inside (${form ?? formOf(jws)} JSON serialization), payload ${bytesOf(jws.payload)}`];
  const sigs = Array.isArray(jws.signatures) ? (jws.signatures as unknown[]) : [jws];
  sigs.forEach((s, i) => {
    const ss = isObject(s) ? s : {};
    out.push(
      `  signature ${i + 1}: protected header ${protectedText(ss.protected)}; unprotected header ${plainHeader(ss.header)}; signature ${bytesOf(ss.signature)}`,
    );
  });
  return out;
}

/** the encrypted_key of each recipient (base64url), for the key diagnosis */
export function encryptedKeys(value: unknown): string[] {
  if (typeof value === 'string') return [value.trim().split('.')[1] ?? ''];
  if (!isObject(value)) return [];
  const recipients = Array.isArray(value.recipients) ? (value.recipients as unknown[]) : [value];
  return recipients.map((r) => (isObject(r) && typeof r.encrypted_key === 'string' ? r.encrypted_key : ''));
}
