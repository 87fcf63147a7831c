export * from './types.ts';
export { oauthUrl, tokenUrl, clientOf, clientIdentity, identityIn, basicAuth } from './context.ts';
export {
  buildExchangeCodeRequest,
  buildRefreshRequest,
  buildClientCredentialsRequest,
  sendTokenRequest,
  registerTokens,
  exchangeCode,
  refresh,
  clientCredentials,
  requireToken,
  type ExchangeCodeOptions,
  type RefreshOptions,
  type ClientCredentialsOptions,
  type SendTokenOptions,
} from './token.ts';
export {
  encryptAccountId,
  buildAuthorizeRequest,
  parseCallback,
  authorize,
  consentTo,
  newCodeVerifier,
  pkceChallenge,
  newState,
  waitForCallback,
  runLoginScript,
  splitCommand,
  type AuthorizeOptions,
  type AuthorizeResult,
  type Callback,
  type ConsentHooks,
  type LoginScriptOptions,
} from './authorize.ts';
export { TokenCache, type TokenCacheOptions } from './cache.ts';
export {
  introspectionCaller,
  introspectionEndpoint,
  introspectionRequest,
  type IntrospectionAuth,
  type IntrospectionCaller,
} from './introspection.ts';
