export { createHttpClient, type HttpClientOptions } from './client.ts';
export { exchangeOf } from './record/exchanges.ts';
export { clearIdMarker, createRedactor, learnFromHeaders, redactAuthorization } from './record/redact.ts';
export { createRecorder, recordedBody } from './record/recorder.ts';
export { keyFingerprint, summariseJose, type JoseSummary } from './record/jose-summary.ts';
export * from './types.ts';
// the run's proxy (--proxy): a route carried in the run's Transport (transport.ts) to every connection (lib/tls/tunnel.ts,
// a primitive the TLS probes use too)
export {
  interceptedReason,
  parseProxyUrl,
  proxyRouteOf,
  ProxyConfigError,
  ProxyError,
  type ProxyRoute,
} from '../tls/tunnel.ts';
