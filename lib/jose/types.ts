/**
 * Sealed payloads (specification §5.4, contract "Sealed payloads"): JWE JSON serialization (general form) around a
 * JWS JSON serialization (general form) of the JSON document. JWS RS256; JWE RSA-OAEP-256 + A256CBC-HS512.
 */
export const JWS_ALG = 'RS256';
export const JWE_ALG = 'RSA-OAEP-256';
export const JWE_ENC = 'A256CBC-HS512';

export interface GeneralJws {
  payload: string;
  signatures: { protected?: string; header?: Record<string, unknown>; signature: string }[];
}
export interface GeneralJwe {
  protected?: string;
  unprotected?: Record<string, unknown>;
  recipients: { header?: Record<string, unknown>; encrypted_key?: string }[];
  aad?: string;
  iv: string;
  ciphertext: string;
  tag: string;
}

export interface SealOptions {
  /** PEM PKCS#8 private key that signs (RS256) */
  signingKey: string;
  /** PEM SPKI public key or certificate to encrypt to */
  encryptionKey: string;
  /** optional kid values put in the protected headers */
  signingKid?: string;
  encryptionKid?: string;
  /** optional cty put in the JWE protected header (omitted by default: headers stay minimal) */
  cty?: string;
}
export interface OpenOptions {
  /** PEM PKCS#8 private key to decrypt with */
  decryptionKey: string;
  /** PEM SPKI public key or certificate the signature must verify with (pinned; header keys never trusted) */
  verificationKey: string;
  /** accept the flattened JSON forms too (diagnosis of a target); the mock leaves this false */
  allowFlattened?: boolean;
  /**
   * `request` (default): the bank's strict policy (duplicates, zip, crit, several recipients/signatures
   * refused, 1 MiB); `response`: what JOSE-11 demands only (RFC defaults elsewhere, no size limit)
   */
  policy?: 'request' | 'response';
  /** put the inner JWS, as parsed from the plaintext, in the result (`jws`): a reviewer's view of its members */
  keepInner?: boolean;
}

/** which serialization was seen */
export type JoseForm = 'general' | 'flattened' | 'compact' | 'plain-json' | 'not-json' | 'unknown';

export type OpenStep =
  'size' | 'parse' | 'jwe-structure' | 'jwe-header' | 'decrypt' | 'jws-structure' | 'jws-header' | 'verify' | 'payload';

export interface OpenSuccess {
  ok: true;
  payload: unknown;
  jweForm: JoseForm;
  jwsForm: JoseForm;
  /** decoded JWE protected+unprotected+recipient header, then JWS protected+unprotected header */
  jweHeader: Record<string, unknown>;
  jwsHeader: Record<string, unknown>;
  /** key-bearing header parameters that were present and ignored (never used, never fetched), e.g. "jws.jku", "jwe.jwk" */
  ignoredHeaderKeys: string[];
  /** the inner JWS as parsed (only with `keepInner`) */
  jws?: Record<string, unknown>;
}
/**
 * Why open() refused an envelope: a stable code beside the step (OpenFailure.code, OpenRefusal.code). Every code
 * is produced by lib/jose (test/architecture/errors.test.ts keeps the list and the sources in step).
 *
 *   TOO_LARGE            size               the envelope is over the request policy's size limit
 *   NOT_JSON             parse              the envelope is not UTF-8 JSON
 *   DUPLICATE_MEMBER     any                a member name repeats in a JSON object (the request policy refuses them)
 *   COMPACT_FORM         jwe/jws-structure  a compact serialization; the general JSON serialization is required
 *   FLATTENED_FORM       jwe/jws-structure  the flattened JSON form where the general one is required
 *   NOT_ENCRYPTED        jwe-structure      a JWS where a JWE is expected
 *   NOT_SEALED           jwe-structure      plain JSON with no JWE members
 *   JWE_MALFORMED        jwe-structure      JWE members missing, of the wrong type, or mixed forms
 *   MULTIPLE_RECIPIENTS  jwe-structure      not exactly one recipient (the request policy)
 *   JWE_HEADER_INVALID   jwe-header         the JWE protected header is not base64url JSON object text
 *   HEADER_NOT_DISJOINT  jwe/jws-header     a header parameter in more than one header part
 *   JWE_ALG_NOT_ALLOWED  jwe-header         JWE alg other than RSA-OAEP-256
 *   JWE_ENC_NOT_ALLOWED  jwe-header         JWE enc other than A256CBC-HS512
 *   JWE_ZIP_NOT_ALLOWED  jwe-header         JWE zip under the request policy
 *   CRIT_UNSUPPORTED     jwe/jws-header     a crit extension (any, under the request policy; one jose does not know)
 *   KEY_INVALID          decrypt/verify     the pinned decryption or verification key does not import
 *   DECRYPT_FAILED       decrypt            the JWE does not decrypt with the pinned key
 *   NOT_SIGNED           jws-structure      the plaintext is not a JWS (not text, not JSON, plain JSON, another JWE)
 *   JWS_MALFORMED        jws-structure      JWS members missing, of the wrong type, or mixed forms
 *   MULTIPLE_SIGNATURES  jws-structure      not exactly one signature (the request policy)
 *   JWS_HEADER_INVALID   jws-header         the JWS protected header is not base64url JSON object text
 *   JWS_ALG_NOT_ALLOWED  jws-header         JWS alg other than RS256
 *   JWS_B64_NOT_ALLOWED  jws-header         JWS b64 other than true (unencoded payload) under the request policy
 *   SIGNATURE_INVALID    verify             the signature does not verify with the pinned key
 *   PAYLOAD_NOT_JSON     payload            the signed payload is not UTF-8 JSON
 *   INTERNAL             parse              an unexpected error in the opener: a harness defect, not the target's
 */
export const OPEN_FAILURE_CODES = [
  'TOO_LARGE',
  'NOT_JSON',
  'DUPLICATE_MEMBER',
  'COMPACT_FORM',
  'FLATTENED_FORM',
  'NOT_ENCRYPTED',
  'NOT_SEALED',
  'JWE_MALFORMED',
  'MULTIPLE_RECIPIENTS',
  'JWE_HEADER_INVALID',
  'HEADER_NOT_DISJOINT',
  'JWE_ALG_NOT_ALLOWED',
  'JWE_ENC_NOT_ALLOWED',
  'JWE_ZIP_NOT_ALLOWED',
  'CRIT_UNSUPPORTED',
  'KEY_INVALID',
  'DECRYPT_FAILED',
  'NOT_SIGNED',
  'JWS_MALFORMED',
  'MULTIPLE_SIGNATURES',
  'JWS_HEADER_INVALID',
  'JWS_ALG_NOT_ALLOWED',
  'JWS_B64_NOT_ALLOWED',
  'SIGNATURE_INVALID',
  'PAYLOAD_NOT_JSON',
  'INTERNAL',
] as const;
export type OpenFailureCode = (typeof OPEN_FAILURE_CODES)[number];

export interface OpenFailure {
  ok: false;
  /** the step that failed */
  step: OpenStep;
  /** why (OPEN_FAILURE_CODES) */
  code: OpenFailureCode;
  reason: string;
  jweForm?: JoseForm;
  jwsForm?: JoseForm;
  jweHeader?: Record<string, unknown>;
  jwsHeader?: Record<string, unknown>;
  /** the inner JWS as parsed, when decryption got that far (only with `keepInner`) */
  jws?: Record<string, unknown>;
}
export type OpenResult = OpenSuccess | OpenFailure;
