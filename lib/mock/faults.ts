/**
 * The mock's fault catalogue. Each fault breaks exactly one rule of the contract, so that the check for that
 * rule can be shown to fail (and nothing else changes). `requirements` lists the ids whose checks must then
 * fail; `environments` the modes in which the fault has an effect (where the requirement applies). The checks that
 * must catch each fault, and a fragment of their reason, are the fault matrix's (test/matrix/expected.ts): add an
 * entry there with each new fault. The set of faults a mock has switched on is fault-set.ts's.
 */
import type { Environment } from '../profile/schema.ts';
import type { FaultDefinition } from './types.ts';

const U: Environment[] = ['uat'];
const S: Environment[] = ['sandbox'];
const ALL: Environment[] = ['sandbox', 'uat'];

function f(id: string, requirements: string[], environments: Environment[], description: string): FaultDefinition {
  return { id, requirements, environments, description };
}

export const FAULTS: readonly FaultDefinition[] = Object.freeze([
  // JOSE: request opening (UAT)
  f('jose-accept-plain', ['JOSE-01'], U, 'transfers POST/PUT accept a plain JSON body instead of a sealed one'),
  f('jose-accept-any-jws-alg', ['JOSE-02'], U, 'the request JWS may use any RSA algorithm (RS384/RS512/PS*) or "none"'),
  f('jose-accept-any-key-alg', ['JOSE-03'], U, 'the request JWE may use RSA1_5, RSA-OAEP (SHA-1), RSA-OAEP-384/512'),
  f(
    'jose-accept-any-enc',
    ['JOSE-04'],
    U,
    'the request JWE may use any content encryption (A128GCM, A256GCM, A128CBC-HS256, ...)',
  ),
  f('jose-accept-flattened', ['JOSE-05'], U, 'flattened JWE/JWS JSON serializations are accepted on requests'),
  f(
    'jose-skip-signature-key-pin',
    ['JOSE-06'],
    U,
    'the request JWS signature is not verified against the registered client key (any key passes)',
  ),
  f(
    'jose-decrypt-any-known-key',
    ['JOSE-07'],
    U,
    'the request JWE is decrypted with any private key the bank holds (e.g. its TLS server key), not only the API key',
  ),
  f('jose-accept-tampered', ['JOSE-08'], U, 'the JWE authentication tag is not checked'),
  f('jose-accept-unsigned', ['JOSE-09'], U, 'a JWE whose plaintext is plain JSON (no JWS inside) is accepted'),
  f('jose-accept-unencrypted', ['JOSE-09'], U, 'a bare JWS (JSON or compact, not encrypted) is accepted'),
  f('jose-trust-header-jwk', ['JOSE-10'], U, 'a `jwk` in the request JWS header is trusted to verify the signature'),
  f('jose-fetch-jku', ['JOSE-10'], U, 'a loopback `jku` in the request JWS header is fetched and its keys trusted'),
  f('jose-accept-unknown-crit', ['JOSE-10'], U, 'unknown `crit` header parameters are ignored instead of refused'),
  f('response-unsealed', ['JOSE-11'], U, 'transfers responses are plain JSON'),
  f(
    'response-wrong-enc',
    ['JOSE-11'],
    U,
    'transfers responses are encrypted with A128CBC-HS256 instead of A256CBC-HS512',
  ),
  f(
    'response-signed-wrong-key',
    ['JOSE-11'],
    U,
    'transfers responses are signed with the TLS server key instead of the API domain key',
  ),
  f('response-flattened', ['JOSE-11'], U, 'transfers responses use the flattened JWE/JWS JSON serializations'),
  f('cc-token-accept-plain', ['JOSE-12'], U, 'the client-credentials token request is accepted as plain JSON'),
  f('cc-token-response-unsealed', ['JOSE-12'], U, 'the client-credentials token response is plain JSON'),
  f('token-response-sealed', ['JOSE-13'], ALL, 'the customer sign-in token response is sealed (it must be plain JSON)'),
  f(
    'jose-side-effect-on-refusal',
    ['JOSE-14'],
    U,
    'a PUT whose sealed body is refused still creates the transfer before answering 400',
  ),
  // JOSE cases (8a): each makes one negative case of the JOSE catalogue fail (test/matrix/jose-cases.test.ts)
  f(
    'jose-duplicates-first-wins',
    ['JOSE-02', 'JOSE-03', 'JOSE-04', 'JOSE-08'],
    U,
    'duplicated JSON members are read first-wins by the mock (its alg/enc checks) while jose, unpinned, processes the last (a parser differential)',
  ),
  f('jose-accept-duplicates', ['HARD-01'], U, 'duplicated JOSE members are accepted, the last one taken (RFC default)'),
  f('jose-accept-zip', ['HARD-02'], U, 'a compressed (zip DEF) request JWE is accepted'),
  f(
    'jose-accept-several',
    ['HARD-03'],
    U,
    'several recipients / signatures are accepted (one to the bank key, one by the client key suffices)',
  ),
  f(
    'jose-accept-second-spelling',
    ['HARD-07'],
    U,
    'a member written in a second spelling of its bytes (padding bits, `=`, `+` `/`, a line break) is read as those bytes: the AAD and the JWS signing input are computed from the decoded protected headers and payload',
  ),
  f('jose-accept-compact', ['JOSE-05'], U, 'the compact JWE serialization is accepted on requests'),
  f('jose-hs256-key-confusion', ['JOSE-02'], U, "an HS256 JWS verifies with the client's public key PEM as the secret"),
  f(
    'jose-pbes2-unbounded',
    ['JOSE-03'],
    U,
    'a PBES2 JWE header is processed before the alg allow-list: key derivation runs (capped here) and ends in 500',
  ),
  f('jose-fetch-x5u', ['JOSE-10'], U, 'a loopback `x5u` in the request JWS header is fetched and its key trusted'),
  f('jose-trust-header-x5c', ['JOSE-10'], U, 'the `x5c` certificate in the request JWS header is trusted'),
  f(
    'jose-tag-failure-500',
    ['JOSE-08'],
    U,
    'a JWE whose authentication tag does not verify is answered 500 (an error oracle) instead of refused with 400',
  ),
  // MASK
  f('mask-any-mask-char', ['MASK-01'], ALL, 'a masked id may use X, * or # in place of x'),
  f(
    'mask-length-not-kept',
    ['MASK-02'],
    ALL,
    'a masked id is matched on its first 4 and last 3 characters, whatever its length',
  ),
  f('accept-unmasked-id', ['MASK-03'], ALL, 'a clear (unmasked) account id or emirates id is accepted'),
  f('mask-echo-clear-id', ['MASK-04'], ALL, 'validate and get responses, and 403 errors, echo the clear account id'),
  f(
    'mask-echo-wrong-mask',
    ['MASK-01', 'MASK-02'],
    ALL,
    'validate and get responses echo the account id masked with * and one character short',
  ),
  // TOK
  f('token-missing-consented-on', ['TOK-01'], ALL, 'token responses lack consented_on'),
  f(
    'cc-token-has-refresh',
    ['TOK-02'],
    ALL,
    'client-credentials token responses carry refresh_token and refresh_token_expires_in',
  ),
  f('code-reusable', ['TOK-03', 'TOK-04', 'RACE-02'], ALL, 'an authorization code can be exchanged more than once'),
  f('no-revoke-on-code-reuse', ['TOK-04'], ALL, 're-use of a code is refused but the tokens issued from it stay valid'),
  f('code-never-expires', ['TOK-05'], ALL, 'authorization codes never expire'),
  f('access-never-expires', ['TOK-06'], ALL, 'access tokens never expire'),
  f('no-www-authenticate', ['TOK-07'], ALL, '401 answers of the transfers API carry no WWW-Authenticate header'),
  f('scope-not-enforced', ['TOK-08'], ALL, 'the transfers API does not require the "transfers" scope'),
  f(
    'refresh-not-rotated',
    ['TOK-09', 'TOK-10', 'RACE-03'],
    ALL,
    'a refresh returns the same refresh token, which stays valid',
  ),
  f(
    'refresh-reuse-allowed',
    ['TOK-10', 'RACE-03'],
    ALL,
    'a rotated (used) refresh token keeps working and its re-use revokes nothing',
  ),
  f('refresh-idle-not-enforced', ['TOK-11'], ALL, 'a refresh token unused for more than 180 days still works'),
  f('refresh-max-age-not-enforced', ['TOK-11'], ALL, 'a grant older than 1095 days can still be refreshed'),
  f('code-token-any-account', ['TOK-12'], ALL, "an authorization-code token may act on another customer's account"),
  f('cc-binding-ignored', ['TOK-13'], U, 'a client-credentials token bound by oauth_metadata may act on any account'),
  f('token-wrong-secret-accepted', ['TOK-14'], ALL, 'token endpoints accept any client secret for a known client id'),
  f('msgid-not-required', ['TOK-15'], U, 'the UAT client-credentials token request needs no MsgId header'),
  f(
    'token-form-charset-refused',
    ['TOK-15'],
    S,
    'sandbox token endpoints refuse a form body whose Content-Type has a charset parameter',
  ),
  f(
    'authorize-redirects-unregistered',
    ['TOK-16', 'TOK-17'],
    ALL,
    '/authorize redirects (code or error) to an unregistered redirect_url',
  ),
  f('authorize-response-type-optional', ['TOK-16'], ALL, '/authorize accepts a missing or wrong response_type'),
  f('authorize-uuid-optional', ['TOK-16'], U, '/authorize in UAT does not require uuid and account_id'),
  f('state-not-returned', ['TOK-17'], ALL, '/authorize drops `state` from the redirect'),
  // ERR
  f('error-extra-member', ['ERR-01'], ALL, 'error bodies carry an extra member `errors`'),
  f('error-status-number', ['ERR-01'], ALL, 'error bodies carry `status` as a number'),
  f(
    'missing-property-not-named',
    ['ERR-02'],
    ALL,
    'a missing property is reported as property "body", message "invalid request"',
  ),
  f('invalid-currency-accepted', ['ERR-03'], ALL, 'any 3-letter currency is accepted'),
  f('nonpositive-amount-accepted', ['ERR-03'], ALL, 'a zero or negative amount is accepted'),
  f('unknown-transfer-200', ['ERR-04'], ALL, 'GET of an unknown transfer id answers 200'),
  // the bank's OpenAPI document (docs/openapi/transfers.yaml): an answer's shape or status drifts from it
  f(
    'unknown-transfer-410',
    ['ERR-04', 'OAS-01'],
    // sandbox only: in UAT the JOSE side-effect check (JOSE-14) reads the same not-found and would fail with it
    S,
    'GET of an unknown transfer id answers 410 Gone, a status neither the contract (404) nor the document lists',
  ),
  f('get-text-plain', ['OAS-02'], ALL, 'the get answer says Content-Type text/plain (its body is the same JSON)'),
  f('get-member-renamed', ['OAS-03'], ALL, 'the get answer names created_at createdAt (the document requires it)'),
  f(
    'openapi-example-invalid',
    ['OAS-08'],
    ALL,
    "the mock's published document gives validate's request an example its schema refuses (amount.value a number)",
  ),
  f(
    'no-request-id',
    ['OAS-06'],
    ALL,
    'transfers answers carry no X-Request-Id header (the document requires it on 2xx)',
  ),
  f('method-not-allowed-404', ['ERR-04'], ALL, 'a disallowed method answers 404 instead of 405'),
  f('malformed-json-500', ['ERR-04'], ALL, 'a malformed JSON body answers 500 instead of 400'),
  f(
    'malformed-json-503-traceback',
    ['ERR-05', 'ERR-04'],
    ALL,
    'a malformed JSON body answers 503 with an HTML page holding a Python traceback and its file paths',
  ),
  f('error-leaks-stack', ['ERR-05'], ALL, 'error descriptions carry a stack trace with file paths'),
  // XFER
  f('validate-missing-debit-amount', ['XFER-01'], ALL, 'validate answers without debit_amount'),
  f('approvers-always', ['XFER-02'], ALL, 'validate lists approvers for every customer'),
  f('create-no-reference', ['XFER-03'], ALL, 'create answers without payment_reference_id'),
  f('get-no-status', ['XFER-04'], ALL, 'get answers without status'),
  f('put-not-idempotent', ['XFER-05'], ALL, 'a repeated PUT with the same body creates a second payment'),
  f('put-different-body-accepted', ['XFER-05'], ALL, 'a repeated PUT with a different body replaces the transfer'),
  f(
    'read-only-honoured',
    ['XFER-06'],
    ALL,
    'read-only fields (status, payment_reference_id, created_at) sent in a PUT are stored',
  ),
  f('bola', ['XFER-07'], ALL, 'a transfer is visible to any valid token'),
  f('api-key-not-required', ['XFER-08'], ALL, 'the X-Gateway-Client-Id header is not required on the transfers API'),
  // TLS (UAT)
  f('tls-accept-tls1_1', ['TLS-01'], U, 'the server accepts TLS 1.0 and 1.1 (SECLEVEL=0)'),
  f('mtls-optional', ['TLS-02', 'OAS-07'], U, 'a client certificate is not required'),
  f('accept-weak-client-key', ['TLS-03'], U, 'client certificates with RSA keys under 2048 bits are accepted'),
  f('accept-expired-client-cert', ['TLS-04'], U, 'expired client certificates are accepted'),
  f('accept-untrusted-ca', ['TLS-04'], U, 'client certificates from an untrusted CA are accepted'),
  f('cert-not-bound-to-client', ['TLS-04'], U, 'any trusted client certificate is accepted for any client id'),
  f(
    'server-cert-weak-key',
    ['TLS-05'],
    U,
    'the server certificate (right host, in date, bank CA) has a 1536-bit RSA key',
  ),
  // a server certificate a verifying client refuses: TLS-05 fails, the checks that need the connection are blocked
  f(
    'server-cert-wrong-host',
    ['TLS-05'],
    U,
    'the server certificate names another host (CN and SAN bank.invalid; bank CA, in date, 2048 bits)',
  ),
  f('server-cert-unknown-ca', ['TLS-05'], U, 'the server certificate is issued by a CA the client was not given'),
  f('server-cert-expired', ['TLS-05'], U, 'the server certificate expired yesterday (right host, bank CA)'),
  f('server-cert-not-yet-valid', ['TLS-05'], U, 'the server certificate becomes valid tomorrow (right host, bank CA)'),
  f('allow-list-off', ['TLS-06'], U, 'calls from any source address are accepted'),
  f('tls-weak-ciphers', ['TLS-09'], U, 'the server offers anonymous and other weak TLS 1.2 cipher suites'),
  // QUOTA
  f('quota-off', ['QUOTA-01'], ALL, 'no quota is enforced'),
  f('quota-no-retry-after', ['QUOTA-01'], ALL, 'the 429 answer carries no Retry-After header'),
  // the quota's refusals as bare answers a throttling gateway might also give (no body): the harness must not take
  // them for a gateway's throttle (lib/engine/session/throttle.ts)
  f('quota-refusal-bare', ['QUOTA-01'], ALL, 'the quota refusal is a bare 429: no Retry-After, no body'),
  f(
    'quota-early-long-wait',
    ['QUOTA-01'],
    ALL,
    'from the 51st call of a window, a bare 429 (no body) with a Retry-After of the rest of the hour',
  ),
  f(
    'quota-shared-window',
    ['QUOTA-02'],
    ALL,
    "once one operation's quota is exhausted, the client's other operations are refused too",
  ),
  f(
    'quota-window-reopens-late',
    ['QUOTA-03'],
    ALL,
    'an exhausted quota window reopens only after two hours, not after one',
  ),
  f('quota-refusal-side-effect', ['QUOTA-04'], ALL, 'a PUT refused for the quota still creates the transfer'),
  // CONV
  f(
    'basepath-unversioned',
    ['CONV-01'],
    ALL,
    'the transfers API is served (and advertised) under /api, without a version',
  ),
  f('empty-body-accepted', ['CONV-02'], ALL, 'POST/PUT without a body are processed with default values'),
  // (8b) hardening ids, and faults for checks no other fault made fail
  f('body-size-unlimited', ['HARD-04'], ALL, 'request bodies over the advertised size limit are read and processed'),
  f(
    'server-software-headers',
    ['HARD-05'],
    ALL,
    'transfers answers carry `Server: nginx/1.25.3` and `X-Powered-By: Express`',
  ),
  f(
    'code-token-no-refresh-expiry',
    ['TOK-02'],
    ALL,
    'authorization-code token responses carry refresh_token without refresh_token_expires_in',
  ),
  f('authorize-scope-optional', ['TOK-16'], ALL, '/authorize without scope issues a code for the transfers scope'),
  f(
    'pkce-verifier-not-checked',
    ['HARD-06'],
    ALL,
    'a code issued for a PKCE code_challenge is exchanged without its code_verifier (or with a wrong one)',
  ),
  f(
    'put-other-customer-replaces',
    ['XFER-07'],
    ALL,
    "a PUT of an existing transfer id with another customer's token replaces that customer's transfer",
  ),
  f('tls12-refused', ['TLS-01'], U, 'the server accepts TLS 1.3 only (a TLS 1.2 handshake is refused)'),
  // races (11): check-then-act gaps (lib/mock/race.ts), visible only to concurrent requests
  f(
    'race-put-check-then-act',
    ['RACE-01'],
    ALL,
    'a PUT awaits between looking the transfer id up and storing it: concurrent PUTs of one id each create a payment',
  ),
  f(
    'race-code-exchange',
    ['RACE-02'],
    ALL,
    'a code exchange awaits between checking the code is unused and marking it used: concurrent exchanges all get tokens',
  ),
  f(
    'race-refresh',
    ['RACE-03'],
    ALL,
    'a refresh awaits between checking the refresh token and voiding it: concurrent refreshes all get token pairs',
  ),
  f(
    'race-quota',
    ['RACE-04'],
    ALL,
    'a call awaits between checking the quota count and incrementing it: a concurrent burst passes the quota',
  ),
  // the property checks (docs/properties.md): fixed-input checks miss these
  f(
    'mask-last-three-only',
    ['MASK-01', 'MASK-02'],
    ALL,
    'a well-formed mask of the right length is matched to the account (or emirates id) on its last three characters only: a changed kept head passes (the fixed-input checks miss it, the property finds it)',
  ),
  // the tampered-envelope property (docs/properties.md)
  f(
    'jose-tag-unchecked-other-recipient',
    ['JOSE-08', 'HARD-03'],
    U,
    'several JWE recipients are accepted, and the authentication tag is checked only when the content key comes from the first recipient',
  ),
  // the invalid-documents property (docs/property-invalid-documents.md) — faults the fixed-input ERR checks miss and
  // the invalid-documents property finds
  f(
    'amount-string-500',
    ['ERR-03'],
    ALL,
    'an `amount` sent flat as a string holding a number ("150.00", not an object) crashes the validator: 500',
  ),
  f(
    'amount-number-accepted',
    ['ERR-03'],
    ALL,
    'an `amount.value` sent as a JSON number (150.5) is read as its decimal text and accepted',
  ),
  // the coverage classes at the rules' edges (docs/properties.md "Classes per rule"): a boundary spelled otherwise,
  // free text a core system chokes on
  f(
    'amount-zero-spellings-accepted',
    ['ERR-03'],
    ALL,
    'a zero `amount.value` is refused only when written `0` or `0.00` (a string compare): `0.0`, `00.00`, `000` … are accepted',
  ),
  f(
    'amount-negative-fraction-accepted',
    ['ERR-03'],
    ALL,
    'the sign of `amount.value` is read from its integer part (parseInt): `-0.01` … `-0.99` are accepted',
  ),
  f(
    'amount-fraction-truncated',
    ['XFER-01'],
    ALL,
    'an `amount.value` under 1.00 is read by its integer part (parseInt) and refused as not above zero: `0.01` … `0.99`, 422 naming amount.value',
  ),
  f(
    'remarks-emoji-500',
    // validate and create read the same core: the invalid-documents property (validate) and the create check catch it
    ['XFER-01', 'XFER-03'],
    ALL,
    'a valid request whose `remarks` hold a character outside the Basic Multilingual Plane (an emoji) crashes the core (a 3-byte UTF-8 column): 500',
  ),
  f(
    'remarks-longest-500',
    // validate and create read the same core: the invalid-documents property (validate) and the create check catch it
    ['XFER-01', 'XFER-03'],
    ALL,
    '`remarks` of 140 characters, the longest the contract allows, crash the core (its column holds 139): 500',
  ),
  // the mock's OpenAPI document (docs/property-invalid-documents.md): requests the document calls invalid or valid
  f(
    'free-text-length-unchecked',
    ['OAS-04'],
    ALL,
    "`remarks` and `purpose_code` longer than the 140 characters the mock's document allows are accepted",
  ),
  f(
    'remarks-short-limit',
    ['OAS-05'],
    ALL,
    "`remarks` of more than 100 characters are refused (422 naming remarks), though the mock's document allows 140",
  ),
  // judge precision: an answer outside an OpenAPI format's range; free text that crashes only when stored
  f(
    'get-int32-overflow',
    ['OAS-03'],
    ALL,
    "the get answer carries revision 2147483648, one past the largest int32 (the mock's document says format: int32)",
  ),
  f(
    'remarks-create-500',
    ['XFER-03'],
    ALL,
    'a create whose `remarks` take more than 140 UTF-8 bytes crashes when the transfer is stored (a column sized in bytes): 500; validate, which stores nothing, accepts it',
  ),
]);
