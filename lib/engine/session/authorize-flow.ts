/**
 * /authorize as a check asks for it, in every consent mode, judged from what the target answered:
 *  - auto consent, and any hand-made request: the harness sends it itself; the answer (and its Location) is evidence;
 *  - manual or script consent: the person's browser or the login script reaches the callback, whose URL is the
 *    Location the target sent (never a made-up status); a hand-made request is sent directly first: a refusal there
 *    (4xx, or a redirect carrying the code or error) is the answer, otherwise the crafted URL goes to the consent.
 * The script is told who consents and which check asked (HARNESS_CONSENT_* in its environment).
 */
import { Inconclusive } from '../check.ts';
import type { AuthorizeAnswer, CodeGrantOptions } from './context.ts';
import type { HttpRequest, HttpResponse, Identity, Redactor } from '../../http/types.ts';
import {
  buildAuthorizeRequest,
  consentTo,
  newCodeVerifier,
  pkceChallenge,
  OAuthError,
  parseCallback,
  type AuthorizeResult,
  type Callback,
  type ConsentHooks,
} from '../../oauth/index.ts';
import type { Customer, FullProfile } from '../../profile/schema.ts';

/** what the flow needs of the session (lib/engine/session/tokens.ts TokenDeps holds it) */
export interface AuthorizeDeps {
  profile: FullProfile;
  redactor: Redactor;
  send(req: HttpRequest): Promise<HttpResponse>;
  identity(who: 'code'): Identity | undefined;
  /** the check that asks (told to the person or script) */
  checkId?: string;
  /** a note in the asking check's evidence (redacted there) */
  note?(text: string): void;
}

/** the session's count and queue of consents (lib/engine/session/tokens.ts TokenState) */
export interface ConsentState {
  consentQueue?: Promise<unknown>;
  consents?: number;
  /** PKCE: the code verifier of each code the session received (sent with the code's exchange) */
  verifiers?: Map<string, string>;
}

/** runs `give` after every consent queued before it (whatever their outcome) */
function oneConsentAtATime<T>(state: ConsentState, give: () => Promise<T>): Promise<T> {
  const turn = (state.consentQueue ?? Promise.resolve()).then(give, give);
  state.consentQueue = turn.catch(() => {});
  return turn;
}

function said(c: Callback): string {
  if (c.code) return 'a code';
  if (c.error) return `error=${c.error}${c.errorDescription ? ` (${c.errorDescription})` : ''}`;
  return 'neither a code nor an error';
}

/** the answer of a request the harness sent itself: its status, and the code or error its redirect carries */
function directAnswer(deps: AuthorizeDeps, response: HttpResponse, redirectUri: string): AuthorizeAnswer {
  const location = response.headers.location;
  if (response.status < 300 || response.status >= 400 || !location)
    return {
      response,
      outcome: `HTTP ${response.status}${response.status >= 300 && response.status < 400 ? ' without Location' : ''}`,
    };
  const cb = parseCallback(location, redirectUri);
  if (cb.code) deps.redactor.add(cb.code, 'code');
  return {
    response,
    location,
    ...callbackFields(cb),
    outcome: `HTTP ${response.status} to ${deps.redactor.redact(location)}: ${said(cb)}`,
  };
}

function callbackFields(cb: Callback): Omit<AuthorizeAnswer, 'outcome' | 'response' | 'location'> {
  return {
    ...(cb.code !== undefined ? { code: cb.code } : {}),
    ...(cb.state !== undefined ? { state: cb.state } : {}),
    ...(cb.error !== undefined ? { error: cb.error } : {}),
    ...(cb.errorDescription !== undefined ? { errorDescription: cb.errorDescription } : {}),
  };
}

/**
 * a redirect the harness saw that ends the request (no person or script needed): it carries a code or an error, or
 * goes to the registered or requested redirect URI; anything else (a 2xx page, a redirect to a sign-in page) needs
 * the consent
 */
function decided(a: AuthorizeAnswer, redirectUris: readonly string[]): boolean {
  const status = a.response?.status ?? 0;
  if (status >= 400) return true;
  if (!a.location) return false;
  if (a.code !== undefined || a.error !== undefined) return true;
  const u = new URL(a.location, redirectUris[0]);
  return redirectUris.some((r) => {
    const x = new URL(r);
    return x.origin === u.origin && x.pathname === u.pathname;
  });
}

function hooksFor(deps: AuthorizeDeps, customer: Customer, n: number, what: string): ConsentHooks {
  const consent = deps.profile.target.consent;
  const asker = deps.checkId ? ` (asked by ${deps.checkId})` : '';
  return {
    prompt: (url) =>
      process.stderr.write(
        `certify: ${deps.profile.name}: consent #${n}${asker}: sign in as customer ${customer.name} (uuid ${customer.uuid}) and ${what}:\n  ${url}\n`,
      ),
    env: {
      HARNESS_CONSENT_CUSTOMER: customer.name,
      HARNESS_CONSENT_CUSTOMER_UUID: customer.uuid,
      HARNESS_CONSENT_CHECK: deps.checkId ?? '',
      HARNESS_CONSENT_NUMBER: String(n),
    },
    // the profile's folder (the loader sets it), where its `file:` references are resolved too
    ...(consent.mode === 'script' && consent.workingDirectory ? { cwd: consent.workingDirectory } : {}),
  };
}

/** a consent that did not end in a callback: the check cannot go on (what failed, said) */
function consentFailed(e: unknown, n: number): never {
  if (e instanceof OAuthError) throw new Inconclusive(`consent #${n} gave no callback: ${e.message}`);
  throw e;
}

/** the consent's callback as an answer, noted in the evidence with its error, if any */
function consentAnswer(deps: AuthorizeDeps, r: AuthorizeResult, n: number): AuthorizeAnswer {
  const location = r.callbackUrl;
  const outcome = `consent #${n} (${deps.profile.target.consent.mode}): callback ${location ? deps.redactor.redact(location) : 'none'}: ${said(r)}`;
  deps.note?.(outcome);
  return {
    ...(r.response ? { response: r.response } : {}),
    ...(location ? { location } : {}),
    viaConsent: true,
    ...callbackFields(r),
    outcome,
  };
}

/**
 * the /authorize request for the customer, with the check's hand-made changes (opts.query, opts.redirectUrl), and
 * the PKCE verifier of its challenge (profile target.oauth.pkce, or opts.pkce)
 */
async function requestFor(
  deps: AuthorizeDeps,
  customer: Customer,
  opts: CodeGrantOptions,
): Promise<{ req: HttpRequest; verifier?: string }> {
  const identity = deps.identity('code');
  const verifier = deps.profile.target.oauth.pkce === 'S256' || opts.pkce ? newCodeVerifier() : undefined;
  if (verifier) deps.redactor.add(verifier, 'code-verifier');
  const req = await buildAuthorizeRequest(deps.profile, {
    customer,
    client: deps.profile.clients.code,
    ...(opts.scope ? { scope: opts.scope } : {}),
    ...(opts.state ? { state: opts.state } : {}),
    ...(opts.redirectUrl ? { sendRedirectUrl: true, redirectUrl: opts.redirectUrl } : {}),
    ...(identity ? { identity } : {}),
    ...(verifier ? { codeChallenge: pkceChallenge(verifier) } : {}),
  });
  const url = new URL(req.url);
  for (const [k, v] of Object.entries(opts.query ?? {})) {
    if (v === null) url.searchParams.delete(k);
    else url.searchParams.set(k, v);
  }
  return { req: { ...req, url: url.toString(), label: 'authorize' }, ...(verifier ? { verifier } : {}) };
}

/** keeps the verifier for the code's exchange; warns when the server ignored the redirect parameter sent */
function remember(state: ConsentState, a: AuthorizeAnswer, verifier?: string): AuthorizeAnswer {
  if (a.code && verifier) (state.verifiers ??= new Map()).set(a.code, verifier);
  return a;
}

/** a redirect to the registered URI although another was asked for: the server ignored the parameter (a warning) */
function ignoredRedirect(deps: AuthorizeDeps, a: AuthorizeAnswer, asked: string | undefined): void {
  const registered = deps.profile.clients.code.redirectUri;
  if (!asked || asked === registered || !a.location) return;
  const u = new URL(a.location, registered);
  const r = new URL(registered);
  if (u.origin !== r.origin || u.pathname !== r.pathname) return;
  const param = deps.profile.target.oauth.redirectParameter;
  const text = `warning: the server ignored the ${param} sent (${asked}): it answered to the registered redirect URI as if none had been sent${param === 'redirect_url' ? '; if its parameter is redirect_uri, set target.oauth.redirectParameter' : ''}`;
  deps.note?.(text);
  process.stderr.write(`certify: ${deps.profile.name}: ${deps.checkId ?? ''}: ${text}\n`);
}

/** the URL goes to the person or script (one at a time); the callback they reach is the answer */
function consentFor(
  deps: AuthorizeDeps,
  state: ConsentState,
  customer: Customer,
  url: string,
  how: { what: string; response?: HttpResponse },
): Promise<AuthorizeAnswer> {
  const { profile } = deps;
  const redirectUri = profile.clients.code.redirectUri;
  return oneConsentAtATime(state, async () => {
    const n = (state.consents = (state.consents ?? 0) + 1);
    const callbackUrl = await consentTo(profile, url, redirectUri, hooksFor(deps, customer, n, how.what)).catch(
      (e: unknown) => consentFailed(e, n),
    );
    const cb = parseCallback(callbackUrl, redirectUri);
    if (cb.code) deps.redactor.add(cb.code, 'code');
    return consentAnswer(deps, { ...cb, callbackUrl, ...(how.response ? { response: how.response } : {}) }, n);
  });
}

/** /authorize as a check asks for it: by the profile's consent mode (queued), or hand-made (opts.query/redirectUrl) */
export async function authorizeFor(
  deps: AuthorizeDeps,
  state: ConsentState & { authorizations?: number },
  customer: Customer,
  opts: CodeGrantOptions = {},
): Promise<AuthorizeAnswer> {
  const overrides = opts.query !== undefined || opts.redirectUrl !== undefined;
  if (!overrides) state.authorizations = (state.authorizations ?? 0) + 1;
  const { req, verifier } = await requestFor(deps, customer, opts);
  const a = await answerOf(deps, state, customer, req, opts, overrides);
  ignoredRedirect(deps, a, opts.redirectUrl);
  return remember(state, a, verifier);
}

async function answerOf(
  deps: AuthorizeDeps,
  state: ConsentState,
  customer: Customer,
  req: HttpRequest,
  opts: CodeGrantOptions,
  overrides: boolean,
): Promise<AuthorizeAnswer> {
  const mode = deps.profile.target.consent.mode;
  if (mode !== 'auto' && !overrides) return consentFor(deps, state, customer, req.url, { what: 'give consent' });
  // auto consent, or a hand-made request: sent directly; its answer decides unless the target needs the customer
  const response = await deps.send(req);
  const client = deps.profile.clients.code;
  const direct = directAnswer(deps, response, client.redirectUri);
  if (mode === 'auto' || decided(direct, [client.redirectUri, ...(opts.redirectUrl ? [opts.redirectUrl] : [])]))
    return direct;
  deps.note?.(`the hand-made /authorize request answered ${direct.outcome}: its URL goes to the consent (${mode})`);
  return consentFor(deps, state, customer, req.url, {
    what: 'give consent if the page lets you (a hand-made request)',
    response,
  });
}
