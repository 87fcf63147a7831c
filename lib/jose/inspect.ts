/** inspect(): the visible headers of an envelope (JWE or JWS, any serialization), no key needed; sanitized. */
import { base64url } from 'jose';
import { classify, COMPACT_JWE, COMPACT_JWS } from './forms.ts';
import { decodeProtected, isObject, sanitizeHeader, strictUtf8, type Json } from './json.ts';
import type { JoseForm } from './types.ts';

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
  // a JSON text is parsed once here, then classified as a value (classify would parse it again)
  let compact: string | undefined;
  if (typeof value === 'string') {
    const t = value.trim();
    if (COMPACT_JWE.test(t) || COMPACT_JWS.test(t)) compact = t;
    else {
      try {
        value = JSON.parse(t) as unknown;
      } catch {
        return { jweForm: 'not-json', headers: [] };
      }
    }
  }
  const { kind, form } = classify(compact ?? value);
  const headers: Json[] = [];
  const push = (h: unknown): void => {
    if (isObject(h)) headers.push(sanitizeHeader(h));
  };
  if (compact !== undefined) push(tryProtected(compact.split('.')[0]));
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
