/**
 * The bank's side of a scenario: a MockOptions.intercept that records every request of the partner's client
 * (raw, for the judge) with the bank's answer, and applies the scenario's misbehaviour. The misbehaving answers
 * are built here with the bank's own keys (lib/jose craft), never by the mock's fault catalogue: the mock stays
 * the clean bank.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { craftJwe, craftJws } from '../jose/craft.ts';
import type { InterceptedRequest, MockIntercept } from '../mock/index.ts';
import type { TestPki } from '../pki/types.ts';
import type { Environment } from '../profile/schema.ts';
import { RETRY_AFTER_SECONDS, scenario } from './scenarios.ts';
import { spoiledAnswer } from './spoil.ts';
import type { Route, ScenarioId, SeenRequest, SpoiledAnswer } from './types.ts';

/** a client that sends more than this in one scenario is flooding: the bank stops answering */
export const MAX_REQUESTS_PER_SCENARIO = 300;
const ONE_HOUR_AND_A_BIT_S = 3601;

export interface BankHooks {
  scenario: ScenarioId;
  mode: Environment;
  pki: TestPki;
  /** the partner's certificate (PEM): sealed answers are encrypted to it */
  partnerCertPem: string;
  /** moves the bank's clock (token-expiry) */
  advanceClock(seconds: number): void;
  /** called once when the client floods */
  onFlood(): void;
  /** the harness's own key listener (jku, x5u of a spoiled answer) */
  listenerUrl: string;
}

export function routeOf(method: string, path: string): Route {
  if (path === '/oauth/v1/authorize') return 'authorize';
  if (path === '/oauth/v1/token') return 'code-token';
  if (path === '/oauth/partner_auth/token' || path === '/oauth/internal_auth/token') return 'cc-token';
  if (method === 'POST' && path === '/v1/transfers/validate') return 'validate';
  if (/^\/v1\/transfers\/[^/]+$/.test(path)) return method === 'PUT' ? 'create' : method === 'GET' ? 'get' : 'other';
  return 'other';
}

function flatHeaders(h: IncomingMessage['headers'] | Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) {
    if (v === undefined) continue;
    out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v);
  }
  return out;
}

function seen(seq: number, r: InterceptedRequest): SeenRequest {
  const target = r.req.url ?? '/';
  const method = r.req.method ?? 'GET';
  const path = new URL(target, 'http://bank.invalid').pathname;
  const s: SeenRequest = {
    seq,
    at: Date.now(),
    method,
    target,
    route: routeOf(method, path),
    headers: flatHeaders(r.req.headers),
    body: r.body?.toString('utf8') ?? '',
  };
  const socket = r.req.socket as Partial<TLSSocket>;
  if (typeof socket.getProtocol === 'function') {
    const p = socket.getProtocol();
    if (p) s.tlsProtocol = p;
    const cert = socket.getPeerX509Certificate?.();
    if (cert) s.peerSha256 = cert.fingerprint256.replace(/:/g, '').toLowerCase();
  }
  return s;
}

/** keeps what the bank answers (status, headers, body) in `s.response` */
function captureResponse(res: ServerResponse, s: SeenRequest): void {
  const writeHead = res.writeHead.bind(res) as (...a: unknown[]) => ServerResponse;
  const end = res.end.bind(res) as (...a: unknown[]) => ServerResponse;
  let status = 0;
  let headers: Record<string, string> = {};
  (res as unknown as { writeHead: (...a: unknown[]) => ServerResponse }).writeHead = (...a: unknown[]) => {
    status = Number(a[0]);
    const h = a.find((x, i) => i > 0 && typeof x === 'object' && x !== null);
    headers = flatHeaders((h ?? {}) as Record<string, unknown>);
    return writeHead(...a);
  };
  (res as unknown as { end: (...a: unknown[]) => ServerResponse }).end = (...a: unknown[]) => {
    const chunk = a[0];
    const body = typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) ? chunk.toString('utf8') : '';
    s.response = { status: status || res.statusCode, headers, body, at: Date.now() };
    return end(...a);
  };
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

function sendText(res: ServerResponse, status: number, text: string, type: string): void {
  res.writeHead(status, {
    'Content-Type': type,
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
  });
  res.end(text);
}

/** a plausible validate answer (contract "Transfer bodies") */
export const FAKE_VALIDATE_ANSWER = {
  charges: { value: '5.25', currency: 'AED' },
  debit_amount: { value: '155.25', currency: 'AED' },
  total_credit_amount: { value: '150.00', currency: 'AED' },
  authentication_mode: 'OTP',
};

/** the access token of a forged client-credentials answer: a client that uses it took the forgery */
export const FORGED_ACCESS_TOKEN = 'AT_forged-by-the-harness';

/** the answer the scenario's spoil replaces, and the genuine answer of another call it may replay */
function answerToSpoil(answer: SpoiledAnswer, s: SeenRequest): { body: Record<string, unknown>; status: number } {
  if (answer === 'validate') return { body: FAKE_VALIDATE_ANSWER, status: 200 };
  if (answer === 'create') {
    const transferId = decodeURIComponent(new URL(s.target, 'http://bank.invalid').pathname.split('/').pop() ?? '');
    return {
      body: { transfer_id: transferId, payment_reference_id: 'PRN0000000001', status: 'PROCESSING' },
      status: 201,
    };
  }
  return {
    body: { token_type: 'bearer', access_token: FORGED_ACCESS_TOKEN, expires_in: 3600, scope: 'transfers' },
    status: 200,
  };
}

/** a genuine answer of another call (replayed): a GET's for validate, validate's for create and the token */
function otherCallsAnswer(answer: SpoiledAnswer): Record<string, unknown> {
  if (answer !== 'validate') return FAKE_VALIDATE_ANSWER;
  return {
    transfer_id: 'a-transfer-of-another-call',
    payment_reference_id: 'PRN0000000002',
    status: 'PROCESSING',
    beneficiary_id: 'BEN-OTHER',
    amount: { value: '9.00', currency: 'AED' },
    created_at: new Date(0).toISOString(),
  };
}

/** the error body of a 429, sealed to the client in UAT */
function tooMany(h: BankHooks): unknown {
  const body = {
    status: '429',
    response_code: '429001',
    property: 'quota',
    response_message: 'Too many requests',
    description: `Try again in ${RETRY_AFTER_SECONDS} seconds.`,
  };
  if (h.mode !== 'uat') return body;
  const jws = craftJws({
    payload: JSON.stringify(body),
    protectedHeader: { alg: 'RS256' },
    signer: { kind: 'rsa', alg: 'RS256', privateKeyPem: h.pki.bankApi.privateKeyPem },
    form: 'general',
  });
  return craftJwe({
    plaintext: JSON.stringify(jws),
    recipientPublicKeyPem: h.partnerCertPem,
    alg: 'RSA-OAEP-256',
    enc: 'A256CBC-HS512',
    form: 'general',
  });
}

/** a refresh grant (token-expiry answers the first, refuses the second) */
function isRefresh(s: SeenRequest): boolean {
  return s.route === 'code-token' && new URLSearchParams(s.body).get('grant_type') === 'refresh_token';
}

/** the intercept of one scenario; every request lands in `log` */
export function bankIntercept(h: BankHooks, log: SeenRequest[]): MockIntercept {
  let validates = 0;
  let creates = 0;
  let refreshes = 0;
  const expired = new Set<Route>();
  let flooded = false;
  return async (r, next) => {
    const s = seen(log.length + 1, r);
    log.push(s);
    if (log.length > MAX_REQUESTS_PER_SCENARIO) {
      if (!flooded) h.onFlood();
      flooded = true;
      r.req.socket.destroy();
      return;
    }
    captureResponse(r.res, s);
    const id = h.scenario;
    if (s.route === 'validate') validates++;
    if (s.route === 'create') creates++;
    const spoil = scenario(id).spoil;
    if (spoil && s.route === spoil.answer) {
      s.misbehaviour = id;
      const { body, status } = answerToSpoil(spoil.answer, s);
      const ctx = { pki: h.pki, partnerCertPem: h.partnerCertPem, listenerUrl: h.listenerUrl };
      // a create is stored as usual (so a client that takes the forged answer finds its transfer): only the answer
      // is replaced
      if (spoil.answer === 'create') await silently(r, next);
      const answer = spoiledAnswer(spoil.how, body, otherCallsAnswer(spoil.answer), ctx);
      // a compact serialization is sent as it is, with its media type (RFC 7515 §9.2.1, RFC 7516 §9.2.1)
      if (typeof answer === 'string') return sendText(r.res, status, answer, 'application/jose');
      return sendJson(r.res, status, answer, { 'Cache-Control': 'no-store' });
    }
    if (id === 'validate-429' && s.route === 'validate' && validates === 1) {
      s.misbehaviour = `429, Retry-After: ${RETRY_AFTER_SECONDS}`;
      return sendJson(r.res, 429, tooMany(h), { 'Retry-After': String(RETRY_AFTER_SECONDS) });
    }
    if (id === 'token-expiry' && isRefresh(s)) refreshes++;
    // the first refresh is answered (a rotated refresh token); the second is refused
    if (id === 'token-expiry' && isRefresh(s) && refreshes > 1) {
      s.misbehaviour = 'refresh refused';
      return sendJson(
        r.res,
        400,
        { error: 'invalid_grant', error_description: 'the refresh token is not valid' },
        { 'Cache-Control': 'no-store' },
      );
    }
    if (id === 'create-answer-lost' && s.route === 'create' && creates === 1) return loseAnswer(r, s, next);
    if (id === 'state-mismatch' && s.route === 'authorize') changeState(r.res, s);
    await next();
    // the token expires twice: after the first validate answered, and after the first create answered
    const ok = s.response?.status === 200 || s.response?.status === 201;
    if (id === 'token-expiry' && ok && (s.route === 'validate' || s.route === 'create') && !expired.has(s.route)) {
      expired.add(s.route);
      h.advanceClock(ONE_HOUR_AND_A_BIT_S);
      s.misbehaviour = `after this answer the bank's clock moved ${ONE_HOUR_AND_A_BIT_S} s on (the token expired)`;
    }
  };
}

/** the bank handles the request, its answer swallowed (the caller answers instead) */
async function silently(r: InterceptedRequest, next: () => Promise<void>): Promise<void> {
  const res = r.res as unknown as { writeHead: (...a: unknown[]) => unknown; end: (...a: unknown[]) => unknown };
  const [writeHead, end] = [res.writeHead, res.end];
  res.writeHead = () => r.res;
  res.end = () => r.res;
  try {
    await next();
  } finally {
    [res.writeHead, res.end] = [writeHead, end];
  }
}

/** the bank stores the transfer, then the connection is reset instead of the answer */
async function loseAnswer(r: InterceptedRequest, s: SeenRequest, next: () => Promise<void>): Promise<void> {
  s.misbehaviour = 'stored, then the answer was lost (connection reset)';
  const res = r.res as unknown as { writeHead: (...a: unknown[]) => unknown; end: (...a: unknown[]) => unknown };
  res.writeHead = () => r.res;
  res.end = () => {
    r.req.socket.destroy();
    return r.res;
  };
  await next();
  if (!r.req.socket.destroyed) r.req.socket.destroy();
}

/** the callback's state is replaced by another value */
function changeState(res: ServerResponse, s: SeenRequest): void {
  const writeHead = res.writeHead.bind(res) as (...a: unknown[]) => ServerResponse;
  (res as unknown as { writeHead: (...a: unknown[]) => ServerResponse }).writeHead = (...a: unknown[]) => {
    const h = a[1];
    if (h && typeof h === 'object' && 'Location' in h) {
      const o = h as Record<string, unknown>;
      const u = new URL(String(o.Location));
      if (u.searchParams.has('code')) {
        u.searchParams.set('state', `changed-${u.searchParams.get('state') ?? ''}`.slice(0, 64));
        o.Location = u.toString();
        s.misbehaviour = 'the callback carries another state';
      }
    }
    return writeHead(...a);
  };
}
