/**
 * The faults of the bank's OAuth 2.0 side: token fields, codes, expiry, refresh, scope, client authentication,
 * /authorize (TOK-01..17) and PKCE (HARD-06).
 */
import type { FaultDefinition } from '../types.ts';
import { f, U, S, ALL } from './define.ts';

export const TOKEN_FAULTS: readonly FaultDefinition[] = [
  f('token-missing-consented-on', ['TOK-01'], ALL, 'token responses lack consented_on'),
  f('token-missing-expires-in', ['TOK-01'], ALL, 'token responses lack expires_in'),
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
  // hardening (HARD-06), and faults for checks no other fault made fail
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
];
