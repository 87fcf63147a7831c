/**
 * Sealed payloads: JWS (general JSON, RS256) inside JWE (general JSON, RSA-OAEP-256 + A256CBC-HS512).
 *
 * seal() here; open() in open.ts (parse: open-parse.ts → policy: policy.ts → crypto), with a request policy
 * (strict) and a response policy (what JOSE-11 demands); inspect() shows the visible headers without a key.
 */
import { base64url } from 'jose';
import { classify } from './forms.ts';
import { decodeProtected, isObject, sanitizeHeader, strictUtf8, type Json } from './json.ts';
import type { JoseForm } from './types.ts';

export * from './types.ts';
export { classify, formOf, type JoseKind } from './forms.ts';
export { findDuplicateMember, parseStrictJson, sanitizeHeader } from './json.ts';
export { privateKeyFromPem, publicKeyFromPem } from './keys.ts';
export { KEY_HEADER_PARAMS, open } from './open.ts';
export { DEFAULT_MAX_BYTES } from './policy.ts';
export { seal } from './seal.ts';

// ---------------------------------------------------------------------------------------------------------
// inspect: visible headers, no key needed

function tryProtected(b64: unknown): Json | undefined {
  if (typeof b64 !== 'string') return undefined;
  const d = decodeProtected(b64);
  if (d.ok) return d.header;
  // duplicate members: show what JSON.parse (and so jose) would see, flagged
  try {
    const v: unknown = JSON.parse(strictUtf8.decode(base64url.decode(b64)));
    return isObject(v) ? { ...v, '(duplicate members)': true } : undefined;
  } catch {
    return undefined;
  }
}

export interface InspectResult {
  jweForm: JoseForm;
  jwsForm?: JoseForm;
  headers: Record<string, unknown>[];
}

export function inspect(envelope: unknown): InspectResult {
  let value: unknown = envelope;
  if (envelope instanceof Uint8Array) {
    try {
      value = strictUtf8.decode(envelope);
    } catch {
      return { jweForm: 'not-json', headers: [] };
    }
  }
  const { kind, form } = classify(value);
  const headers: Json[] = [];
  const push = (h: unknown): void => {
    if (isObject(h)) headers.push(sanitizeHeader(h));
  };
  if (typeof value === 'string') {
    const t = value.trim();
    if (form === 'compact') push(tryProtected(t.split('.')[0]));
    else {
      try {
        value = JSON.parse(t) as unknown;
      } catch {
        /* not-json: nothing to show */
      }
    }
  }
  if (form !== 'compact' && isObject(value)) {
    if (kind === 'jwe') {
      push(tryProtected(value.protected));
      push(value.unprotected);
      if (Array.isArray(value.recipients)) for (const r of value.recipients) if (isObject(r)) push(r.header);
      push(value.header);
    } else if (kind === 'jws') {
      const sigs = Array.isArray(value.signatures) ? value.signatures : [value];
      for (const s of sigs) {
        if (!isObject(s)) continue;
        push(tryProtected(s.protected));
        push(s.header);
      }
    }
  }
  if (kind === 'jwe') return { jweForm: form, headers };
  if (kind === 'jws') return { jweForm: 'plain-json', jwsForm: form, headers };
  return { jweForm: form, headers };
}
