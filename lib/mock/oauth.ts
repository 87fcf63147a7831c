/**
 * OAuth 2.0 endpoints (seed §4.2-4.4, §5.6; contract "Tokens"):
 *  - GET  /oauth/v1/authorize (+ POST /oauth/v1/authorize/consent when auto-consent is off)
 *  - POST /oauth/v1/token: authorization_code and refresh_token; Basic auth + form in both modes; plain JSON answers
 *  - POST /oauth/partner_auth/token, /oauth/internal_auth/token: client_credentials; sandbox Basic + form;
 *    UAT sealed JSON with X-Gateway-Client-Id / X-Gateway-Client-Secret / MsgId, answers sealed.
 * Errors are RFC 6749 §5.2 bodies; an invalid client or redirect URI is never redirected to.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { compactDecrypt } from 'jose';
import { privateKeyFromPem } from '../jose/keys.ts';
import { ccFormMetadata } from './cc-form.ts';
import type { MockContext } from './context.ts';
import { SCOPES, TRANSFERS_SCOPE, type ClientKind, type MockCustomer, type RegisteredClient } from './data.ts';
import { oauthError, type OAuthError } from './errors.ts';
import { escapeHtml, header, mediaType, parseBasic, readBody, sendJson, sendRaw } from './http.ts';
import { openRequest, publicReason, sealResponse } from './seal.ts';
import { certBoundTo, type GateResult } from './tls-gate.ts';
import type { Binding, TokenResult } from './tokens.ts';
import { countCryptoOp } from '../crypto-ops.ts';

type OkGate = GateResult & { ok: true };
const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };

function sendOAuthError(res: ServerResponse, e: OAuthError, extra: Record<string, string> = {}): void {
  const headers: Record<string, string> = { ...NO_STORE, ...extra };
  if (e.status === 401) headers['WWW-Authenticate'] = 'Basic realm="oauth"';
  sendJson(res, e.status, { error: e.error, error_description: e.description }, { headers });
}

function secretMatches(client: RegisteredClient, secret: string): boolean {
  const a = createHash('sha256').update(client.secret).digest();
  const b = createHash('sha256').update(secret).digest();
  return timingSafeEqual(a, b);
}

/** known client with the right secret (any secret under the token-wrong-secret-accepted fault) */
function authenticate(
  ctx: MockContext,
  id: string | undefined,
  secret: string | undefined,
): RegisteredClient | undefined {
  const c = id !== undefined ? ctx.data.clients.get(id) : undefined;
  if (!c || secret === undefined) return undefined;
  return secretMatches(c, secret) || ctx.faults.on('token-wrong-secret-accepted') ? c : undefined;
}

// ------------------------------------------------------------------------------------------------------------
// /authorize

interface PendingConsent {
  client: RegisteredClient;
  customer: MockCustomer;
  scope: string;
  redirectUri: string;
  state: string | undefined;
  expiresAt: number;
  grant: CodeBinding;
}
/**
 * what a code is bound to beyond the token store's grant: its PKCE challenge (RFC 7636) and the redirect_uri the
 * request named (RFC 6749 §4.1.3: the exchange must name it again)
 */
interface CodeBinding {
  challenge?: string;
  redirectGiven?: string;
}
/** a map of the mock's, kept per mock (a WeakMap on its context) */
function perMock<V>(): (ctx: MockContext) => Map<string, V> {
  const byCtx = new WeakMap<MockContext, Map<string, V>>();
  return (ctx) => {
    let m = byCtx.get(ctx);
    if (!m) byCtx.set(ctx, (m = new Map()));
    return m;
  };
}
const codeBindings = perMock<CodeBinding>();
function issueBoundCode(
  ctx: MockContext,
  p: { client: RegisteredClient; customer: MockCustomer; scope: string; redirectUri: string; grant: CodeBinding },
): string {
  const code = ctx.tokens.issueCode(p.client.id, p.customer, p.scope, p.redirectUri);
  if (p.grant.challenge !== undefined || p.grant.redirectGiven !== undefined) codeBindings(ctx).set(code, p.grant);
  return code;
}

/** PKCE at /authorize: an S256 challenge (plain is refused), required under MockOptions.oauth.pkceRequired */
function pkceOf(
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
function bindingHolds(ctx: MockContext, code: string, form: URLSearchParams): OAuthError | undefined {
  const b = codeBindings(ctx).get(code);
  const verifier = once(form, 'code_verifier');
  if (verifier === null) return oauthError('invalid_request', 'code_verifier is repeated');
  if (b?.challenge !== undefined && !ctx.faults.on('pkce-verifier-not-checked')) {
    const computed = verifier ? createHash('sha256').update(verifier, 'ascii').digest('base64url') : undefined;
    if (computed !== b.challenge)
      return oauthError('invalid_grant', 'code_verifier is missing or does not match the code_challenge');
  }
  // RFC 9700 §2.1.1: a verifier for a code issued without a challenge is a PKCE downgrade
  if (b?.challenge === undefined && verifier !== undefined)
    return oauthError('invalid_grant', 'a code_verifier for a code issued without a code_challenge');
  if (b?.redirectGiven !== undefined && once(form, 'redirect_uri') !== b.redirectGiven)
    return oauthError('invalid_grant', 'redirect_uri differs from the one of the authorization request');
  return undefined;
}

const pending = perMock<PendingConsent>();

/** an error page: never a redirect (invalid client or redirect URI) */
function errorPage(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  error: string,
  description: string,
): void {
  if ((header(req, 'accept') ?? '').includes('text/html')) {
    sendRaw(
      res,
      status,
      `<!doctype html><title>Authorization error</title><h1>${escapeHtml(error)}</h1><p>${escapeHtml(description)}</p>`,
      'text/html; charset=utf-8',
      { headers: NO_STORE },
    );
  } else {
    sendJson(res, status, { error, error_description: description }, { headers: NO_STORE });
  }
}

function redirect(
  ctx: MockContext,
  res: ServerResponse,
  uri: string,
  params: Record<string, string>,
  state: string | undefined,
): void {
  const u = new URL(uri);
  for (const [k, v] of Object.entries(params)) u.searchParams.append(k, v);
  if (state !== undefined && !ctx.faults.on('state-not-returned')) u.searchParams.append('state', state);
  res.writeHead(302, { Location: u.toString(), ...NO_STORE, 'Content-Length': 0 });
  res.end();
}

function single(q: URLSearchParams, name: string): string | undefined | null {
  const all = q.getAll(name);
  if (all.length > 1) return null; // RFC 6749 §3.1: parameters must not be repeated
  return all[0];
}

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
  if (!certBoundTo(ctx, gate.peer, client.id)) {
    return sendOAuthError(
      res,
      oauthError('invalid_client', 'the client certificate is not the one registered for this client id'),
    );
  }
  if (client.kind !== 'code')
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
 * The redirect URI: registered for the client (exact match), the first registered one by default. The seed names it
 * redirect_url; RFC 6749's redirect_uri is read too.
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

/** manual consent: the request is kept under a consent id and the customer sees a page to approve or deny */
function consentPage(
  ctx: MockContext,
  res: ServerResponse,
  p: {
    client: RegisteredClient;
    customer: MockCustomer;
    scope: string;
    redirectUri: string;
    state: string | undefined;
    grant: CodeBinding;
  },
): void {
  const id = randomBytes(18).toString('base64url');
  pending(ctx).set(id, { ...p, expiresAt: ctx.clock.now() + 600_000 });
  const page = `<!doctype html><html><head><meta charset="utf-8"><title>Consent</title></head><body>
<h1>Authorize ${escapeHtml(p.client.id)}</h1>
<p>Customer: <strong id="customer">${escapeHtml(p.customer.name)}</strong></p>
<p>Client: <strong id="client">${escapeHtml(p.client.id)}</strong></p>
<p>Scope: <strong id="scope">${escapeHtml(p.scope)}</strong></p>
<form method="post" action="/oauth/v1/authorize/consent">
<input type="hidden" name="consent_id" value="${id}">
<button type="submit" name="decision" value="approve" id="approve">Approve</button>
<button type="submit" name="decision" value="deny" id="deny">Deny</button>
</form></body></html>`;
  sendRaw(res, 200, page, 'text/html; charset=utf-8', { headers: NO_STORE });
}

type Who = { ok: true; customer: MockCustomer } | { ok: false; error: string; description: string };

async function identifyCustomer(ctx: MockContext, q: URLSearchParams): Promise<Who> {
  const uuid = single(q, 'uuid');
  const account = single(q, 'account_id');
  if (uuid === null || account === null)
    return { ok: false, error: 'invalid_request', description: 'uuid or account_id is repeated' };
  const denied: Who = { ok: false, error: 'access_denied', description: 'the customer could not be identified' };
  const alice = ctx.data.customers[0]!;

  if (ctx.mode === 'uat') {
    if (!uuid || !account) {
      if (ctx.faults.on('authorize-uuid-optional') && !uuid && !account) return { ok: true, customer: alice };
      return { ok: false, error: 'invalid_request', description: !uuid ? 'uuid is missing' : 'account_id is missing' };
    }
    let clear: string;
    try {
      countCryptoOp('decrypt');
      const out = await compactDecrypt(account, privateKeyFromPem(ctx.pki.bankApi.privateKeyPem), {
        keyManagementAlgorithms: ['RSA-OAEP-256'],
        contentEncryptionAlgorithms: ['A256CBC-HS512'],
      });
      clear = new TextDecoder().decode(out.plaintext);
    } catch {
      return {
        ok: false,
        error: 'invalid_request',
        description: 'account_id must be encrypted to the bank key (JWE compact, RSA-OAEP-256, A256CBC-HS512)',
      };
    }
    const c = ctx.data.customers.find((x) => x.uuid === uuid);
    return c && c.accountId === clear ? { ok: true, customer: c } : denied;
  }
  // sandbox: optional clear selectors, alice by default
  let c: MockCustomer | undefined = alice;
  if (uuid) c = ctx.data.customers.find((x) => x.uuid === uuid);
  if (account) {
    const byAccount = ctx.data.customers.find((x) => x.accountId === account);
    if (uuid ? byAccount !== c : !byAccount) return denied;
    c = byAccount;
  }
  return c ? { ok: true, customer: c } : denied;
}

export async function handleConsent(
  ctx: MockContext,
  req: IncomingMessage,
  res: ServerResponse,
  gate: OkGate,
): Promise<void> {
  const read = await readBody(req, 16 * 1024);
  if (!read.ok) return errorPage(req, res, 400, 'invalid_request', 'the form is too large');
  const form = new URLSearchParams(read.body.toString('utf8'));
  const id = form.get('consent_id') ?? '';
  const p = pending(ctx).get(id);
  if (!p || ctx.clock.now() > p.expiresAt)
    return errorPage(req, res, 400, 'invalid_request', 'the consent request is unknown or expired');
  if (!certBoundTo(ctx, gate.peer, p.client.id)) {
    return sendOAuthError(
      res,
      oauthError('invalid_client', 'the client certificate is not the one registered for this client id'),
    );
  }
  pending(ctx).delete(id);
  if (form.get('decision') !== 'approve')
    return redirect(
      ctx,
      res,
      p.redirectUri,
      { error: 'access_denied', error_description: 'the customer denied the request' },
      p.state,
    );
  return redirect(ctx, res, p.redirectUri, { code: issueBoundCode(ctx, p) }, p.state);
}

// ------------------------------------------------------------------------------------------------------------
// token endpoints

/** a form body (RFC 6749 §4.1.3, §4.4.2); lenient mode also reads a JSON object as one (the rules allow it) */
async function readForm(
  ctx: MockContext,
  req: IncomingMessage,
): Promise<{ ok: true; form: URLSearchParams } | { ok: false; error: OAuthError }> {
  const type = mediaType(req);
  const jsonOk = ctx.mode === 'sandbox' && ctx.lenient && type === 'application/json';
  const charsetRefused =
    ctx.faults.on('token-form-charset-refused') && /;\s*charset=/i.test(req.headers['content-type'] ?? '');
  if ((type !== 'application/x-www-form-urlencoded' && !jsonOk) || charsetRefused) {
    return {
      ok: false,
      error: oauthError('invalid_request', 'Content-Type must be application/x-www-form-urlencoded'),
    };
  }
  const read = await readBody(req, 64 * 1024);
  if (!read.ok) return { ok: false, error: oauthError('invalid_request', 'the request body is too large') };
  const text = read.body.toString('utf8');
  if (type !== 'application/json') return { ok: true, form: new URLSearchParams(text) };
  try {
    const o = JSON.parse(text) as Record<string, unknown>;
    const form = new URLSearchParams();
    for (const [k, v] of Object.entries(o)) form.append(k, typeof v === 'string' ? v : JSON.stringify(v));
    return { ok: true, form };
  } catch {
    return { ok: false, error: oauthError('invalid_request', 'the request body is not JSON') };
  }
}

function once(form: URLSearchParams, name: string): string | undefined | null {
  const all = form.getAll(name);
  return all.length > 1 ? null : all[0];
}

/** POST /oauth/v1/token: authorization_code and refresh_token (customer sign-in OAuth API, plain answers) */
export async function handleCodeToken(
  ctx: MockContext,
  req: IncomingMessage,
  res: ServerResponse,
  gate: OkGate,
): Promise<void> {
  const basic = parseBasic(header(req, 'authorization'));
  if (!basic)
    return sendOAuthError(res, oauthError('invalid_client', 'client authentication (HTTP Basic) is required'));
  const client = authenticate(ctx, basic.id, basic.secret);
  if (!client) return sendOAuthError(res, oauthError('invalid_client', 'client authentication failed'));
  if (!certBoundTo(ctx, gate.peer, client.id)) {
    return sendOAuthError(
      res,
      oauthError('invalid_client', 'the client certificate is not the one registered for this client id'),
    );
  }
  const read = await readForm(ctx, req);
  if (!read.ok) return sendOAuthError(res, read.error);
  const form = read.form;
  if (client.kind !== 'code')
    return sendOAuthError(
      res,
      oauthError('unauthorized_client', 'the client is not registered for the customer sign-in API'),
    );
  const grantType = once(form, 'grant_type');
  let result: TokenResult;
  if (!grantType) return sendOAuthError(res, oauthError('invalid_request', 'grant_type is missing or repeated'));
  if (grantType === 'authorization_code') {
    const code = once(form, 'code');
    if (!code) return sendOAuthError(res, oauthError('invalid_request', 'code is missing or repeated'));
    const unbound = bindingHolds(ctx, code, form);
    if (unbound) return sendOAuthError(res, unbound);
    result = await ctx.tokens.exchangeCode(client.id, code);
  } else if (grantType === 'refresh_token') {
    const rt = once(form, 'refresh_token');
    const scope = once(form, 'scope');
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
  // the seed's one exception: this API's token answers are neither signed nor encrypted (token-response-sealed breaks it)
  const body = ctx.faults.on('token-response-sealed')
    ? await sealResponse(ctx, result.body, client, 'oauth')
    : result.body;
  sendJson(res, 200, body, { headers: NO_STORE });
}

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
  const basic = parseBasic(header(req, 'authorization'));
  if (!basic)
    return sendOAuthError(res, oauthError('invalid_client', 'client authentication (HTTP Basic) is required'));
  const client = authenticate(ctx, basic.id, basic.secret);
  if (!client) return sendOAuthError(res, oauthError('invalid_client', 'client authentication failed'));
  const read = await readForm(ctx, req);
  if (!read.ok) return sendOAuthError(res, read.error);
  const form = read.form;
  const meta = ccFormMetadata(form);
  if (!meta.ok) return sendOAuthError(res, oauthError('invalid_request', meta.description));
  const out = issueCc(ctx, client, endpoint, once(form, 'grant_type'), once(form, 'scope'), meta.metadata);
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
  if (!certBoundTo(ctx, gate.peer, client.id)) {
    return sendOAuthError(
      res,
      oauthError('invalid_client', 'the client certificate is not the one registered for this client id'),
    );
  }
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
  if (client.kind !== ENDPOINT_KIND[endpoint])
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
  if (!certBoundTo(ctx, gate.peer, client.id))
    return sendOAuthError(
      res,
      oauthError('invalid_client', 'the client certificate is not the one registered for this client id'),
    );
  const read = await readForm(ctx, req);
  if (!read.ok) return sendOAuthError(res, read.error);
  const token = once(read.form, 'token');
  if (!token) return sendOAuthError(res, oauthError('invalid_request', 'token is missing or repeated'));
  const t = ctx.tokens.lookup(token);
  sendJson(res, 200, t ? { active: true, token_type: 'Bearer' } : { active: false }, { headers: NO_STORE });
}
