import type { HttpClient, HttpResponse, Identity, Recorder, Redactor } from '../http/types.ts';
import type { OpenResult } from '../jose/types.ts';
import type { FullProfile } from '../profile/schema.ts';
import { HarnessError } from '../errors.ts';

/** Access token response (specification §2). Members beyond these are kept as received. */
export interface TokenResponse {
  token_type?: string;
  access_token: string;
  expires_in?: number;
  consented_on?: number;
  scope?: string;
  refresh_token?: string;
  refresh_token_expires_in?: number;
  [member: string]: unknown;
}

/** What every token call returns: the raw response for assertions, and the token when one was issued. */
export interface TokenResult {
  response: HttpResponse;
  /** set when the answer was 2xx and its JSON document holds a string access_token */
  token?: TokenResponse;
  /** the JSON document the answer carried: the opened payload of a sealed answer, else the plain body */
  body?: unknown;
  /** a sealed (JWE) answer: the result of opening it; absent when the answer was not a JWE */
  opened?: OpenResult;
}

export type ClientRole = 'code' | 'partner' | 'internal';

/** What the OAuth functions need; a check builds one per run. */
export interface OAuthContext {
  profile: FullProfile;
  http: HttpClient;
  redactor: Redactor;
  recorder?: Recorder;
  /** the mutual-TLS identity for a role (default: from the profile, see clientIdentity) */
  identity?: (role: ClientRole) => Identity | undefined;
}

export type OAuthErrorCode =
  | 'CONFIG_MISSING'
  | 'STATE_MISMATCH'
  | 'NO_REDIRECT'
  | 'REDIRECT_NOT_LOOPBACK'
  | 'CONSENT_TIMEOUT'
  | 'CONSENT_SCRIPT_FAILED'
  | 'CONSENT_NO_CALLBACK'
  | 'TOKEN_REQUEST_FAILED';

export class OAuthError extends HarnessError {
  constructor(
    public override readonly code: OAuthErrorCode,
    message: string,
  ) {
    super(`${code}: ${message}`);
    this.name = 'OAuthError';
  }
}
