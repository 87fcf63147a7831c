/**
 * Helpers of the tokens suite: fresh grants that keep their code, reading OAuth error answers (opened when the
 * UAT client-credentials endpoint sealed them), probing a token on the API, and reading /authorize answers.
 */
import {
  CheckFailed,
  Inconclusive,
  ensureStatus,
  ensureValue,
  isObject,
  show,
  statusFailure,
} from '../../lib/engine/check.ts';
import { failure } from '../../lib/engine/failure.ts';
import type { ApiResponse, AuthorizeAnswer, CheckContext, TokenResult } from '../../lib/engine/session/context.ts';
import type { Customer } from '../../lib/profile/schema.ts';
import { introspectionCaller, introspectionRequest } from '../../lib/oauth/index.ts';
import { clip } from '../shared.ts';

/** a host that is never registered for any client (no request is ever sent to it: redirects are not followed) */
export const UNREGISTERED_REDIRECT = 'https://unregistered.redirect.invalid/callback';

export interface FreshGrant {
  code: string;
  access: string;
  refresh?: string;
}

/** authorize + exchange, keeping the code (ctx.tokens.codeGrant: anything short of a token is inconclusive) */
export async function freshGrant(ctx: CheckContext, customer: Customer): Promise<FreshGrant> {
  const g = await ctx.tokens.codeGrant(customer);
  return { code: g.code, access: g.access, ...(g.refresh ? { refresh: g.refresh } : {}) };
}

/** a fresh grant that has a refresh token (its absence is TOK-02's rule: inconclusive here) */
export async function grantWithRefresh(
  ctx: CheckContext,
  customer: Customer,
): Promise<FreshGrant & { refresh: string }> {
  const g = await freshGrant(ctx, customer);
  if (!g.refresh) throw new Inconclusive('the code exchange gave no refresh token (TOK-02)');
  return { ...g, refresh: g.refresh };
}

/** the body of a token answer: the opened payload when it came sealed, else the JSON */
export function answerOf(r: TokenResult): unknown {
  if (r.opened?.ok) return r.opened.payload;
  return r.response.json;
}

/** the RFC 6749 §5.2 `error` of a token answer */
export function errorOf(r: TokenResult): string | undefined {
  const b = answerOf(r);
  return isObject(b) && typeof b.error === 'string' ? b.error : undefined;
}

/** a token request that must be refused with `error` (and one of `statuses`), issuing nothing */
export function expectTokenRefused(r: TokenResult, error: string, statuses: readonly number[], what: string): void {
  const got = errorOf(r);
  const answer = { status: r.response.status, raw: r.response };
  if (r.token !== undefined || (r.response.status >= 200 && r.response.status < 300))
    throw CheckFailed.of(
      statusFailure(answer, statuses, `${what}: accepted (HTTP ${r.response.status}, a token was issued)`, {
        expected: `HTTP ${statuses.join(' or ')} ${error}`,
        operation: 'token',
      }),
    );
  if (!statuses.includes(r.response.status))
    throw CheckFailed.of(
      statusFailure(
        answer,
        statuses,
        `${what}: expected HTTP ${statuses.join(' or ')}, observed ${r.response.status} (${got ?? 'no error code'})`,
        { operation: 'token' },
      ),
    );
  ensureValue(
    got === error,
    'error',
    `${what}: expected error "${error}", observed ${got === undefined ? 'none' : `"${got}"`}`,
    error,
    got ?? clip(show(answerOf(r)), 200),
  );
}

/** a token request that must succeed as the control of a refusal: otherwise the check cannot isolate its cause */
export function controlToken(r: TokenResult, what: string): string {
  const access = r.token?.access_token;
  if (typeof access !== 'string')
    throw new Inconclusive(`${what} (control) failed: HTTP ${r.response.status} ${errorOf(r) ?? ''}`);
  return access;
}

/** one cheap API call with a token: GET of an unknown transfer id (404 means the token was accepted) */
export function probe(
  ctx: CheckContext,
  token: string | null,
  label: string,
  headers?: Record<string, string>,
): Promise<ApiResponse> {
  return ctx.api({ op: 'get', token, label, ...(headers ? { headers } : {}) });
}

/** a probe that must get past the token and scope checks (a control) */
export function expectTokenWorks(res: ApiResponse, what: string): void {
  if (res.status === 401 || res.status === 403 || res.status === 429) {
    throw new Inconclusive(`${what} (control): refused with HTTP ${res.status}; the check cannot isolate its cause`);
  }
  // the probe is a GET of an unknown transfer: 404 (or a 2xx) shows the token was accepted; a 5xx shows nothing
  if (res.status !== 404 && (res.status < 200 || res.status >= 300))
    throw new Inconclusive(`${what} (control): answered HTTP ${res.status}, which does not show the token accepted`);
}

/** the requests without a token of a session (the same run), by what they ask: their status, asked once */
const withoutTokens = new WeakMap<object, Map<'get' | 'validate', Promise<number>>>();

/**
 * the status the API answers without a token: to the probe's GET ('get'), or to a validate call ('validate', a path
 * with no resource to look up: a 404 there means the path is missing); asked once a session
 */
export function withoutToken(ctx: CheckContext, what: 'get' | 'validate'): Promise<number> {
  let m = withoutTokens.get(ctx.profile);
  if (!m) withoutTokens.set(ctx.profile, (m = new Map()));
  let p = m.get(what);
  if (!p) {
    const label = `${what === 'get' ? 'the probe' : 'validate'} without a token (does the path gate tokens?)`;
    p = (
      what === 'get'
        ? probe(ctx, null, label)
        : ctx.api({ op: 'validate', token: null, body: ctx.transferBody(ctx.customer(0)), label })
    ).then((r) => r.status);
    m.set(what, p);
    p.catch(() => m.delete(what));
  }
  return p;
}

/**
 * a probe that must show the token accepted (a control): 404 or 2xx with the token, where the same request without
 * a token is refused (401 or 403) in the same run; otherwise the answer does not show the token was judged at all
 */
export async function expectTokenAccepted(ctx: CheckContext, res: ApiResponse, what: string): Promise<void> {
  expectTokenWorks(res, what);
  const without = await withoutToken(ctx, 'get');
  if (without === 401 || without === 403) return;
  throw new Inconclusive(
    `${what} (control): HTTP ${res.status} does not show the token accepted: the same request without a token answers HTTP ${without}${without === 404 ? ' too (the path is missing or does not gate tokens: configuration?)' : ''}`,
  );
}

/**
 * a probe with a dead token: 401. A 404 where the API's own validate path answers 404 without a token too is a
 * configuration error (the API is not at the profile's URL), not the rule failing: inconclusive, with the URL tried
 */
export async function expectTokenDead(ctx: CheckContext, res: ApiResponse, what: string): Promise<void> {
  if (res.status === 429)
    throw new Inconclusive(`${what}: refused for the quota (HTTP 429) before the token was judged`);
  if (res.status === 404 && (await withoutToken(ctx, 'validate')) === 404)
    throw new Inconclusive(
      `${what}: HTTP 404, and POST ${ctx.url('validate')} without a token answers 404 too: the API's paths are not where the profile says (configuration: target.baseUrl, paths.transfersBasepath)`,
    );
  ensureStatus(res, 401, what);
}

/** the auth-params of a `WWW-Authenticate: Bearer ...` challenge (undefined when there is no Bearer challenge) */
export function bearerChallenge(headers: Record<string, string>): Record<string, string> | undefined {
  const h = headers['www-authenticate'];
  if (h === undefined) return undefined;
  const m = /(?:^|,\s*)Bearer(?:\s+(.*))?$/i.exec(h.trim());
  if (!m) return undefined;
  const params: Record<string, string> = {};
  for (const p of (m[1] ?? '').matchAll(/([A-Za-z_][A-Za-z0-9_-]*)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]+))/g)) {
    params[p[1]!.toLowerCase()] = p[2] ?? p[3] ?? '';
  }
  return params;
}

// ---- /authorize answers ------------------------------------------------------------------------------------

export type { AuthorizeAnswer };

function sameEndpoint(a: string, b: string): boolean {
  try {
    const x = new URL(a);
    const y = new URL(b);
    return x.origin === y.origin && x.pathname === y.pathname;
  } catch {
    return false;
  }
}

/** the code or error went to `uri` (same origin and path): the redirect's Location, or the consent's callback */
export function redirectsTo(a: AuthorizeAnswer, uri: string): boolean {
  return a.location !== undefined && sameEndpoint(a.location, uri);
}

/** the RFC 6749 `error` of a redirect: in the query (§4.1.2.1), or in the fragment (§4.2.2.1, response_type=token) */
function redirectError(location: string): string | null {
  const url = new URL(location);
  return url.searchParams.get('error') ?? new URLSearchParams(url.hash.replace(/^#/, '')).get('error');
}

/**
 * /authorize refused the request: no code; either an error page (4xx) or a redirect (or a consent's callback) to the
 * REGISTERED redirect URI that carries `error` (RFC 6749 §4.1.2.1). A consent page (200) or a code is acceptance.
 */
export function expectAuthorizeRefused(ctx: CheckContext, a: AuthorizeAnswer, what: string): void {
  const registered = ctx.profile.clients.code.redirectUri;
  ensureValue(a.code === undefined, 'code', `${what}: accepted, a code was issued`, 'an error, no code', a.outcome);
  if (a.location !== undefined) {
    ensureValue(
      redirectsTo(a, registered),
      'redirect location',
      `${what}: the error was redirected to an unregistered URI`,
      'the registered redirect URI or an error page',
      ctx.redact(a.location),
    );
    const err = redirectError(a.location);
    ensureValue(
      err !== null && err.length > 0,
      'error',
      `${what}: redirected without an error parameter`,
      'error=...',
      ctx.redact(a.location),
    );
    return;
  }
  const status = a.response?.status;
  if (status !== undefined && status >= 400 && status < 500) return;
  // no status list: any 4xx is the refusal; a generic record naming the operation
  throw CheckFailed.of(
    failure(
      'generic',
      `${what}: expected an error (4xx, or a redirect carrying error), observed ${a.outcome}`,
      {},
      {
        expected: '4xx or a redirect with error',
        observed: a.outcome,
        operation: 'authorize',
      },
    ),
  );
}

/** another customer of the profile than `c` (inconclusive when there is none) */
export function otherThan(ctx: CheckContext, c: Customer): Customer {
  const o = ctx.profile.customers.find((x) => x.uuid !== c.uuid && x.accountId !== c.accountId);
  if (!o) throw new Inconclusive('the profile has a single customer: a second one is needed');
  return o;
}

/**
 * RFC 7662: whether a token is active, asked of the profile's introspection endpoint as the client it names
 * (target.oauth.introspection.client), else as the code client (Basic); undefined when the profile names no
 * endpoint. An answer without a boolean `active` is inconclusive. Said in the evidence, with who asked.
 */
export async function introspect(ctx: CheckContext, token: string, what: string): Promise<boolean | undefined> {
  const caller = introspectionCaller(ctx.profile);
  if (!caller) return undefined;
  const { headers, body } = introspectionRequest(ctx.profile, caller, token);
  const identity = caller.named ? caller.identity : ctx.identity('code');
  const res = await ctx.send({
    method: 'POST',
    url: caller.url,
    headers,
    body,
    label: `introspection: ${what}`,
    ...(identity ? { identity } : {}),
  });
  const b = res.json;
  if (res.status !== 200 || !isObject(b) || typeof b.active !== 'boolean')
    throw new Inconclusive(
      `introspection of ${what} (${caller.url}, as client ${caller.clientId}) answered HTTP ${res.status} without a boolean "active"`,
    );
  ctx.note(
    `evidence by RFC 7662 introspection (${caller.url}, as client ${caller.clientId}): ${what}: active ${String(b.active)}`,
  );
  return b.active;
}

/**
 * The reason an introspection control (a token just issued, so active) came back inactive: RFC 7662 §2.2 lets a
 * server answer `{"active": false}` for a token the caller may not see, so nothing is known of the token.
 */
export function inactiveControl(ctx: CheckContext, what: string): Inconclusive {
  const caller = introspectionCaller(ctx.profile);
  const who = caller ? `client ${caller.clientId}${caller.named ? '' : ' (the code client)'}` : 'the code client';
  const hint = caller?.named
    ? 'check that target.oauth.introspection.client is a client the server lets introspect these tokens'
    : "name the client it lets introspect (often a resource server's) in target.oauth.introspection.client";
  return new Inconclusive(
    `${what} (control): introspection as ${who} says it is not active; the server may not let this caller see the ` +
      `token (RFC 7662 §2.2 allows {"active": false} then): ${hint}`,
  );
}

/** the positive control of a hand-made /authorize request: the same request, unaltered, gives a code */
export async function authorizeControl(ctx: CheckContext, customer: Customer): Promise<void> {
  const ok = await ctx.tokens.authorize(customer);
  if (!ok.code) throw new Inconclusive(`control: /authorize gave no code: ${ok.outcome}`);
}
