/** POST /oauth/v1/introspect (RFC 7662). */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MockContext } from '../context.ts';
import type { RegisteredClient } from '../data.ts';
import { oauthError } from '../errors.ts';
import { header, parseBasic, sendJson } from '../server/http.ts';
import {
  authenticate,
  certificateNotBound,
  NO_STORE,
  readForm,
  sendOAuthError,
  single,
  type OkGate,
} from './oauth-common.ts';

/**
 * the caller of a form without HTTP Basic: client_secret_post (client_id and client_secret), or, in UAT, RFC 8705
 * tls_client_auth (client_id alone, the connection's certificate registered for it)
 */
function formClient(ctx: MockContext, form: URLSearchParams, gate: OkGate): RegisteredClient | undefined {
  const id = single(form, 'client_id');
  if (!id) return undefined;
  const secret = single(form, 'client_secret');
  if (secret) return authenticate(ctx, id, secret);
  if (secret === undefined && ctx.mode === 'uat' && gate.peer.certClient?.id === id) return gate.peer.certClient;
  return undefined;
}

/**
 * POST /oauth/v1/introspect (RFC 7662): whether an access token is active, to an authenticated client. With the
 * resource-server shape (MockOAuthShape.resourceServerIntrospection) only the registered resource server sees
 * tokens: any other client is told {"active": false}, as RFC 7662 §2.2 allows for a token the caller may not see.
 */
export async function handleIntrospect(
  ctx: MockContext,
  req: IncomingMessage,
  res: ServerResponse,
  gate: OkGate,
): Promise<void> {
  const basic = parseBasic(header(req, 'authorization'));
  let client = basic ? authenticate(ctx, basic.id, basic.secret) : undefined;
  if (basic && !client) return sendOAuthError(res, oauthError('invalid_client', 'client authentication failed'));
  const read = await readForm(ctx, req);
  if (!read.ok) return sendOAuthError(res, read.error);
  client ??= formClient(ctx, read.form, gate);
  if (!client) return sendOAuthError(res, oauthError('invalid_client', 'client authentication failed'));
  const wrongCert = certificateNotBound(ctx, gate, client.id);
  if (wrongCert) return sendOAuthError(res, wrongCert);
  const token = single(read.form, 'token');
  if (!token) return sendOAuthError(res, oauthError('invalid_request', 'token is missing or repeated'));
  const t = ctx.tokens.lookup(token);
  const sees = !ctx.oauth.resourceServerIntrospection || client.kind === 'resource';
  sendJson(res, 200, t && sees ? { active: true, token_type: 'Bearer' } : { active: false }, { headers: NO_STORE });
}
