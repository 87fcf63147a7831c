/**
 * Token endpoint clients. Each request has an exported builder (so a check can mutate it before sending it)
 * and a function that builds, sends and reads the answer.
 *
 *  - authorization_code / refresh_token (customer sign-in OAuth API): POST form, Basic auth, plain JSON answer,
 *    in both environments (specification §4.3, §5.4 rule 4);
 *  - client_credentials: sandbox = Basic + form; UAT = JSON {grant_type, scope, oauth_metadata?} sealed (JWS in
 *    JWE, lib/jose seal), X-Gateway-Client-Id/-Secret, MsgId; the sealed answer is opened with the client key and
 *    verified with the bank key (specification §4.4).
 * Every token, refresh token and id token seen is registered with the redactor at once.
 */
import { randomUUID } from 'node:crypto';
import { exchangeOf } from '../http/record/exchanges.ts';
import type { HttpRequest, Identity, Redactor } from '../http/types.ts';
import { classify, JWS_ALG, open, seal } from '../jose/index.ts';
import { rememberInner } from '../jose/sent.ts';
import type { CodeClient, CredentialsClient, FullProfile } from '../profile/schema.ts';
import { basicAuth, clientIdentity, clientOf, identityIn, tokenUrl } from './context.ts';
import { OAuthError, type OAuthContext, type TokenResponse, type TokenResult } from './types.ts';

const FORM = 'application/x-www-form-urlencoded';

// ---------------------------------------------------------------------------------------------------------
// builders

export interface ExchangeCodeOptions {
  code: string;
  /** default: profile.clients.code (pass a copy with another secret to test client authentication) */
  client?: CodeClient;
  /** sent as redirect_uri when given, or always when the profile's redirect parameter is redirect_uri (RFC 6749 §4.1.3) */
  redirectUri?: string;
  identity?: Identity;
  /** PKCE (RFC 7636 §4.5): the code_verifier of the code's challenge */
  codeVerifier?: string;
}

/** a request to the customer sign-in token endpoint: form body, Basic client authentication (both environments) */
function formTokenRequest(
  profile: FullProfile,
  client: CodeClient,
  form: URLSearchParams,
  identity: Identity | undefined,
  label: string,
): HttpRequest {
  return {
    method: 'POST',
    url: tokenUrl(profile, 'token'),
    headers: {
      authorization: basicAuth(client.clientId, client.clientSecret),
      'content-type': FORM,
      accept: 'application/json',
    },
    body: form.toString(),
    identity: identity ?? clientIdentity(profile, 'code', client),
    label,
  };
}

export function buildExchangeCodeRequest(profile: FullProfile, o: ExchangeCodeOptions): HttpRequest {
  const client = o.client ?? (clientOf(profile, 'code') as CodeClient);
  const form = new URLSearchParams({ grant_type: 'authorization_code', code: o.code });
  const redirectUri =
    o.redirectUri ?? (profile.target.oauth.redirectParameter === 'redirect_uri' ? client.redirectUri : undefined);
  if (redirectUri) form.set('redirect_uri', redirectUri);
  if (o.codeVerifier) form.set('code_verifier', o.codeVerifier);
  return formTokenRequest(profile, client, form, o.identity, 'token (authorization_code)');
}

export interface RefreshOptions {
  refreshToken: string;
  client?: CodeClient;
  scope?: string;
  identity?: Identity;
}

export function buildRefreshRequest(profile: FullProfile, o: RefreshOptions): HttpRequest {
  const client = o.client ?? (clientOf(profile, 'code') as CodeClient);
  const form = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: o.refreshToken });
  if (o.scope) form.set('scope', o.scope);
  return formTokenRequest(profile, client, form, o.identity, 'token (refresh_token)');
}

export interface ClientCredentialsOptions {
  /** which registered client (default partner); its tokenEndpoint picks the path */
  role?: 'partner' | 'internal';
  /** default: the role's client from the profile */
  client?: CredentialsClient;
  scope?: string;
  /** default: the client's oauthMetadata (UAT only); null = send none */
  oauthMetadata?: Record<string, unknown> | null;
  /**
   * 'sealed'     JSON sealed (UAT rule, default in UAT)
   * 'plain-json' the same JSON and headers, unsealed (a check that sealing is required)
   * 'form'       Basic + form (sandbox rule, default in sandbox)
   */
  style?: 'sealed' | 'plain-json' | 'form';
  /** UAT MsgId header (default: a fresh UUID) */
  msgId?: string;
  identity?: Identity;
}

export async function buildClientCredentialsRequest(
  profile: FullProfile,
  o: ClientCredentialsOptions = {},
): Promise<HttpRequest> {
  const role = o.role ?? 'partner';
  const client = o.client ?? (clientOf(profile, role) as CredentialsClient);
  const scope = o.scope ?? client.scope;
  const style = o.style ?? (profile.environment === 'uat' ? 'sealed' : 'form');
  const base = {
    method: 'POST',
    url: tokenUrl(profile, client.tokenEndpoint),
    identity: o.identity ?? clientIdentity(profile, role, client),
    label: `token (client_credentials, ${role}, ${style})`,
  };
  if (style === 'form') {
    return {
      ...base,
      headers: {
        authorization: basicAuth(client.clientId, client.clientSecret),
        'content-type': FORM,
        accept: 'application/json',
      },
      body: new URLSearchParams({ grant_type: 'client_credentials', scope }).toString(),
    };
  }
  const metadata = o.oauthMetadata === null ? undefined : (o.oauthMetadata ?? client.oauthMetadata);
  const payload = { grant_type: 'client_credentials', scope, ...(metadata ? { oauth_metadata: metadata } : {}) };
  const headers = {
    'X-Gateway-Client-Id': client.clientId,
    'X-Gateway-Client-Secret': client.clientSecret,
    'Content-Type': 'application/json',
    Accept: 'application/json',
    MsgId: o.msgId ?? randomUUID(),
  };
  if (style === 'plain-json') return { ...base, headers, body: JSON.stringify(payload) };
  const signingKey = client.privateKey;
  const encryptionKey = profile.bank.apiPublicKey;
  if (!signingKey)
    throw new OAuthError('CONFIG_MISSING', `clients.${role}.privateKey is needed to seal the token request`);
  if (!encryptionKey) throw new OAuthError('CONFIG_MISSING', 'bank.apiPublicKey is needed to seal the token request');
  // remembered for a run's HAR (lib/jose/sent.ts): the payload is redacted there like any body
  const sealed = rememberInner(
    await seal(payload, { signingKey, encryptionKey }),
    [{ alg: JWS_ALG }],
    JSON.stringify(payload),
  );
  return { ...base, headers, body: JSON.stringify(sealed) };
}

// ---------------------------------------------------------------------------------------------------------
// sending

/** registers every token-like member of a token answer with the redactor */
export function registerTokens(redactor: Redactor, body: unknown): void {
  if (typeof body !== 'object' || body === null) return;
  const b = body as Record<string, unknown>;
  for (const [name, kind] of [
    ['access_token', 'token'],
    ['refresh_token', 'refresh-token'],
    ['id_token', 'token'],
  ] as const) {
    const v = b[name];
    if (typeof v === 'string') redactor.add(v, kind);
  }
}

export interface SendTokenOptions {
  /** open a JWE answer with these keys (UAT client credentials); a plain answer is read as it is */
  open?: { decryptionKey: string; verificationKey: string };
}

/** Sends a (possibly mutated) token request and reads the answer. */
export async function sendTokenRequest(
  ctx: OAuthContext,
  req: HttpRequest,
  o: SendTokenOptions = {},
): Promise<TokenResult> {
  const response = await ctx.http.send(req, ctx.recorder);
  registerTokens(ctx.redactor, response.json);
  const result: TokenResult = { response, body: response.json };
  if (o.open && classify(response.text).kind === 'jwe') {
    const opened = await open(response.text, { ...o.open, policy: 'response' });
    result.opened = opened;
    result.body = opened.ok ? opened.payload : undefined;
    if (opened.ok) {
      registerTokens(ctx.redactor, opened.payload);
      const ex = exchangeOf(response);
      if (ex?.jose) ex.jose.opened = JSON.parse(ctx.redactor.redact(JSON.stringify(opened.payload ?? null))) as unknown;
    }
  }
  const b = result.body as Record<string, unknown> | undefined;
  if (
    response.status >= 200 &&
    response.status < 300 &&
    b &&
    typeof b === 'object' &&
    typeof b.access_token === 'string'
  ) {
    result.token = b as TokenResponse;
  }
  return result;
}

export async function exchangeCode(ctx: OAuthContext, o: ExchangeCodeOptions): Promise<TokenResult> {
  ctx.redactor.add(o.code, 'code');
  if (o.codeVerifier) ctx.redactor.add(o.codeVerifier, 'code-verifier');
  return sendTokenRequest(
    ctx,
    buildExchangeCodeRequest(ctx.profile, { ...o, identity: o.identity ?? identityIn(ctx, 'code') }),
  );
}

export async function refresh(ctx: OAuthContext, o: RefreshOptions): Promise<TokenResult> {
  ctx.redactor.add(o.refreshToken, 'refresh-token');
  return sendTokenRequest(
    ctx,
    buildRefreshRequest(ctx.profile, { ...o, identity: o.identity ?? identityIn(ctx, 'code') }),
  );
}

export async function clientCredentials(ctx: OAuthContext, o: ClientCredentialsOptions = {}): Promise<TokenResult> {
  const role = o.role ?? 'partner';
  const client = o.client ?? (clientOf(ctx.profile, role) as CredentialsClient);
  const req = await buildClientCredentialsRequest(ctx.profile, {
    ...o,
    client,
    identity: o.identity ?? identityIn(ctx, role),
  });
  const bankKey = ctx.profile.bank.apiPublicKey;
  const openKeys =
    ctx.profile.environment === 'uat' && client.privateKey && bankKey
      ? { decryptionKey: client.privateKey, verificationKey: bankKey }
      : undefined;
  return sendTokenRequest(ctx, req, openKeys ? { open: openKeys } : {});
}

/** The token of a result, or an OAuthError naming the status and the OAuth error code (never a secret). */
export function requireToken(r: TokenResult, what = 'token request'): TokenResponse {
  if (r.token) return r.token;
  const b = r.body as Record<string, unknown> | undefined;
  const err = b && typeof b.error === 'string' ? ` ${b.error.slice(0, 64)}` : '';
  const jose = r.opened && !r.opened.ok ? ` (sealed answer refused: ${r.opened.code})` : '';
  throw new OAuthError('TOKEN_REQUEST_FAILED', `${what}: HTTP ${r.response.status}${err}${jose}`);
}
