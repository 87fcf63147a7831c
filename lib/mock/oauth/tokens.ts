/**
 * Token store (specification §3, contract "Tokens"): authorization codes (single use, 60 s, bound to client +
 * customer), grants (one per code exchange: the refresh-token family), access tokens (opaque, 3600 s), refresh tokens
 * (rotated on each exchange; a voided one used again revokes the grant; idle 180 days / age 1095 days).
 */
import { randomBytes } from 'node:crypto';
import type { MockClock } from '../clock.ts';
import type { MockCustomer } from '../data.ts';
import type { FaultSet } from '../fault-set.ts';
import { DAY_MS, LIMITS, type TokenLimits } from '../limits.ts';
import { oauthError, type OAuthError } from '../errors.ts';
import { raceGap, raceGapOn } from '../race.ts';

/** what a token may act on: a customer, through its account id or its emirates id */
export interface Binding {
  customer: MockCustomer;
  kind: 'account' | 'emirates';
}

export interface AccessToken {
  clientId: string;
  scopes: string[];
  expiresAt: number;
  /** undefined for a client-credentials token issued without oauth_metadata */
  binding?: Binding;
  grantId?: string;
}

interface AuthCode {
  clientId: string;
  customer: MockCustomer;
  scope: string;
  redirectUri: string;
  issuedAt: number;
  consentedOn: number;
  used: boolean;
  grantIds: string[];
}

interface Grant {
  clientId: string;
  customer: MockCustomer;
  scope: string;
  consentedOn: number;
  firstTokenAt: number;
  revoked: boolean;
}

interface RefreshToken {
  grantId: string;
  /** time of the exchange that issued (or, without rotation, last used) it */
  issuedAt: number;
  voided: boolean;
}

export type TokenResponse = Record<string, string | number>;
export type TokenResult = { ok: true; body: TokenResponse } | { ok: false; error: OAuthError };

/**
 * Opaque values carry a kind prefix (mockAC_ code, mockAT_ access token, mockRT_ refresh token, mockGR_ grant),
 * so that the redaction test can find any leak of one, even a partial one, in what a run writes.
 */
const opaque = (kind: 'AC' | 'AT' | 'RT' | 'GR'): string => `mock${kind}_${randomBytes(32).toString('base64url')}`;

export class TokenStore {
  private codes = new Map<string, AuthCode>();
  private grants = new Map<string, Grant>();
  private refresh = new Map<string, RefreshToken>();
  private access = new Map<string, AccessToken>();

  constructor(
    private readonly clock: MockClock,
    private readonly faults: FaultSet,
    /** token lifetimes (contract defaults; shorter ones for selftests of real waits) */
    private readonly limits: TokenLimits = LIMITS,
  ) {}

  issueCode(clientId: string, customer: MockCustomer, scope: string, redirectUri: string): string {
    const code = opaque('AC');
    const now = this.clock.now();
    this.codes.set(code, {
      clientId,
      customer,
      scope,
      redirectUri,
      issuedAt: now,
      consentedOn: Math.floor(now / 1000),
      used: false,
      grantIds: [],
    });
    return code;
  }

  /** async only for the race-code-exchange gap: the clean path checks and marks the code with no await between */
  async exchangeCode(clientId: string, code: string): Promise<TokenResult> {
    const c = this.codes.get(code);
    if (!c || c.clientId !== clientId) return fail(oauthError('invalid_grant', 'the authorization code is invalid'));
    if (c.used && !this.faults.on('code-reusable')) {
      if (!this.faults.on('no-revoke-on-code-reuse')) for (const g of c.grantIds) this.revokeGrant(g);
      return fail(
        oauthError('invalid_grant', 'the authorization code was already used; the tokens issued from it are revoked'),
      );
    }
    if (this.clock.now() > c.issuedAt + this.limits.codeSeconds * 1000 && !this.faults.on('code-never-expires')) {
      return fail(oauthError('invalid_grant', 'the authorization code has expired'));
    }
    if (raceGapOn(this.faults, 'race-code-exchange')) await raceGap();
    c.used = true;
    const grantId = opaque('GR');
    const now = this.clock.now();
    this.grants.set(grantId, {
      clientId,
      customer: c.customer,
      scope: c.scope,
      consentedOn: c.consentedOn,
      firstTokenAt: now,
      revoked: false,
    });
    c.grantIds.push(grantId);
    return { ok: true, body: this.codeGrantResponse(grantId, c.scope, undefined, now) };
  }

  /** async only for the race-refresh gap: the clean path checks and voids the token with no await between */
  async exchangeRefresh(clientId: string, token: string, requestedScope: string | undefined): Promise<TokenResult> {
    const rt = this.refresh.get(token);
    const grant = rt ? this.grants.get(rt.grantId) : undefined;
    if (!rt || !grant || grant.clientId !== clientId)
      return fail(oauthError('invalid_grant', 'the refresh token is invalid'));
    if (grant.revoked) return fail(oauthError('invalid_grant', 'the grant was revoked'));
    if (rt.voided && !this.faults.on('refresh-reuse-allowed')) {
      this.revokeGrant(rt.grantId);
      return fail(oauthError('invalid_grant', 'the refresh token was already used; the grant is revoked'));
    }
    const now = this.clock.now();
    if (now > rt.issuedAt + this.limits.refreshIdleDays * DAY_MS && !this.faults.on('refresh-idle-not-enforced')) {
      return fail(
        oauthError('invalid_grant', `the refresh token was not used for more than ${this.limits.refreshIdleDays} days`),
      );
    }
    if (
      now > grant.firstTokenAt + this.limits.refreshMaxDays * DAY_MS &&
      !this.faults.on('refresh-max-age-not-enforced')
    ) {
      return fail(oauthError('invalid_grant', `the refresh token is older than ${this.limits.refreshMaxDays} days`));
    }
    let scope = grant.scope;
    if (requestedScope !== undefined) {
      const granted = new Set(grant.scope.split(' '));
      const asked = requestedScope.split(' ').filter(Boolean);
      if (asked.length === 0 || asked.some((s) => !granted.has(s)))
        return fail(oauthError('invalid_scope', 'the scope exceeds the original grant'));
      scope = asked.join(' ');
    }
    if (this.faults.on('refresh-not-rotated')) {
      rt.issuedAt = now;
      return { ok: true, body: this.codeGrantResponse(rt.grantId, scope, token, now) };
    }
    if (raceGapOn(this.faults, 'race-refresh')) await raceGap();
    rt.voided = true;
    return { ok: true, body: this.codeGrantResponse(rt.grantId, scope, undefined, now) };
  }

  issueClientCredentials(clientId: string, scope: string, binding: Binding | undefined): TokenResponse {
    const now = this.clock.now();
    const access = this.newAccess({ clientId, scopes: scope.split(' '), ...(binding ? { binding } : {}) });
    const body: TokenResponse = {
      token_type: 'bearer',
      access_token: access,
      expires_in: this.limits.accessTokenSeconds,
    };
    if (this.faults.on('token-missing-expires-in')) delete body.expires_in;
    if (!this.faults.on('token-missing-consented-on')) body.consented_on = Math.floor(now / 1000);
    body.scope = scope;
    if (this.faults.on('cc-token-has-refresh')) {
      body.refresh_token = opaque('RT');
      body.refresh_token_expires_in = this.limits.refreshMaxDays * 86400;
    }
    return body;
  }

  /** the live access token, or undefined when unknown, expired or revoked */
  lookup(token: string): AccessToken | undefined {
    const t = this.access.get(token);
    if (!t) return undefined;
    if (this.clock.now() >= t.expiresAt && !this.faults.on('access-never-expires')) return undefined;
    if (t.grantId !== undefined && this.grants.get(t.grantId)?.revoked) return undefined;
    return t;
  }

  private revokeGrant(grantId: string): void {
    const g = this.grants.get(grantId);
    if (g) g.revoked = true;
  }

  private newAccess(t: Omit<AccessToken, 'expiresAt'>): string {
    const token = opaque('AT');
    this.access.set(token, { ...t, expiresAt: this.clock.now() + this.limits.accessTokenSeconds * 1000 });
    return token;
  }

  private codeGrantResponse(
    grantId: string,
    scope: string,
    keepRefresh: string | undefined,
    now: number,
  ): TokenResponse {
    const g = this.grants.get(grantId)!;
    const access = this.newAccess({
      clientId: g.clientId,
      scopes: scope.split(' '),
      binding: { customer: g.customer, kind: 'account' },
      grantId,
    });
    let refresh = keepRefresh;
    if (refresh === undefined) {
      refresh = opaque('RT');
      this.refresh.set(refresh, { grantId, issuedAt: now, voided: false });
    }
    const left = Math.max(0, Math.floor((g.firstTokenAt + this.limits.refreshMaxDays * DAY_MS - now) / 1000));
    const body: TokenResponse = {
      token_type: 'bearer',
      access_token: access,
      expires_in: this.limits.accessTokenSeconds,
      refresh_token: refresh,
      refresh_token_expires_in: left,
    };
    if (this.faults.on('code-token-no-refresh-expiry')) delete body.refresh_token_expires_in;
    if (this.faults.on('token-missing-expires-in')) delete body.expires_in;
    if (!this.faults.on('token-missing-consented-on')) body.consented_on = g.consentedOn;
    body.scope = scope;
    return body;
  }
}

function fail(error: OAuthError): TokenResult {
  return { ok: false, error };
}
