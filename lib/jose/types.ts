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
export interface OpenFailure {
  ok: false;
  /** the step that failed */
  step: OpenStep;
  /** stable code, e.g. JWE_ALG_NOT_ALLOWED, JWS_SIGNATURE_INVALID, FLATTENED_FORM, NOT_SEALED, HEADER_KEY_UNTRUSTED, CRIT_UNSUPPORTED */
  code: string;
  reason: string;
  jweForm?: JoseForm;
  jwsForm?: JoseForm;
  jweHeader?: Record<string, unknown>;
  jwsHeader?: Record<string, unknown>;
  /** the inner JWS as parsed, when decryption got that far (only with `keepInner`) */
  jws?: Record<string, unknown>;
}
export type OpenResult = OpenSuccess | OpenFailure;
