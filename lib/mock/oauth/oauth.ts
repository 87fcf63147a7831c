/**
 * OAuth 2.0 endpoints (specification §4.2-4.4, §5.6; contract "Tokens"):
 *  - GET  /oauth/v1/authorize (+ POST /oauth/v1/authorize/consent when auto-consent is off)
 *  - POST /oauth/v1/token: authorization_code and refresh_token; Basic auth + form in both modes; plain JSON answers
 *  - POST /oauth/partner_auth/token, /oauth/internal_auth/token: client_credentials; sandbox Basic + form;
 *    UAT sealed JSON with X-Gateway-Client-Id / X-Gateway-Client-Secret / MsgId, answers sealed.
 * Errors are RFC 6749 §5.2 bodies; an invalid client or redirect URI is never redirected to.
 *
 * One operation per file, re-exported here: oauth-authorize.ts, oauth-consent.ts, oauth-code-token.ts,
 * oauth-cc-token.ts, oauth-introspect.ts; shared pieces in oauth-common.ts, oauth-code-binding.ts, oauth-redirect.ts,
 * oauth-customer.ts.
 */
export { handleAuthorize } from './oauth-authorize.ts';
export { handleConsent } from './oauth-consent.ts';
export { handleCodeToken } from './oauth-code-token.ts';
export { handleCcToken } from './oauth-cc-token.ts';
export { handleIntrospect } from './oauth-introspect.ts';
