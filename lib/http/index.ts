export { createHttpClient, type HttpClientOptions } from './client.ts';
export { exchangeOf } from './exchanges.ts';
export { clearIdMarker, createRedactor, learnFromHeaders, redactAuthorization } from './redact.ts';
export { createRecorder, recordedBody } from './recorder.ts';
export { keyFingerprint, summariseJose, type JoseSummary } from './jose-summary.ts';
export * from './types.ts';
// the run's proxy (--proxy): every connection of this process through it (lib/tls/tunnel.ts, a primitive the TLS
// probes use too)
export {
  interceptedReason,
  parseProxyUrl,
  proxyRoute,
  routeThroughProxy,
  ProxyConfigError,
  ProxyError,
  type ProxyRoute,
} from '../tls/tunnel.ts';
