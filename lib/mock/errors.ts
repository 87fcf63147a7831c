/**
 * Error bodies. The transfers API answers every 4xx/5xx with the five-member structure of the specification (§2, §7):
 * status (string), response_code (six digits starting with the status), property, response_message, description.
 * OAuth endpoints answer RFC 6749 §5.2 bodies. Nothing here ever carries a clear identifier or internals.
 */
import type { FaultSet } from './fault-set.ts';

export interface ApiError {
  status: number;
  /** last three digits of response_code */
  seq: number;
  property: string;
  message: string;
  description: string;
  headers?: Record<string, string>;
}

export function apiError(
  status: number,
  seq: number,
  property: string,
  message: string,
  description: string,
  headers?: Record<string, string>,
): ApiError {
  return { status, seq, property, message, description, ...(headers ? { headers } : {}) };
}

/** a fake stack, for the error-leaks-stack fault only */
const FAKE_STACK =
  '\n    at TransferService.handle (/srv/bank/app/dist/transfers/service.js:214:17)\n    at Layer.handle [as handle_request] (/srv/bank/node_modules/express/lib/router/layer.js:95:5)';

export function apiErrorBody(e: ApiError, faults: FaultSet): Record<string, unknown> {
  const body: Record<string, unknown> = {
    status: faults.on('error-status-number') ? e.status : String(e.status),
    response_code: `${e.status}${String(e.seq).padStart(3, '0')}`,
    property: e.property,
    response_message: e.message,
    description: faults.on('error-leaks-stack') ? `${e.description}${FAKE_STACK}` : e.description,
  };
  if (faults.on('error-extra-member')) body.errors = [];
  return body;
}

export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'access_denied'
  | 'unsupported_response_type'
  | 'server_error';

export interface OAuthError {
  status: number;
  error: OAuthErrorCode;
  description: string;
}

export function oauthError(error: OAuthErrorCode, description: string, status?: number): OAuthError {
  return {
    status: status ?? (error === 'invalid_client' ? 401 : error === 'server_error' ? 500 : 400),
    error,
    description,
  };
}
