/** POST /oauth/v1/token: authorization_code and refresh_token; Basic auth + form in both modes; plain JSON answers. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MockContext } from '../context.ts';
import { oauthError } from '../errors.ts';
import { sendJson } from '../server/http.ts';
import { bindingHolds } from './oauth-code-binding.ts';
import {
  basicClient,
  certificateNotBound,
  NO_STORE,
  readForm,
  sendOAuthError,
  single,
  type OkGate,
} from './oauth-common.ts';
import { sealResponse } from '../jose/seal.ts';
import type { TokenResult } from './tokens.ts';
import { registeredFor } from '../data.ts';

/** POST /oauth/v1/token: authorization_code and refresh_token (customer sign-in OAuth API, plain answers) */
export async function handleCodeToken(
  ctx: MockContext,
  req: IncomingMessage,
  res: ServerResponse,
  gate: OkGate,
): Promise<void> {
  const { client, error } = basicClient(ctx, req);
  if (!client) return sendOAuthError(res, error);
  const wrongCert = certificateNotBound(ctx, gate, client.id);
  if (wrongCert) return sendOAuthError(res, wrongCert);
  const read = await readForm(ctx, req);
  if (!read.ok) return sendOAuthError(res, read.error);
  const form = read.form;
  if (!registeredFor(client, 'code'))
    return sendOAuthError(
      res,
      oauthError('unauthorized_client', 'the client is not registered for the customer sign-in API'),
    );
  const grantType = single(form, 'grant_type');
  let result: TokenResult;
  if (!grantType) return sendOAuthError(res, oauthError('invalid_request', 'grant_type is missing or repeated'));
  if (grantType === 'authorization_code') {
    const code = single(form, 'code');
    if (!code) return sendOAuthError(res, oauthError('invalid_request', 'code is missing or repeated'));
    const unbound = bindingHolds(ctx, code, form);
    if (unbound) return sendOAuthError(res, unbound);
    result = await ctx.tokens.exchangeCode(client.id, code);
  } else if (grantType === 'refresh_token') {
    const rt = single(form, 'refresh_token');
    const scope = single(form, 'scope');
    if (!rt || scope === null)
      return sendOAuthError(res, oauthError('invalid_request', 'refresh_token is missing or repeated'));
    result = await ctx.tokens.exchangeRefresh(client.id, rt, scope === undefined ? undefined : scope);
  } else {
    return sendOAuthError(
      res,
      oauthError('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token'),
    );
  }
  if (!result.ok) return sendOAuthError(res, result.error);
  // the specification's one exception: this API's token answers are neither signed nor encrypted (token-response-sealed
  // breaks it)
  const body = ctx.faults.on('token-response-sealed')
    ? await sealResponse(ctx, result.body, client, 'oauth')
    : result.body;
  sendJson(res, 200, body, { headers: NO_STORE });
}
