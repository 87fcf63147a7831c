/**
 * GET /oauth/v1/authorize (specification §4.2): client, redirect URI, scope, customer and PKCE, then a code or the
 * consent page.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MockContext } from '../context.ts';
import { registeredFor, TRANSFERS_SCOPE, type RegisteredClient } from '../data.ts';
import { issueBoundCode, pkceOf, type CodeBinding } from './oauth-code-binding.ts';
import { certificateNotBound, sendOAuthError, single, type OkGate } from './oauth-common.ts';
import { consentPage } from './oauth-consent.ts';
import { identifyCustomer } from './oauth-customer.ts';
import { errorPage, redirect } from './oauth-redirect.ts';

export async function handleAuthorize(
  ctx: MockContext,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  gate: OkGate,
): Promise<void> {
  const q = url.searchParams;
  const clientId = single(q, 'client_id');
  const client = typeof clientId === 'string' ? ctx.data.clients.get(clientId) : undefined;
  if (!client) return errorPage(req, res, 400, 'invalid_request', 'client_id is missing or unknown');
  const wrongCert = certificateNotBound(ctx, gate, client.id);
  if (wrongCert) return sendOAuthError(res, wrongCert);
  if (!registeredFor(client, 'code'))
    return errorPage(req, res, 400, 'unauthorized_client', 'the client is not registered for the customer sign-in API');
  const redirectUri = registeredRedirect(ctx, q, client);
  if (!redirectUri.ok) return errorPage(req, res, 400, 'invalid_request', redirectUri.description);

  // from here on errors go back to the (registered) redirect URI
  const stateRaw = single(q, 'state');
  const state = stateRaw === null ? undefined : stateRaw;
  const fail = (error: string, description: string): void =>
    redirect(ctx, res, redirectUri.uri, { error, error_description: description }, state);
  if (stateRaw === null) return fail('invalid_request', 'state is repeated');
  const scope = authorizeScope(ctx, q, client);
  if (!scope.ok) return fail(scope.error, scope.description);
  const who = await identifyCustomer(ctx, q);
  if (!who.ok) return fail(who.error, who.description);
  const pkce = pkceOf(ctx, q);
  if (!pkce.ok) return fail('invalid_request', pkce.description);
  const grant: CodeBinding = {
    ...(pkce.challenge !== undefined ? { challenge: pkce.challenge } : {}),
    ...(redirectUri.given !== undefined ? { redirectGiven: redirectUri.given } : {}),
  };
  const p = { client, customer: who.customer, scope: scope.scope, redirectUri: redirectUri.uri, state, grant };
  if (ctx.autoConsent) return redirect(ctx, res, redirectUri.uri, { code: issueBoundCode(ctx, p) }, state);
  consentPage(ctx, res, p);
}

/**
 * The redirect URI: registered for the client (exact match), the first registered one by default. The specification
 * names it redirect_url; RFC 6749's redirect_uri is read too.
 */
function registeredRedirect(
  ctx: MockContext,
  q: URLSearchParams,
  client: RegisteredClient,
): { ok: true; uri: string; given?: string } | { ok: false; description: string } {
  // a server that knows only RFC 6749's redirect_uri ignores redirect_url as any unknown parameter
  const byUrl = ctx.oauth.redirectUriOnly ? undefined : single(q, 'redirect_url');
  const byUri = single(q, 'redirect_uri');
  if (byUrl === null || byUri === null || (byUrl !== undefined && byUri !== undefined && byUrl !== byUri))
    return { ok: false, description: 'redirect_url is repeated' };
  const given = byUrl ?? byUri;
  if (given === undefined) return { ok: true, uri: client.redirectUris[0]! };
  let ok = client.redirectUris.includes(given);
  if (!ok && ctx.faults.on('authorize-redirects-unregistered')) {
    try {
      ok = ['http:', 'https:'].includes(new URL(given).protocol);
    } catch {
      ok = false;
    }
  }
  if (!ok) return { ok: false, description: 'redirect_url is not registered for this client' };
  // RFC 6749 §4.1.3: a redirect_uri named in the request is named again in the exchange (redirect_uri servers)
  return { ok: true, uri: given, ...(ctx.oauth.redirectUriOnly && byUri !== undefined ? { given } : {}) };
}

/** response_type=code and a scope the client may ask for; the scope normalised */
function authorizeScope(
  ctx: MockContext,
  q: URLSearchParams,
  client: RegisteredClient,
): { ok: true; scope: string } | { ok: false; error: string; description: string } {
  const f = ctx.faults;
  const no = (error: string, description: string) => ({ ok: false as const, error, description });
  const responseType = single(q, 'response_type');
  if (!f.on('authorize-response-type-optional')) {
    if (responseType === undefined || responseType === '' || responseType === null)
      return no('invalid_request', 'response_type is missing');
    if (responseType !== 'code') return no('unsupported_response_type', 'response_type must be code');
  }
  const scope = f.on('authorize-scope-optional') ? single(q, 'scope') || TRANSFERS_SCOPE : single(q, 'scope');
  if (!scope) return no('invalid_request', 'scope is missing');
  const scopes = scope.split(' ').filter(Boolean);
  if (scopes.length === 0 || scopes.some((s) => !client.scopes.has(s)))
    return no('invalid_scope', 'the scope is unknown or not allowed for this client');
  return { ok: true, scope: scopes.join(' ') };
}
