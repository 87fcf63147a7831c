/**
 * What catches each mock fault (lib/mock/faults.ts), and why: per fault, the checks that must fail (a MUST) or warn
 * (a SHOULD) under it, each with a fragment of the failure reason that names the fault's cause. The fault matrix
 * (matrix.ts) passes a fault's case only when every check named here caught it with a reason holding the fragment
 * (judge.ts); a check of the fault's ids that caught it otherwise is listed in .tmp/fault-coverage.md ("Caught for
 * another reason"). Kept here, not in the mock: the mock does not know the suites' check names.
 *
 * A fault without an entry fails the matrix: add one (check + reason fragment) when you add a fault. Choose a fragment
 * from the reason the check gives under the fault (the matrix prints it) that says what the fault does, not a word
 * any failure of the check would hold; for a property check, words of the input class it reports (the classes run
 * in a fixed order before random inputs), never the generated values or counts.
 */
import type { Environment } from '../../lib/profile/schema.ts';

export interface Expectation {
  /** check id (`<suite>.<name>`) */
  check: string;
  /** a fragment of the check's failure reason under the fault (case-sensitive) */
  reason: string;
  /** only in this mode (the reason differs between modes); absent: in every mode the fault has */
  env?: Environment;
}

const c = (check: string, reason: string, env?: Environment): Expectation =>
  env ? { check, reason, env } : { check, reason };

/** the checks that catch each fault, and a fragment of their reason */
export const EXPECTED: Readonly<Record<string, readonly Expectation[]>> = {
  // JOSE: request opening (UAT)
  'jose-accept-plain': [c('jose.sealed-structure', 'S1 plain JSON document, not sealed (HTTP 200, accepted)')],
  'jose-accept-any-jws-alg': [
    c('jose.jws-alg-rs256-only', 'A1 JWS alg "none" with an empty signature (HTTP 200, accepted)'),
  ],
  'jose-accept-any-key-alg': [c('jose.jwe-alg-rsa-oaep-256-only', 'E5 JWE alg RSA1_5 (HTTP 200, accepted)')],
  'jose-accept-any-enc': [
    c('jose.jwe-enc-a256cbc-hs512-only', 'E1 JWE enc A128GCM (naive accepts) (HTTP 200, accepted)'),
  ],
  'jose-accept-flattened': [
    c('jose.general-serialization-only', 'S3 flattened JWE JSON serialization (HTTP 200, accepted)'),
  ],
  'jose-skip-signature-key-pin': [
    c('jose.signature-key-pinned', 'A5 JWS RS256 by an attacker key (HTTP 200, accepted)'),
    // the property names the rule the accepted mutation breaks: a JWS member's (JOSE-06)
    c('jose.tampered-envelopes-property', '(JOSE-06)'),
  ],
  'jose-decrypt-any-known-key': [
    c('jose.encryption-key-pinned', "E7 JWE encrypted to the bank's TLS server certificate key (HTTP 200, accepted)"),
  ],
  'jose-accept-tampered': [
    c('jose.tampering-refused', 'T4 one bit of the authentication tag flipped (HTTP 200, accepted)'),
    c('jose.tampered-envelopes-property', '(JOSE-08)'),
  ],
  'jose-accept-unsigned': [c('jose.signed-and-encrypted', 'S6 JWE around the plain document (encrypted, not signed)')],
  'jose-accept-unencrypted': [c('jose.signed-and-encrypted', 'S8 compact JWS, not encrypted (HTTP 200, accepted)')],
  'jose-trust-header-jwk': [
    c('jose.header-keys-untrusted', 'H1 attacker-signed JWS with the attacker key as an embedded jwk'),
  ],
  'jose-fetch-jku': [c('jose.header-key-urls-not-fetched', 'H2 attacker-signed JWS with a jku pointing at a canary')],
  'jose-accept-unknown-crit': [c('jose.header-keys-untrusted', 'H6 JWS protected header crit ["exp"]')],
  'response-unsealed': [c('jose.responses-sealed', 'the response is not a JOSE envelope')],
  'response-wrong-enc': [c('jose.responses-sealed', 'JWE_ENC_NOT_ALLOWED JWE enc "A128CBC-HS256"')],
  'response-signed-wrong-key': [c('jose.responses-sealed', 'signature does not verify with the pinned key')],
  'response-flattened': [c('jose.responses-sealed', 'JWE serialization: expected general, observed flattened')],
  'cc-token-accept-plain': [c('jose.cc-token-sealed', 'the unsealed token request was accepted')],
  'cc-token-response-unsealed': [
    c('jose.cc-token-sealed', 'client-credentials token response: the response is not a JOSE envelope'),
  ],
  'token-response-sealed': [c('jose.sign-in-token-plain', 'the token response carries the JOSE member "ciphertext"')],
  'jose-side-effect-on-refusal': [
    c('jose.refusal-no-side-effect', 'the refused PUT created the transfer: GET of its id answers 200'),
    c('jose.tampered-envelopes-property', 'the refused PUT created the transfer'),
  ],
  'jose-duplicates-first-wins': [
    c('jose.jws-alg-rs256-only', 'A12 JWS protected header {"alg":"RS256","alg":"RS512"}'),
    c('jose.jwe-alg-rsa-oaep-256-only', 'E15 JWE protected header with alg twice'),
    c('jose.jwe-enc-a256cbc-hs512-only', 'E16 JWE protected header with enc twice'),
    c('jose.tampering-refused', 'T5 duplicate "ciphertext" member'),
  ],
  'jose-accept-duplicates': [c('jose.duplicate-members-refused', 'S11 duplicate "ciphertext" member in the JWE JSON')],
  'jose-accept-zip': [c('jose.zip-refused', 'E12 JWE zip DEF (compressed plaintext) (HTTP 200, accepted)')],
  'jose-accept-several': [
    c('jose.one-recipient-one-signature', "S10 two signatures, the attacker's first, the client's second"),
  ],
  'jose-accept-second-spelling': [
    c(
      'jose.second-spelling-refused',
      "N2 one recipient, one signature: the JWE protected header written with '=' padding",
    ),
  ],
  'jose-accept-compact': [c('jose.general-serialization-only', 'S2 compact JWE serialization (HTTP 200, accepted)')],
  'jose-hs256-key-confusion': [
    c('jose.jws-alg-rs256-only', 'A2 JWS HS256 keyed with the client public key (key confusion) (HTTP 200, accepted)'),
  ],
  'jose-pbes2-unbounded': [c('jose.jwe-alg-rsa-oaep-256-only', 'E11 JWE header alg PBES2-HS512+A256KW with p2c 1e9')],
  'jose-fetch-x5u': [c('jose.header-key-urls-not-fetched', 'H3 attacker-signed JWS with an x5u pointing at a canary')],
  'jose-trust-header-x5c': [
    c('jose.header-keys-untrusted', 'H4 attacker-signed JWS with the attacker certificate in x5c'),
  ],
  'jose-tag-failure-500': [
    c('jose.tampering-refused', 'T4 one bit of the authentication tag flipped (HTTP 500)'),
    c('jose.tampered-envelopes-property', 'HTTP 500, not refused with HTTP 400'),
  ],
  // MASK
  'mask-any-mask-char': [
    c('masking.target-refuses-other-mask-characters', 'account_id masked with "X" (HTTP 200 (accepted))'),
    c('masking.near-miss-masks-refused-property', 'x written "'),
  ],
  'mask-length-not-kept': [
    c('masking.target-refuses-wrong-length-mask', 'account_id mask one x short (HTTP 200 (accepted))'),
    c('masking.near-miss-masks-refused-property', '(one x more)'),
  ],
  'accept-unmasked-id': [
    c('masking.unmasked-identifier-refused', 'account_id sent clear (HTTP 200 (accepted))'),
    c('masking.unmasked-emirates-id-refused', 'a clear emirates id was not refused'),
    c('masking.clear-identifiers-refused-property', 'sent clear: HTTP 200 (accepted)'),
  ],
  'mask-echo-clear-id': [c('masking.no-clear-identifier-returned', 'clear identifiers returned: validate')],
  'mask-echo-wrong-mask': [
    c(
      'masking.echoed-identifiers-follow-the-rule',
      'validate.account_id (the account id of customer "alice"): length 12, the id has 13',
    ),
  ],
  // TOK
  'token-missing-consented-on': [
    c('tokens.code-token-fields', 'consented_on is not a positive integer timestamp'),
    c('tokens.cc-token-fields', 'consented_on is not a positive integer timestamp'),
  ],
  'token-missing-expires-in': [
    c('tokens.code-token-fields', 'expires_in is not an integer'),
    c('tokens.cc-token-fields', 'expires_in is not an integer'),
  ],
  'cc-token-has-refresh': [
    c('tokens.cc-token-has-no-refresh', 'a client-credentials token response carries refresh_token'),
  ],
  'code-reusable': [
    c('tokens.code-single-use', 'second exchange of the same code: accepted'),
    c('tokens.code-reuse-revokes-tokens', 'the access token issued from a re-used code: expected HTTP 401'),
    c('race.concurrent-code-exchange', 'one authorization code exchanged 20 times at once issued'),
  ],
  'no-revoke-on-code-reuse': [
    c('tokens.code-reuse-revokes-tokens', 'the access token issued from a re-used code: expected HTTP 401'),
  ],
  'code-never-expires': [c('tokens.code-expires', 'exchange of a code 61 s old: accepted')],
  'access-never-expires': [c('tokens.access-token-expires', 'an access token 3601 s old: expected HTTP 401')],
  'no-www-authenticate': [
    c('tokens.missing-token-401', 'the 401 carries no WWW-Authenticate: Bearer challenge'),
    c('tokens.invalid-token-401', 'the 401 carries no WWW-Authenticate: Bearer challenge'),
    c('tokens.revoked-token-401', 'the 401 carries no WWW-Authenticate: Bearer challenge'),
  ],
  'scope-not-enforced': [c('tokens.scope-required', 'a token with scope "accounts" only: expected HTTP 403')],
  'refresh-not-rotated': [
    c('tokens.refresh-rotates', 'the refresh returned the same refresh token (not rotated)'),
    c('tokens.refresh-reuse-revokes-grant', 'second use of a rotated refresh token: accepted'),
    c('race.concurrent-refresh', 'one refresh token used 20 times at once issued'),
  ],
  'refresh-reuse-allowed': [
    c('tokens.refresh-reuse-revokes-grant', 'second use of a rotated refresh token: accepted'),
    c('race.concurrent-refresh', 'one refresh token used 20 times at once issued'),
  ],
  'refresh-idle-not-enforced': [c('tokens.refresh-idle-limit', 'idle days: accepted')],
  'refresh-max-age-not-enforced': [
    c('tokens.refresh-max-age', 'refresh on day 1096 of the grant (limit 1095 days): accepted'),
  ],
  'code-token-any-account': [
    c(
      'tokens.code-token-bound-to-account',
      "another customer's account and beneficiary: expected HTTP 403, observed 200",
    ),
  ],
  'cc-binding-ignored': [
    c('tokens.cc-token-bound-by-metadata', "another customer's identifier: expected HTTP 403, observed 200"),
  ],
  'token-wrong-secret-accepted': [
    // the unknown code's invalid_grant shows the wrong secret passed client authentication
    c(
      'tokens.code-endpoint-authenticates-client',
      'wrong client secret: expected HTTP 401, observed 400 (invalid_grant)',
    ),
    c('tokens.cc-endpoint-authenticates-client', 'wrong client secret: accepted'),
  ],
  'msgid-not-required': [
    c('tokens.uat-cc-token-request-headers', 'client-credentials request without MsgId: accepted'),
  ],
  'token-form-charset-refused': [
    c('tokens.sandbox-token-requests-form-basic', 'for the charset parameter of its Content-Type'),
  ],
  'authorize-redirects-unregistered': [
    c('tokens.authorize-error-not-redirected-unregistered', 'the error was redirected to an unregistered redirect_url'),
    c('tokens.authorize-code-to-registered-uri-with-state', 'the code was redirected to an unregistered redirect_url'),
  ],
  'authorize-response-type-optional': [
    c('tokens.authorize-requires-response-type-code', 'without response_type: accepted, a code was issued'),
  ],
  'authorize-uuid-optional': [
    c('tokens.authorize-uat-requires-customer', 'without uuid and account_id: accepted, a code was issued'),
  ],
  'state-not-returned': [c('tokens.authorize-code-to-registered-uri-with-state', 'state did not come back unchanged')],
  // ERR
  'error-extra-member': [
    c('errors.error-structure-422', '422 body: error body members differ'),
    c('errors.invalid-documents-property', '422 not in the error structure: the 422 body: error body members differ'),
  ],
  'error-status-number': [
    c('errors.error-structure-422', '422 body: status is not a string'),
    c('errors.invalid-documents-property', '422 not in the error structure: the 422 body: status is not a string'),
  ],
  'missing-property-not-named': [
    c('errors.missing-top-level-property', 'property: expected beneficiary_id, observed body'),
    c('errors.missing-nested-property', 'property: expected amount.value, observed body'),
    c('errors.invalid-documents-property', '422 names "body", expected'),
  ],
  'invalid-currency-accepted': [
    c('errors.unknown-currency-refused', 'validate with currency XYZ: expected HTTP 422, observed 200'),
    c('errors.invalid-documents-property', 'amount.currency "XYZ": accepted'),
  ],
  'nonpositive-amount-accepted': [
    c('errors.invalid-amount-refused', 'validate with amount 0.00: expected HTTP 422, observed 200'),
    c('errors.invalid-documents-property', 'amount.value "0'),
  ],
  'amount-zero-spellings-accepted': [c('errors.invalid-documents-property', 'amount.value "0.0": accepted (HTTP 200)')],
  'amount-negative-fraction-accepted': [
    c('errors.invalid-documents-property', 'amount.value "-0.01": accepted (HTTP 200)'),
  ],
  'amount-fraction-truncated': [
    c('errors.invalid-documents-property', 'the smallest amount): refused with HTTP 422 naming amount.value'),
  ],
  'remarks-emoji-500': [
    c('errors.invalid-documents-property', 'remarks non-ASCII'),
    c('transfers.create-stores-free-text', 'remarks non-ASCII: HTTP 500, a crash'),
  ],
  'remarks-longest-500': [
    c('errors.invalid-documents-property', 'remarks at its longest allowed length (140 characters)'),
    c('transfers.create-stores-free-text', 'remarks at its longest allowed length (140 characters): HTTP 500, a crash'),
  ],
  'quota-refusal-bare': [c('quota.per-operation-limit', 'the 429 answer carries no Retry-After header')],
  'quota-early-long-wait': [
    c('quota.per-operation-limit', 'validate was refused after 50 calls, before the quota of 100'),
  ],
  'malformed-json-503-traceback': [
    c('errors.errors-do-not-leak-internals', 'validate malformed JSON (400) HTTP 503, body: stack-trace'),
    c('errors.malformed-json-400', 'expected HTTP 400, observed 503'),
    c('errors.invalid-documents-property', 'the error answer leaks internals (stack-trace: Traceback'),
  ],
  'unknown-transfer-200': [
    c('errors.unknown-transfer-404', 'GET of an unknown transfer id: expected HTTP 404, observed 200'),
  ],
  'unknown-transfer-410': [
    c('errors.unknown-transfer-404', 'GET of an unknown transfer id: expected HTTP 404, observed 410'),
    c('openapi.status-documented', 'answered 410, a status the document does not list for it'),
  ],
  'get-text-plain': [c('openapi.content-type-documented', 'Content-Type text/plain is not one the document lists')],
  'get-member-renamed': [c('openapi.body-valid', "must have required property 'created_at'")],
  'method-not-allowed-404': [c('errors.method-not-allowed-405', 'expected HTTP 405, observed 404')],
  'malformed-json-500': [
    c('errors.malformed-json-400', 'validate with a malformed JSON body: expected HTTP 400, observed 500'),
    c('errors.invalid-documents-property', 'the JSON text cut after'),
  ],
  'error-leaks-stack': [
    c('errors.errors-do-not-leak-internals', 'stack-trace: at TransferService.handle'),
    c('errors.invalid-documents-property', 'the error answer leaks internals (stack-trace'),
  ],
  // XFER
  'validate-missing-debit-amount': [c('transfers.validate-pre-confirmation', 'debit_amount is missing')],
  'approvers-always': [c('transfers.approvers-only-with-workflow', 'a customer without a workflow gets approvers')],
  'create-no-reference': [c('transfers.create-returns-reference', 'no payment_reference_id in the create response')],
  'get-no-status': [c('transfers.get-details-and-status', 'status missing')],
  'put-not-idempotent': [c('transfers.repeat-put-same-body', 'payment_reference_id of the repeated PUT: expected')],
  'put-different-body-accepted': [
    c('transfers.repeat-put-different-body-refused', 'with a different body: expected HTTP 422, observed 200'),
  ],
  'read-only-honoured': [c('transfers.read-only-fields-ignored', 'payment_reference_id is the value the client sent')],
  bola: [c('transfers.transfer-invisible-to-other-customer', "GET with another customer's token answers HTTP 200")],
  'api-key-not-required': [
    c('transfers.api-key-required-validate', 'validate without X-Gateway-Client-Id: expected HTTP 401, observed 200'),
    c('transfers.api-key-required-create', 'create without X-Gateway-Client-Id: expected HTTP 401, observed 201'),
    c('transfers.api-key-required-get', 'get without X-Gateway-Client-Id: expected HTTP 401, observed 200'),
  ],
  // TLS (UAT)
  'tls-accept-tls1_1': [c('tls.tls10-tls11-refused', 'legacy protocol versions were accepted: TLSv1')],
  'mtls-optional': [
    c('tls.client-certificate-required', 'a call without a client certificate was answered'),
    c('openapi.security-held', 'answered 200 to a request without mtls (a client certificate)'),
  ],
  'no-request-id': [c('openapi.headers-documented', 'the header X-Request-Id the document requires is missing')],
  'openapi-example-invalid': [
    c('openapi.document-consistent', 'the example is not valid against its schema: /amount/value must be string'),
  ],
  'accept-weak-client-key': [c('tls.weak-client-key-refused', 'the weak1024 client certificate was not refused')],
  'accept-expired-client-cert': [
    c('tls.expired-client-certificate-refused', 'the expired client certificate was not refused'),
  ],
  'accept-untrusted-ca': [
    c('tls.untrusted-ca-client-certificate-refused', 'the untrustedCa client certificate was not refused'),
  ],
  'cert-not-bound-to-client': [
    c('tls.unregistered-client-certificate-refused', 'the unregistered client certificate was not refused'),
  ],
  'server-cert-weak-key': [c('tls.server-certificate-valid', 'the server certificate has a rsa key of 1536 bits')],
  'server-cert-wrong-host': [c('tls.server-certificate-valid', '(SANs DNS:bank.invalid)')],
  'server-cert-unknown-ca': [
    c('tls.server-certificate-valid', 'the server certificate does not chain to the configured CA'),
  ],
  'server-cert-expired': [c('tls.server-certificate-valid', 'the server certificate has expired')],
  'server-cert-not-yet-valid': [c('tls.server-certificate-valid', 'the server certificate is not yet valid')],
  'allow-list-off': [c('tls.source-address-allow-list', '(not allow-listed) was answered')],
  'tls-weak-ciphers': [c('tls.weak-cipher-suites-refused', 'weak TLS 1.2 cipher suites were accepted: aNULL')],
  // QUOTA
  'quota-off': [c('quota.per-operation-limit', 'validate was not refused after')],
  'quota-no-retry-after': [c('quota.per-operation-limit', 'the 429 answer carries no Retry-After header')],
  'quota-shared-window': [c('quota.operations-counted-apart', 'the operations share one counter')],
  'quota-window-reopens-late': [c('quota.window-reopens', 'is still refused 3601 s after the window opened')],
  'quota-refusal-side-effect': [
    c('quota.refused-call-no-side-effect', 'the create refused for the quota created the transfer'),
  ],
  // CONV
  'basepath-unversioned': [c('conventions.basepath-versioned', 'the transfers basepath has no version segment')],
  'empty-body-accepted': [
    c('conventions.empty-body-refused', 'POST validate without a body: expected HTTP 400 or 422, observed 200'),
  ],
  // hardening ids, and faults for checks no other fault made fail
  'body-size-unlimited': [c('conventions.oversize-body-413', ', not 413')],
  'server-software-headers': [
    c('conventions.no-software-headers', 'header server: nginx/1.25.3; validate: header x-powered-by: Express'),
  ],
  'code-token-no-refresh-expiry': [
    c('tokens.code-token-has-refresh', 'refresh_token_expires_in is not a positive integer'),
  ],
  'authorize-scope-optional': [
    c('tokens.authorize-requires-client-and-scope', 'without scope: accepted, a code was issued'),
  ],
  'pkce-verifier-not-checked': [
    c('tokens.pkce-verifier-required', 'exchange of a PKCE code without its code_verifier: accepted'),
  ],
  'put-other-customer-replaces': [
    c(
      'transfers.transfer-not-replaceable-by-other-customer',
      "the other customer's PUT answers the first customer's payment reference",
    ),
  ],
  'tls12-refused': [c('tls.tls12-accepted', 'a TLS 1.2 handshake was refused')],
  // races: the number of payments or tokens a burst makes depends on the scheduler, the reason before it does not
  'race-put-check-then-act': [
    c('race.concurrent-put-one-payment', 'different payment_reference_id values (more than one payment)'),
  ],
  'race-code-exchange': [
    c('race.concurrent-code-exchange', 'one authorization code exchanged 20 times at once issued'),
  ],
  'race-refresh': [c('race.concurrent-refresh', 'one refresh token used 20 times at once issued')],
  'race-quota': [c('race.concurrent-calls-past-quota', 'concurrent calls with 10 left of the quota of 100')],
  // the property checks: the fixed-input checks miss these
  'mask-last-three-only': [c('masking.near-miss-masks-refused-property', 'kept head character')],
  'jose-tag-unchecked-other-recipient': [
    c('jose.one-recipient-one-signature', 'S9 two recipients (the content key also wrapped for a third party)'),
    c('jose.tampered-envelopes-property', "for two recipients (the attacker's first, the bank's second)"),
  ],
  'amount-string-500': [c('errors.invalid-documents-property', 'amount as a string ("150.00"): HTTP 500, a crash')],
  'amount-number-accepted': [c('errors.invalid-documents-property', 'amount.value as a number (')],
  'free-text-length-unchecked': [
    c('errors.document-inputs-property', 'maxLength, which the document says is invalid: accepted'),
  ],
  'remarks-short-limit': [
    c(
      'errors.document-inputs-property',
      'remarks at its maxLength (140), which the document says is valid: HTTP 422 naming remarks',
    ),
  ],
  // judge precision: an OpenAPI format's range
  'get-int32-overflow': [c('openapi.body-valid', '/revision must match format "int32"')],
  // free text crashed on only where it is stored (create), never on validate
  'remarks-create-500': [
    c('transfers.create-stores-free-text', 'remarks at its longest allowed length (140 characters): HTTP 500, a crash'),
  ],
};
