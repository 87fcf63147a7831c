/**
 * The faults of the bank's JOSE layer: how it opens a sealed request (JOSE-01..10), what it seals (JOSE-11..13), what a
 * refused request leaves behind (JOSE-14), and the negative catalogue's cases and hardening (HARD-01..03, HARD-07).
 */
import type { FaultDefinition } from '../types.ts';
import { f, U, ALL } from './define.ts';

export const JOSE_FAULTS: readonly FaultDefinition[] = [
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
  // the bank's answers: sealed transfers answers (JOSE-11), the token endpoints' bodies (JOSE-12, JOSE-13)
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
  // a refused request leaves no trace (JOSE-14)
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
  // the tampered-envelope property (docs/properties.md)
  f(
    'jose-tag-unchecked-other-recipient',
    ['JOSE-08', 'HARD-03'],
    U,
    'several JWE recipients are accepted, and the authentication tag is checked only when the content key comes from the first recipient',
  ),
];
