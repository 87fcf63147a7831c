/** The `tokens` part of a CheckContext, on lib/oauth, with caches shared by a session's checks. */
import type { OpenApiModel } from '../../openapi/types.ts';
import type { SessionAnswers } from './openapi-answers.ts';
import { Inconclusive, NotRun } from '../check.ts';
import type { ClientRole, NegativeCert, TokenResult, Tokens } from './context.ts';
import type { HttpClient, HttpRequest, HttpResponse, Identity, Recorder, Redactor } from '../../http/types.ts';
import {
  buildClientCredentialsRequest,
  clientCredentials as ccRequest,
  exchangeCode as exchange,
  refresh as refreshRequest,
  sendTokenRequest,
  TokenCache,
  type OAuthContext,
} from '../../oauth/index.ts';
import type { CodeClient, CredentialsClient, Customer, FullProfile } from '../../profile/schema.ts';
import { authorizeFor } from './authorize-flow.ts';
import type { RunOptions } from '../types.ts';
import type { WireTap } from '../../http/record/tap.ts';
import { clientCredentialsReuse, reuseKey, reuseMargin, type ClientCredentialsReuse } from './cc-reuse.ts';
import type { ProxyRoute } from '../../tls/tunnel.ts';

export interface TokenState {
  /** seconds the harness moved the target's clock forward (token caches expire by target time) */
  clockOffsetSeconds: number;
  caches: Map<string, TokenCache>;
  /**
   * manual and script consents of the session, one at a time (a person answers one URL at a time, and the callback
   * listener holds one port): each waits for the one before; `consents` counts those asked for
   */
  consentQueue?: Promise<unknown>;
  consents?: number;
  /** PKCE: the code verifier of each code the session received (sent with the code's exchange) */
  verifiers?: Map<string, string>;
  /** /authorize requests a person or script would consent to (hand-made ones left out), in any consent mode */
  authorizations?: number;
  /**
   * the refresh token of each customer's cached code token, with the target time (ms) it was issued at: an
   * expired code token is renewed with it (one exchange, no consent) before a new code grant is asked for
   */
  refreshTokens?: Map<string, { token: string; at: number }>;
  /**
   * the target's traffic as the clock sees it: requests of the session in flight (the clock's own left out), and
   * the seconds the clock moved since the last one was sent or ended (ctx.clock.ensurePassed)
   */
  traffic?: { inFlight: number; movedSince: number };
  /** client-credentials answers reused within their lifetime on the target's clock (cc-reuse.ts) */
  ccReuse?: ClientCredentialsReuse;
}

interface TokenDeps extends SessionParts {
  send(req: HttpRequest): Promise<HttpResponse>;
  identity(who: ClientRole | NegativeCert | 'none'): Identity | undefined;
  /** runs a time-bound exchange under a lease on the target's clock (ctx.clock.hold): no move until it ends */
  hold?: <T>(why: string, f: () => Promise<T>) => Promise<T>;
  /** the check the tokens are for (a consent says which check asked) */
  checkId?: string;
  /** a note in that check's evidence */
  note?(text: string): void;
}

/**
 * the session's cache `name` (created on its first use): tokens handed out again by cc-reuse.ts's rule (reuseMargin:
 * one move of the run between a token's hand-out and its use cannot expire it unless it expires a fresh one too); a
 * token without a stated lifetime has the contract's (`partner` keeps only those: cc-reuse keeps the others)
 */
function cacheOf(state: TokenState, contract: FullProfile['contract'], name: 'code' | 'partner'): TokenCache {
  let c = state.caches.get(name);
  if (!c) {
    const life = contract.tokens.accessTokenSeconds;
    c = new TokenCache({
      now: () => Date.now() + state.clockOffsetSeconds * 1000,
      marginSeconds: reuseMargin(contract),
      // the partner's: an answer with a stated lifetime is not kept here (no lifetime, no default)
      ...(name === 'partner'
        ? { defaultLifetimeSeconds: 0, lifetimeOf: (t) => (t.expires_in === undefined ? life : undefined) }
        : { defaultLifetimeSeconds: life }),
    });
    state.caches.set(name, c);
  }
  return c;
}

/** what the cache keeps: the token and its lifetime, nothing else */
function cacheable(access: string, expiresIn: unknown): { access_token: string; expires_in?: number } {
  return { access_token: access, ...(typeof expiresIn === 'number' ? { expires_in: expiresIn } : {}) };
}

/** a client-credentials token request as a check asks for it (optionally without its MsgId header) */
async function clientCredentialsAs(
  deps: TokenDeps,
  octx: OAuthContext,
  role: Parameters<Tokens['clientCredentials']>[0],
  opts: Parameters<Tokens['clientCredentials']>[1] = {},
): Promise<TokenResult> {
  const { profile } = deps;
  const base = profile.clients[role];
  if (!base) throw new NotRun(`the profile has no ${role} client`);
  const client: CredentialsClient = {
    ...base,
    ...(opts.clientSecret !== undefined ? { clientSecret: opts.clientSecret } : {}),
    ...(opts.clientId !== undefined ? { clientId: opts.clientId } : {}),
  };
  const o = {
    role,
    client,
    ...(opts.scope ? { scope: opts.scope } : {}),
    ...(opts.oauthMetadata !== undefined ? { oauthMetadata: opts.oauthMetadata } : {}),
    ...(opts.identity ? { identity: opts.identity } : {}),
  };
  if (!opts.omitMsgId) {
    const request = async (): Promise<TokenResult> => (await ccRequest(octx, o)) as TokenResult;
    // a test's change of the request (another secret or client id) or a request the check judges: sent as it is
    const plain = opts.clientSecret === undefined && opts.clientId === undefined;
    if (opts.fresh || !plain) return request();
    const { state } = deps;
    state.ccReuse ??= clientCredentialsReuse(
      () => Date.now() + state.clockOffsetSeconds * 1000,
      reuseMargin(profile.contract),
    );
    const key = reuseKey({
      role,
      client,
      ...(opts.scope !== undefined ? { scope: opts.scope } : {}),
      ...(opts.oauthMetadata !== undefined ? { oauthMetadata: opts.oauthMetadata } : {}),
      ...(opts.identity ? { identity: opts.identity.name } : {}),
    });
    return state.ccReuse.get(key, request);
  }
  const req = await buildClientCredentialsRequest(profile, {
    ...o,
    identity: opts.identity ?? deps.identity(role) ?? { name: role },
  });
  const headers = Object.fromEntries(Object.entries(req.headers ?? {}).filter(([k]) => k.toLowerCase() !== 'msgid'));
  // the answer is sealed to the client like any UAT client-credentials answer: open it the same way
  const bankKey = profile.bank.apiPublicKey;
  const open =
    client.privateKey && bankKey ? { open: { decryptionKey: client.privateKey, verificationKey: bankKey } } : {};
  return (await sendTokenRequest(
    octx,
    { ...req, headers, label: `${req.label ?? 'token'} without MsgId` },
    open,
  )) as TokenResult;
}
/**
 * Renewal of the session's code tokens with the refresh token of their grant (kept per customer, with the target
 * time it was issued at): an expired code token is renewed with one exchange, no consent.
 */
function refreshRenewal(
  state: TokenState,
  profile: FullProfile,
  refresh: (refreshToken: string) => Promise<TokenResult>,
): {
  keepRefresh(uuid: string, token: unknown): void;
  renewByRefresh(uuid: string): Promise<{ access_token: string; expires_in?: number } | undefined>;
} {
  const targetNow = (): number => Date.now() + state.clockOffsetSeconds * 1000;
  const keepRefresh = (uuid: string, token: unknown): void => {
    state.refreshTokens ??= new Map();
    if (typeof token === 'string') state.refreshTokens.set(uuid, { token, at: targetNow() });
    else state.refreshTokens.delete(uuid);
  };
  return {
    keepRefresh,
    /**
     * single use (taken out first); undefined when there is none, when it has been idle for the contract's limit
     * less an hour, or when the refresh gives no access token (the caller then asks for a new code grant: also when
     * a move made after this look made it idle). An hour, not a day: the run's timeline moves the clock by the limit
     * less a day at once (TOK-11's control), after which a token kept just before is still renewed with one exchange
     */
    async renewByRefresh(uuid) {
      const kept = state.refreshTokens?.get(uuid);
      if (!kept) return undefined;
      state.refreshTokens!.delete(uuid);
      const idleMs = profile.contract.tokens.refreshIdleDays * 86_400_000 - 3_600_000;
      if (targetNow() - kept.at >= idleMs) return undefined;
      const r = await refresh(kept.token);
      const access = r.token?.access_token;
      if (r.response.status !== 200 || typeof access !== 'string') return undefined;
      keepRefresh(uuid, r.token?.refresh_token);
      return cacheable(access, r.token?.expires_in);
    },
  };
}

export function createTokens(deps: TokenDeps): Tokens {
  const { profile, state } = deps;
  const recorder: Recorder = {
    record: () => {},
    exchanges: [],
  };
  // the OAuth functions record through `send` (the check's recorder); they get an http facade for that
  const octx: OAuthContext = {
    profile,
    http: { send: (req) => deps.send(req), close: async () => {} },
    redactor: deps.redactor,
    recorder,
    identity: (role) => deps.identity(role),
  };
  const codeClient = (over: { clientSecret?: string; clientId?: string } = {}): CodeClient => ({
    ...profile.clients.code,
    ...over,
  });

  const { keepRefresh, renewByRefresh } = refreshRenewal(state, profile, (rt) => tokens.refresh(rt));
  const tokens: Tokens = {
    authorize: (customer: Customer, opts = {}) => authorizeFor(deps, state, customer, opts),
    async exchangeCode(code, opts = {}) {
      const { omitVerifier, ...client } = opts;
      const codeVerifier = omitVerifier ? undefined : state.verifiers?.get(code);
      return (await exchange(octx, {
        code,
        client: codeClient(client),
        ...(codeVerifier ? { codeVerifier } : {}),
      })) as TokenResult;
    },
    exchangeFields(code) {
      const verifier = state.verifiers?.get(code);
      const redirect = profile.target.oauth.redirectParameter === 'redirect_uri';
      return {
        ...(verifier ? { code_verifier: verifier } : {}),
        ...(redirect ? { redirect_uri: profile.clients.code.redirectUri } : {}),
      };
    },
    async refresh(refreshToken, opts = {}) {
      return (await refreshRequest(octx, { refreshToken, client: codeClient(opts) })) as TokenResult;
    },
    async codeGrant(customer, opts = {}) {
      const a = await tokens.authorize(customer, opts);
      if (!a.code) {
        throw new Inconclusive(`/authorize gave no code: ${a.outcome}`);
      }
      const r = await tokens.exchangeCode(a.code);
      const access = r.token?.access_token;
      if (typeof access !== 'string')
        throw new Inconclusive(`the code exchange gave no access token (HTTP ${r.response.status})`);
      const refresh = typeof r.token?.refresh_token === 'string' ? r.token.refresh_token : undefined;
      return { ...r, code: a.code, access, ...(refresh ? { refresh } : {}) };
    },
    async codeToken(customer) {
      const t = await cacheOf(state, profile.contract, 'code').get(customer.uuid, async () => {
        const renewed = await renewByRefresh(customer.uuid);
        if (renewed) return renewed;
        const g = await tokens.codeGrant(customer);
        keepRefresh(customer.uuid, g.refresh);
        return cacheable(g.access, g.token?.expires_in);
      });
      return t.access_token;
    },
    clientCredentials: (role, opts = {}) => clientCredentialsAs(deps, octx, role, opts),
    /**
     * the plain partner client-credentials token (cc-reuse.ts keeps an answer with a stated lifetime, aged from its
     * own request); an answer without one is kept here with the contract's lifetime, by the same rule
     */
    async partnerToken() {
      const t = await cacheOf(state, profile.contract, 'partner').get('partner', async () => {
        const r = await tokens.clientCredentials('partner');
        const access = r.token?.access_token;
        if (typeof access !== 'string')
          throw new Inconclusive(`the partner token request gave no access token (HTTP ${r.response.status})`);
        return cacheable(access, r.token?.expires_in);
      });
      return t.access_token;
    },
  };
  return underLeases(tokens, deps.hold);
}

/**
 * the target's clock stays still while a code waits for its exchange and while a refresh token is exchanged (a
 * kept one is renewed within its idle limit): no other check's move can expire them in between (session.ts)
 */
function underLeases(tokens: Tokens, hold: TokenDeps['hold']): Tokens {
  if (!hold) return tokens;
  const { codeGrant, refresh } = tokens;
  tokens.codeGrant = (c, o) => hold('a code between /authorize and its exchange', () => codeGrant(c, o));
  tokens.refresh = (rt, o) => hold('a refresh token exchanged within its limits', () => refresh(rt, o));
  return tokens;
}

/** What the session hands its token clients (and every check context). */
export interface SessionParts {
  profile: FullProfile;
  options: RunOptions;
  /** the bank's OpenAPI document (HarnessRuntime.openapi), when the profile names one */
  openapi?: OpenApiModel;
  /** every answer to the API judged against that document (openapi-answers.ts) */
  answers?: SessionAnswers;
  redactor: Redactor;
  http: HttpClient;
  state: TokenState;
  /** --har's wire tap (lib/http/transport.ts): the bursts' exchanges are handed to it too */
  tap?: WireTap;
  /** --proxy's route (lib/http/transport.ts): the bursts' connections and the TLS probes through it */
  proxy?: ProxyRoute;
}
