export { createHttpClient, type HttpClientOptions } from './client.ts';
export { exchangeOf } from './exchanges.ts';
export { clearIdMarker, createRedactor, learnFromHeaders, redactAuthorization } from './redact.ts';
export { createRecorder, recordedBody } from './recorder.ts';
export { keyFingerprint, summariseJose, type JoseSummary } from './jose-summary.ts';
export * from './types.ts';
