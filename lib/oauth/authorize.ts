/**
 * Authorization endpoint (specification §4.2) and the three ways to get the customer's consent:
 *  - auto:   GET /authorize without following redirects; the code is in the 302 Location;
 *  - manual: the URL is printed to stderr and a one-shot listener on the redirect URI's loopback port waits
 *            for the browser's callback (bounded by consent.timeoutSeconds);
 *  - script: the profile's command is run with the URL as its last argument and prints the callback URL
 *            on stdout (bounded by consent.timeoutSeconds).
 *
 * Query parameters: response_type=code, client_id, scope, state, redirect_url (only when asked).
 * UAT: `uuid` and `account_id` = JWE compact (RSA-OAEP-256, A256CBC-HS512) of the clear account id to the
 * bank's public key (contract). Sandbox: the specification has no customer selectors; the mock accepts `uuid` and a
 * CLEAR `account_id` as optional selectors of the test customer (a mock convention), sent by default only in
 * auto consent, so that a URL printed for a person never carries a clear account id.
 */
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { CompactEncrypt } from 'jose';
import type { HttpRequest, HttpResponse, Identity } from '../http/types.ts';
import { JWE_ALG, JWE_ENC, publicKeyFromPem } from '../jose/index.ts';
import type { CodeClient, Customer, FullProfile } from '../profile/schema.ts';
import { clientIdentity, clientOf, identityIn, oauthUrl } from './context.ts';
import { OAuthError, type OAuthContext } from './types.ts';

/** account_id for a UAT /authorize: JWE compact of the clear id to the bank's public key */
export async function encryptAccountId(accountId: string, bankPublicKeyPem: string): Promise<string> {
  return new CompactEncrypt(new TextEncoder().encode(accountId))
    .setProtectedHeader({ alg: JWE_ALG, enc: JWE_ENC })
    .encrypt(publicKeyFromPem(bankPublicKeyPem));
}

export interface AuthorizeOptions {
  customer: Customer;
  /** default: a fresh random value */
  state?: string;
  /** omit the state parameter (a check of the state rule) */
  noState?: boolean;
  scope?: string;
  client?: CodeClient;
  /** send redirect_url (only when several redirect URIs are registered; default false) */
  sendRedirectUrl?: boolean;
  /** the redirect_url value to send (default: the client's redirectUri) */
  redirectUrl?: string;
  /** sandbox: send uuid and the clear account_id (mock convention; default: only in auto consent) */
  customerSelectors?: boolean;
  /** UAT: account_id value to send instead of the encrypted customer account id */
  accountIdParam?: string;
  identity?: Identity;
  /** PKCE (RFC 7636): the S256 code_challenge to send (pkceChallenge(verifier)) */
  codeChallenge?: string;
}

/** a fresh PKCE code verifier (RFC 7636 §4.1: 43 characters of base64url) */
export function newCodeVerifier(): string {
  return randomBytes(32).toString('base64url');
}

/** the S256 code_challenge of a verifier (RFC 7636 §4.2) */
export function pkceChallenge(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

export function newState(): string {
  return randomBytes(16).toString('base64url');
}

export async function buildAuthorizeRequest(profile: FullProfile, o: AuthorizeOptions): Promise<HttpRequest> {
  const client = o.client ?? (clientOf(profile, 'code') as CodeClient);
  const q = new URLSearchParams({ response_type: 'code', client_id: client.clientId, scope: o.scope ?? client.scope });
  if (!o.noState) q.set('state', o.state ?? newState());
  // the specification's redirect_url only when asked; RFC 6749's redirect_uri in every request (products ask for it)
  const param = profile.target.oauth.redirectParameter;
  if (o.sendRedirectUrl || param === 'redirect_uri') q.set(param, o.redirectUrl ?? client.redirectUri);
  if (o.codeChallenge) {
    q.set('code_challenge', o.codeChallenge);
    q.set('code_challenge_method', 'S256');
  }
  if (profile.environment === 'uat') {
    let accountId = o.accountIdParam;
    if (accountId === undefined) {
      const key = profile.bank.apiPublicKey;
      if (!key) throw new OAuthError('CONFIG_MISSING', 'bank.apiPublicKey is needed to encrypt account_id');
      accountId = await encryptAccountId(o.customer.accountId, key);
    }
    q.set('uuid', o.customer.uuid);
    q.set('account_id', accountId);
  } else if (o.customerSelectors ?? profile.target.consent.mode === 'auto') {
    q.set('uuid', o.customer.uuid);
    q.set('account_id', o.accountIdParam ?? o.customer.accountId);
  }
  return {
    method: 'GET',
    url: `${oauthUrl(profile, profile.target.paths.authorize)}?${q.toString()}`,
    identity: o.identity ?? clientIdentity(profile, 'code', client),
    label: 'authorize',
  };
}

export interface Callback {
  code?: string;
  state?: string;
  error?: string;
  errorDescription?: string;
  /** the callback went to the client's redirect URI (same origin and path) */
  redirectMatches: boolean;
}

/** Reads a callback URL (a Location header or what a browser was sent to). */
export function parseCallback(callbackUrl: string, redirectUri: string): Callback {
  const u = new URL(callbackUrl, redirectUri);
  const r = new URL(redirectUri);
  const p = u.searchParams;
  const get = (k: string): string | undefined => p.get(k) ?? undefined;
  return {
    ...(get('code') !== undefined ? { code: get('code') } : {}),
    ...(get('state') !== undefined ? { state: get('state') } : {}),
    ...(get('error') !== undefined ? { error: get('error') } : {}),
    ...(get('error_description') !== undefined ? { errorDescription: get('error_description') } : {}),
    redirectMatches: u.origin === r.origin && u.pathname === r.pathname,
  };
}

export interface AuthorizeResult extends Callback {
  /** the state sent (undefined with noState) */
  sentState?: string;
  /** auto consent: the /authorize answer (302 expected) */
  response?: HttpResponse;
  /** manual and script consent: the callback URL the person's browser or the script reached (what the target sent) */
  callbackUrl?: string;
}

export interface ConsentHooks {
  /** manual consent: show the URL to a person (default: stderr) */
  prompt?: (url: string) => void;
  /** script consent: working directory of the command (default: the process's) */
  cwd?: string;
  /** script consent: variables added to the script's environment (who consents, which check asked) */
  env?: Record<string, string>;
  /** script consent: where the script's stderr goes when it fails (default: the harness's stderr) */
  stderr?: (text: string) => void;
}

/**
 * The consent of a person (manual) or a login script (script) to an /authorize URL: resolves with the callback URL
 * the browser or script reached.
 */
export async function consentTo(
  profile: FullProfile,
  url: string,
  redirectUri: string,
  hooks: ConsentHooks = {},
): Promise<string> {
  const consent = profile.target.consent;
  if (consent.mode === 'auto') throw new OAuthError('CONFIG_MISSING', 'auto consent has no person or script');
  if (consent.mode === 'manual') {
    const waiting = waitForCallback(redirectUri, consent.timeoutSeconds * 1000);
    (hooks.prompt ?? ((u) => process.stderr.write(`Open this URL in a browser and give consent:\n  ${u}\n`)))(url);
    return waiting;
  }
  return runLoginScript(consent.command, url, consent.timeoutSeconds * 1000, hooks.cwd, {
    ...(hooks.env ? { env: hooks.env } : {}),
    ...(hooks.stderr ? { stderr: hooks.stderr } : {}),
  });
}

/**
 * Runs /authorize with the profile's consent mode and returns the code. An answer whose state differs from
 * the one sent is an OAuthError STATE_MISMATCH (a check of the state rule uses buildAuthorizeRequest and
 * parseCallback itself). Auto consent without a redirect returns the response, with no code.
 */
export async function authorize(
  ctx: OAuthContext,
  o: AuthorizeOptions,
  hooks: ConsentHooks = {},
): Promise<AuthorizeResult> {
  const profile = ctx.profile;
  const client = o.client ?? (clientOf(profile, 'code') as CodeClient);
  const state = o.noState ? undefined : (o.state ?? newState());
  const req = await buildAuthorizeRequest(profile, {
    ...o,
    client,
    ...(state ? { state } : {}),
    identity: o.identity ?? identityIn(ctx, 'code'),
  });
  const consent = profile.target.consent;

  let result: AuthorizeResult;
  if (consent.mode === 'auto') {
    const response = await ctx.http.send(req, ctx.recorder);
    const location = response.headers.location;
    if (response.status < 300 || response.status >= 400 || !location)
      return { response, redirectMatches: false, ...(state ? { sentState: state } : {}) };
    result = { ...parseCallback(location, client.redirectUri), response };
  } else {
    const callbackUrl = await consentTo(profile, req.url, client.redirectUri, hooks);
    result = { ...parseCallback(callbackUrl, client.redirectUri), callbackUrl };
  }
  if (result.code) ctx.redactor.add(result.code, 'code');
  if (state) result.sentState = state;
  // an error redirect without a state is returned as it is (the error is the finding); a code never is
  if (state !== undefined && (result.code !== undefined || result.state !== undefined) && result.state !== state) {
    throw new OAuthError(
      'STATE_MISMATCH',
      result.state === undefined ? 'the callback has no state' : 'the callback state differs from the one sent',
    );
  }
  return result;
}

// ---------------------------------------------------------------------------------------------------------
// manual consent: one-shot loopback listener

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Listens on the redirect URI's loopback port until one request reaches its path; resolves its full URL. */
export function waitForCallback(redirectUri: string, timeoutMs: number): Promise<string> {
  const r = new URL(redirectUri);
  if (r.protocol !== 'http:' || !LOOPBACK_HOSTS.has(r.hostname)) {
    return Promise.reject(
      new OAuthError('REDIRECT_NOT_LOOPBACK', 'manual consent needs an http://127.0.0.1:<port>/... redirect URI'),
    );
  }
  const host = r.hostname === '[::1]' ? '::1' : '127.0.0.1';
  const port = Number(r.port || 80);
  return new Promise<string>((resolve, reject) => {
    let done = false;
    const finish = (f: () => void): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      server.close();
      server.closeAllConnections();
      f();
    };
    const server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', `http://${r.host}`);
      if (url.pathname !== r.pathname) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
      res.end('Consent received: you may close this window.\n', () => finish(() => resolve(url.toString())));
    });
    const timer = setTimeout(
      () =>
        finish(() =>
          reject(new OAuthError('CONSENT_TIMEOUT', `no callback on ${r.origin}${r.pathname} within ${timeoutMs} ms`)),
        ),
      timeoutMs,
    );
    server.on('error', (e) =>
      finish(() =>
        reject(
          new OAuthError(
            'CONSENT_NO_CALLBACK',
            `cannot listen on ${host}:${port}: ${(e as NodeJS.ErrnoException).code ?? e.message}`,
          ),
        ),
      ),
    );
    server.listen(port, host);
  });
}

// ---------------------------------------------------------------------------------------------------------
// script consent

/** Splits a command line on whitespace, honouring single and double quotes (no shell is involved). */
export function splitCommand(command: string): string[] {
  const out: string[] = [];
  const re = /"([^"]*)"|'([^']*)'|(\S+)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(command)) !== null) out.push(m[1] ?? m[2] ?? m[3]!);
  return out;
}

const MAX_SCRIPT_OUTPUT = 64 * 1024;

export interface LoginScriptOptions {
  /** variables added to the script's environment */
  env?: Record<string, string>;
  /** where the script's stderr goes when it fails (default: the harness's stderr); discarded when it succeeds */
  stderr?: (text: string) => void;
}

/**
 * Runs the login script with the URL as its last argument (no shell) and returns the last stdout line that
 * is a URL. Its stderr is kept back (it may echo credentials) and passed through only when it fails (exit status,
 * no callback URL); it is killed after timeoutMs.
 */
export function runLoginScript(
  command: string,
  url: string,
  timeoutMs: number,
  cwd?: string,
  o: LoginScriptOptions = {},
): Promise<string> {
  const [file, ...args] = splitCommand(command);
  if (!file) return Promise.reject(new OAuthError('CONSENT_SCRIPT_FAILED', 'empty consent command'));
  return new Promise<string>((resolve, reject) => {
    const child = spawn(file, [...args, url], {
      stdio: ['ignore', 'pipe', 'pipe'],
      shell: false,
      ...(cwd ? { cwd } : {}),
      ...(o.env ? { env: { ...process.env, ...o.env } } : {}),
    });
    let err = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (d: string) => {
      if (err.length < MAX_SCRIPT_OUTPUT) err += d.slice(0, MAX_SCRIPT_OUTPUT - err.length);
    });
    const failed = (e: OAuthError): void => {
      if (err.trim()) (o.stderr ?? ((t) => process.stderr.write(t)))(`${file} (stderr):\n${err.replace(/\n?$/, '\n')}`);
      reject(e);
    };
    let out = '';
    let settled = false;
    const settle = (f: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      f();
    };
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      settle(() => failed(new OAuthError('CONSENT_TIMEOUT', `consent script did not finish within ${timeoutMs} ms`)));
    }, timeoutMs);
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d: string) => {
      if (out.length < MAX_SCRIPT_OUTPUT) out += d.slice(0, MAX_SCRIPT_OUTPUT - out.length);
    });
    child.on('error', (e) =>
      settle(() =>
        reject(
          new OAuthError(
            'CONSENT_SCRIPT_FAILED',
            `cannot run ${file}: ${(e as NodeJS.ErrnoException).code ?? e.message}`,
          ),
        ),
      ),
    );
    child.on('close', (code) => {
      settle(() => {
        if (code !== 0)
          return failed(
            new OAuthError(
              'CONSENT_SCRIPT_FAILED',
              `${file} exited with ${code}${err.trim() ? ' (its stderr is on the console)' : ''}`,
            ),
          );
        const line = out
          .split(/\r?\n/)
          .map((l) => l.trim())
          .reverse()
          .find((l) => /^https?:\/\//.test(l));
        if (!line) return failed(new OAuthError('CONSENT_NO_CALLBACK', `${file} printed no callback URL`));
        resolve(line);
      });
    });
  });
}
