/**
 * Sealed payloads: JWS (general JSON, RS256) inside JWE (general JSON, RSA-OAEP-256 + A256CBC-HS512).
 *
 * seal() in seal.ts; open() in open.ts (parse: open-parse.ts → policy: policy.ts → crypto), with a request policy
 * (strict) and a response policy (what JOSE-11 demands); inspect() (inspect.ts) shows the visible headers
 * without a key.
 */
export * from './types.ts';
export { classify, formOf, type JoseKind } from './forms.ts';
export { findDuplicateMember, parseStrictJson, sanitizeHeader } from './json.ts';
export { privateKeyFromPem, publicKeyFromPem } from './keys.ts';
export { KEY_HEADER_PARAMS, open } from './open.ts';
export { DEFAULT_MAX_BYTES } from './policy.ts';
export { seal } from './seal.ts';
export { inspect, type InspectResult } from './inspect.ts';
