/**
 * POST /oauth/partner_auth/token, /oauth/internal_auth/token: client_credentials; sandbox Basic + form;
 * UAT sealed JSON with X-Gateway-Client-Id / X-Gateway-Client-Secret / MsgId, answers sealed.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ccFormMetadata } from './cc-form.ts';
import type { MockContext } from '../context.ts';
import { registeredFor, SCOPES, type ClientKind, type RegisteredClient } from '../data.ts';
import { oauthError, type OAuthError } from '../errors.ts';
import { header, mediaType, readBody, sendJson } from '../server/http.ts';
import {
  authenticate,
  basicClient,
  certificateNotBound,
  NO_STORE,
  readForm,
  sendOAuthError,
  single,
  type OkGate,
} from './oauth-common.ts';
import { openRequest, publicReason, sealResponse } from '../jose/seal.ts';
import type { Binding } from './tokens.ts';

const ENDPOINT_KIND: Record<'partner' | 'internal', ClientKind> = { partner: 'partner', internal: 'internal' };

/** POST /oauth/partner_auth/token and /oauth/internal_auth/token (client_credentials) */
export async function handleCcToken(
  ctx: MockContext,
  req: IncomingMessage,
  res: ServerResponse,
  gate: OkGate,
  endpoint: 'partner' | 'internal',
): Promise<void> {
  if (ctx.mode === 'sandbox') return sandboxCc(ctx, req, res, endpoint);
  return uatCc(ctx, req, res, gate, endpoint);
}

async function sandboxCc(
  ctx: MockContext,
  req: IncomingMessage,
  res: ServerResponse,
  endpoint: 'partner' | 'internal',
): Promise<void> {
  const { client, error } = basicClient(ctx, req);
  if (!client) return sendOAuthError(res, error);
  const read = await readForm(ctx, req);
  if (!read.ok) return sendOAuthError(res, read.error);
  const form = read.form;
  const meta = ccFormMetadata(form);
  if (!meta.ok) return sendOAuthError(res, oauthError('invalid_request', meta.description));
  const out = issueCc(ctx, client, endpoint, single(form, 'grant_type'), single(form, 'scope'), meta.metadata);
  if (!out.ok) return sendOAuthError(res, out.error);
  sendJson(res, 200, out.body, { headers: NO_STORE });
}

async function uatCc(
  ctx: MockContext,
  req: IncomingMessage,
  res: ServerResponse,
  gate: OkGate,
  endpoint: 'partner' | 'internal',
): Promise<void> {
  const f = ctx.faults;
  const id = header(req, 'x-gateway-client-id');
  const secret = header(req, 'x-gateway-client-secret');
  if (!id || !secret)
    return sendOAuthError(
      res,
      oauthError('invalid_client', 'X-Gateway-Client-Id and X-Gateway-Client-Secret are required'),
    );
  const client = authenticate(ctx, id, secret);
  if (!client) return sendOAuthError(res, oauthError('invalid_client', 'client authentication failed'));
  const wrongCert = certificateNotBound(ctx, gate, client.id);
  if (wrongCert) return sendOAuthError(res, wrongCert);
  // the client is established: every answer from here is sealed to its registered certificate
  const answer = async (
    status: number,
    body: Record<string, unknown>,
    extra: Record<string, string> = {},
  ): Promise<void> => {
    const sealed = f.on('cc-token-response-unsealed') ? body : await sealResponse(ctx, body, client, 'oauth');
    sendJson(res, status, sealed, { headers: { ...NO_STORE, ...extra } });
  };
  const error = (e: OAuthError): Promise<void> =>
    answer(e.status, { error: e.error, error_description: e.description });

  const msgId = header(req, 'msgid');
  if ((msgId === undefined || msgId.trim() === '') && !f.on('msgid-not-required'))
    return error(oauthError('invalid_request', 'the MsgId header is required'));
  if (mediaType(req) !== 'application/json')
    return error(oauthError('invalid_request', 'Content-Type must be application/json'));
  const read = await readBody(req, ctx.maxBodyBytes);
  if (!read.ok) return error(oauthError('invalid_request', 'the request body is too large'));
  if (read.body.length === 0) return error(oauthError('invalid_request', 'the request body is missing'));
  const opened = await openRequest(ctx, read.body, client, 'cc-token-accept-plain');
  if (!opened.ok)
    return error(oauthError('invalid_request', `the sealed request body was refused: ${publicReason(opened.reason)}`));
  const p = opened.payload;
  if (typeof p !== 'object' || p === null || Array.isArray(p))
    return error(oauthError('invalid_request', 'the request must be a JSON object'));
  const o = p as Record<string, unknown>;
  const str = (v: unknown): string | undefined | null =>
    v === undefined ? undefined : typeof v === 'string' ? v : null;
  const out = issueCc(ctx, client, endpoint, str(o.grant_type), str(o.scope), o.oauth_metadata);
  if (!out.ok) return error(out.error);
  return answer(200, out.body);
}

type Issued = { ok: true; body: Record<string, unknown> } | { ok: false; error: OAuthError };

function issueCc(
  ctx: MockContext,
  client: RegisteredClient,
  endpoint: 'partner' | 'internal',
  grantType: string | undefined | null,
  scope: string | undefined | null,
  metadata: unknown,
): Issued {
  const err = (e: OAuthError): Issued => ({ ok: false, error: e });
  if (!grantType) return err(oauthError('invalid_request', 'grant_type is missing'));
  if (grantType !== 'client_credentials')
    return err(oauthError('unsupported_grant_type', 'grant_type must be client_credentials'));
  if (!registeredFor(client, ENDPOINT_KIND[endpoint]))
    return err(
      oauthError('unauthorized_client', `the client is not registered for the ${endpoint} authentication API`),
    );
  if (!scope) return err(oauthError('invalid_request', 'scope is missing'));
  const scopes = scope.split(' ').filter(Boolean);
  if (scopes.length === 0 || scopes.some((s) => !client.scopes.has(s) || !(SCOPES as readonly string[]).includes(s))) {
    return err(oauthError('invalid_scope', 'the scope is unknown or not allowed for this client'));
  }
  let binding: Binding | undefined;
  if (metadata !== undefined) {
    const b = bindingOf(ctx, metadata);
    if (!b)
      return err(
        oauthError(
          'invalid_request',
          'oauth_metadata must hold exactly one of account_id or emirates_id, naming a known customer (clear value)',
        ),
      );
    binding = b;
  }
  return { ok: true, body: ctx.tokens.issueClientCredentials(client.id, scopes.join(' '), binding) };
}

function bindingOf(ctx: MockContext, metadata: unknown): Binding | undefined {
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) return undefined;
  const keys = Object.keys(metadata);
  if (keys.length !== 1) return undefined;
  const m = metadata as Record<string, unknown>;
  if (typeof m.account_id === 'string') {
    const c = ctx.data.customers.find((x) => x.accountId === m.account_id);
    return c ? { customer: c, kind: 'account' } : undefined;
  }
  if (typeof m.emirates_id === 'string') {
    const c = ctx.data.customers.find((x) => x.emiratesId === m.emirates_id);
    return c ? { customer: c, kind: 'emirates' } : undefined;
  }
  return undefined;
}
