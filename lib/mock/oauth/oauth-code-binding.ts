/** What an authorization code is bound to beyond the token store's grant: PKCE (RFC 7636) and the redirect_uri. */
import { createHash } from 'node:crypto';
import type { MockContext } from '../context.ts';
import type { MockCustomer, RegisteredClient } from '../data.ts';
import { oauthError, type OAuthError } from '../errors.ts';
import { perMock, single } from './oauth-common.ts';

/**
 * what a code is bound to beyond the token store's grant: its PKCE challenge (RFC 7636) and the redirect_uri the
 * request named (RFC 6749 §4.1.3: the exchange must name it again)
 */
export interface CodeBinding {
  challenge?: string;
  redirectGiven?: string;
}
const codeBindings = perMock<CodeBinding>();
export function issueBoundCode(
  ctx: MockContext,
  p: { client: RegisteredClient; customer: MockCustomer; scope: string; redirectUri: string; grant: CodeBinding },
): string {
  const code = ctx.tokens.issueCode(p.client.id, p.customer, p.scope, p.redirectUri);
  if (p.grant.challenge !== undefined || p.grant.redirectGiven !== undefined) codeBindings(ctx).set(code, p.grant);
  return code;
}

/** PKCE at /authorize: an S256 challenge (plain is refused), required under MockOptions.oauth.pkceRequired */
export function pkceOf(
  ctx: MockContext,
  q: URLSearchParams,
): { ok: true; challenge?: string } | { ok: false; description: string } {
  const challenge = single(q, 'code_challenge');
  const method = single(q, 'code_challenge_method');
  if (challenge === null || method === null) return { ok: false, description: 'code_challenge is repeated' };
  if (challenge === undefined) {
    return ctx.oauth.pkceRequired ? { ok: false, description: 'code_challenge is required (PKCE S256)' } : { ok: true };
  }
  if (method !== 'S256' || !/^[A-Za-z0-9_-]{43}$/.test(challenge))
    return { ok: false, description: 'code_challenge_method must be S256, with a 43-character challenge' };
  return { ok: true, challenge };
}

/** the exchange names what the code is bound to: its PKCE verifier, and the redirect_uri its request named */
export function bindingHolds(ctx: MockContext, code: string, form: URLSearchParams): OAuthError | undefined {
  const b = codeBindings(ctx).get(code);
  const verifier = single(form, 'code_verifier');
  if (verifier === null) return oauthError('invalid_request', 'code_verifier is repeated');
  if (b?.challenge !== undefined && !ctx.faults.on('pkce-verifier-not-checked')) {
    const computed = verifier ? createHash('sha256').update(verifier, 'ascii').digest('base64url') : undefined;
    if (computed !== b.challenge)
      return oauthError('invalid_grant', 'code_verifier is missing or does not match the code_challenge');
  }
  // RFC 9700 §2.1.1: a verifier for a code issued without a challenge is a PKCE downgrade
  if (b?.challenge === undefined && verifier !== undefined)
    return oauthError('invalid_grant', 'a code_verifier for a code issued without a code_challenge');
  if (b?.redirectGiven !== undefined && single(form, 'redirect_uri') !== b.redirectGiven)
    return oauthError('invalid_grant', 'redirect_uri differs from the one of the authorization request');
  return undefined;
}
