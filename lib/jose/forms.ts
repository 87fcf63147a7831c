/** Which JOSE object a value is (JWE, JWS, other JSON) and in which serialization. */
import { isObject, strictUtf8 } from './json.ts';
import type { JoseForm } from './types.ts';

export const COMPACT_JWE = /^[A-Za-z0-9_-]*(\.[A-Za-z0-9_-]*){4}$/;
export const COMPACT_JWS = /^[A-Za-z0-9_-]*(\.[A-Za-z0-9_-]*){2}$/;

export type JoseKind = 'jwe' | 'jws' | 'json' | 'not-json' | 'unknown';

/** what a value is (JWE, JWS, other JSON) and in which serialization */
export function classify(value: unknown): { kind: JoseKind; form: JoseForm } {
  if (value === undefined) return { kind: 'unknown', form: 'unknown' };
  if (value instanceof Uint8Array) {
    try {
      return classify(strictUtf8.decode(value));
    } catch {
      return { kind: 'not-json', form: 'not-json' };
    }
  }
  if (typeof value === 'string') {
    const t = value.trim();
    if (COMPACT_JWE.test(t)) return { kind: 'jwe', form: 'compact' };
    if (COMPACT_JWS.test(t)) return { kind: 'jws', form: 'compact' };
    try {
      return classify(JSON.parse(t) as unknown);
    } catch {
      return { kind: 'not-json', form: 'not-json' };
    }
  }
  if (!isObject(value)) return { kind: 'json', form: 'plain-json' };
  if ('recipients' in value) return { kind: 'jwe', form: 'general' };
  if ('ciphertext' in value || 'encrypted_key' in value || 'iv' in value || 'tag' in value)
    return { kind: 'jwe', form: 'flattened' };
  if ('signatures' in value) return { kind: 'jws', form: 'general' };
  if ('payload' in value && ('signature' in value || 'protected' in value)) return { kind: 'jws', form: 'flattened' };
  return { kind: 'json', form: 'plain-json' };
}

export function formOf(value: unknown): JoseForm {
  return classify(value).form;
}
