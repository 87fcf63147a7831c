/** POST /oauth/v1/introspect (RFC 7662). */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MockContext } from './context.ts';
import { oauthError } from './errors.ts';
import { header, parseBasic, sendJson } from './http.ts';
import {
  authenticate,
  certificateNotBound,
  NO_STORE,
  readForm,
  sendOAuthError,
  single,
  type OkGate,
} from './oauth-common.ts';

/** POST /oauth/v1/introspect (RFC 7662): whether an access token is active, to an authenticated code client */
export async function handleIntrospect(
  ctx: MockContext,
  req: IncomingMessage,
  res: ServerResponse,
  gate: OkGate,
): Promise<void> {
  const basic = parseBasic(header(req, 'authorization'));
  const client = basic ? authenticate(ctx, basic.id, basic.secret) : undefined;
  if (!client) return sendOAuthError(res, oauthError('invalid_client', 'client authentication failed'));
  const wrongCert = certificateNotBound(ctx, gate, client.id);
  if (wrongCert) return sendOAuthError(res, wrongCert);
  const read = await readForm(ctx, req);
  if (!read.ok) return sendOAuthError(res, read.error);
  const token = single(read.form, 'token');
  if (!token) return sendOAuthError(res, oauthError('invalid_request', 'token is missing or repeated'));
  const t = ctx.tokens.lookup(token);
  sendJson(res, 200, t ? { active: true, token_type: 'Bearer' } : { active: false }, { headers: NO_STORE });
}
