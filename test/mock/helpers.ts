/** Test client for the mock bank: node:http(s) with one fresh connection per call (so TLS identity is explicit). */
import http from 'node:http';
import https from 'node:https';
import { CompactEncrypt } from 'jose';
import { afterAll, beforeAll } from 'vitest';
import { startMockBank, type MockBank } from '../../lib/mock/index.ts';
import { testPki } from '../../lib/pki/index.ts';
import { publicKeyFromPem, seal } from '../../lib/jose/index.ts';
import { mask } from '../../lib/mask/index.ts';
import type { FullProfileInput } from '../../lib/profile/schema.ts';
import { openAnswer } from './open-answer.ts';

export interface Tls {
  cert?: string;
  key?: string;
  ca?: string;
  localAddress?: string;
  minVersion?: 'TLSv1' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3';
  maxVersion?: 'TLSv1' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3';
  ciphers?: string;
}

export interface Res {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json: unknown;
}

export function call(
  url: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string | Buffer; tls?: Tls } = {},
): Promise<Res> {
  const u = new URL(url);
  const isHttps = u.protocol === 'https:';
  const body = opts.body;
  const headers: Record<string, string | number> = { ...(opts.headers ?? {}) };
  if (body !== undefined) headers['Content-Length'] = Buffer.byteLength(body);
  return new Promise((resolve, reject) => {
    const common = {
      method: opts.method ?? 'GET',
      hostname: u.hostname,
      port: u.port,
      path: u.pathname + u.search,
      headers,
      agent: false as const,
    };
    const t = opts.tls ?? {};
    const req = isHttps
      ? https.request({
          ...common,
          ...(t.cert ? { cert: t.cert, key: t.key } : {}),
          ca: t.ca,
          servername: 'localhost',
          ...(t.localAddress ? { localAddress: t.localAddress } : {}),
          ...(t.minVersion ? { minVersion: t.minVersion } : {}),
          ...(t.maxVersion ? { maxVersion: t.maxVersion } : {}),
          ...(t.ciphers ? { ciphers: t.ciphers } : {}),
        })
      : http.request({ ...common, ...(t.localAddress ? { localAddress: t.localAddress } : {}) });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

export type Profile = FullProfileInput;
type Client = Profile['clients']['code'];

export const basic = (id: string, secret: string): string =>
  `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
export const FORM = 'application/x-www-form-urlencoded';

export function tlsOf(p: Profile, c?: { certificate?: string; privateKey?: string }): Tls {
  if (p.environment !== 'uat') return {};
  return { ca: p.tls!.caCertificate, ...(c?.certificate ? { cert: c.certificate, key: c.privateKey! } : {}) };
}

/** authorize (auto-consent) -> code; `customer` index into p.customers */
export async function authorizeUrl(p: Profile, customer = 0, extra: Record<string, string> = {}): Promise<string> {
  const c = p.customers[customer]!;
  const q = new URLSearchParams({
    response_type: 'code',
    client_id: p.clients.code.clientId,
    scope: 'transfers',
    state: 'st-123',
    uuid: c.uuid,
  });
  if (p.environment === 'uat') {
    const jwe = await new CompactEncrypt(new TextEncoder().encode(c.accountId))
      .setProtectedHeader({ alg: 'RSA-OAEP-256', enc: 'A256CBC-HS512' })
      .encrypt(publicKeyFromPem(p.bank!.apiPublicKey!));
    q.set('account_id', jwe);
  }
  for (const [k, v] of Object.entries(extra)) q.set(k, v);
  return `${p.target.baseUrl}/oauth/v1/authorize?${q}`;
}

export async function codeFlow(p: Profile, customer = 0): Promise<Record<string, unknown>> {
  const res = await call(await authorizeUrl(p, customer), { tls: tlsOf(p, p.clients.code) });
  if (res.status !== 302) throw new Error(`authorize: ${res.status} ${res.text}`);
  const code = new URL(res.headers.location!).searchParams.get('code')!;
  return tokenRequest(p, { grant_type: 'authorization_code', code });
}

export async function tokenRequest(
  p: Profile,
  form: Record<string, string>,
  client: Client = p.clients.code,
): Promise<Record<string, unknown>> {
  const res = await tokenCall(p, form, client);
  if (res.status !== 200) throw new Error(`token: ${res.status} ${res.text}`);
  return res.json as Record<string, unknown>;
}

export function tokenCall(p: Profile, form: Record<string, string>, client: Client = p.clients.code): Promise<Res> {
  return call(`${p.target.baseUrl}/oauth/v1/token`, {
    method: 'POST',
    headers: { Authorization: basic(client.clientId, client.clientSecret), 'Content-Type': FORM },
    body: new URLSearchParams(form).toString(),
    tls: tlsOf(p, client),
  });
}

type CcClient = Profile['clients']['partner'];

/** client-credentials token (sandbox form; UAT sealed JSON); returns the opened token response */
export async function ccToken(
  p: Profile,
  client: CcClient = p.clients.partner,
  payload?: Record<string, unknown>,
): Promise<{ res: Res; body: Record<string, unknown> }> {
  const path = client.tokenEndpoint === 'internal' ? '/oauth/internal_auth/token' : '/oauth/partner_auth/token';
  const content = payload ?? {
    grant_type: 'client_credentials',
    scope: client.scope ?? 'transfers',
    ...(client.oauthMetadata ? { oauth_metadata: client.oauthMetadata } : {}),
  };
  if (p.environment === 'uat') {
    const sealed = await seal(content, { signingKey: client.privateKey!, encryptionKey: p.bank!.apiPublicKey! });
    const res = await call(`${p.target.baseUrl}${path}`, {
      method: 'POST',
      headers: {
        'X-Gateway-Client-Id': client.clientId,
        'X-Gateway-Client-Secret': client.clientSecret,
        MsgId: `m-${Math.random()}`,
        'Content-Type': 'application/json',
        Accept: 'application/json',
      },
      body: JSON.stringify(sealed),
      tls: tlsOf(p, client),
    });
    return { res, body: (await openAs(p, client, res)) as Record<string, unknown> };
  }
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(content)) form.set(k, typeof v === 'string' ? v : JSON.stringify(v));
  const res = await call(`${p.target.baseUrl}${path}`, {
    method: 'POST',
    headers: { Authorization: basic(client.clientId, client.clientSecret), 'Content-Type': FORM },
    body: form.toString(),
  });
  return { res, body: res.json as Record<string, unknown> };
}

/**
 * opens a sealed response as `client` (UAT; the tests' own opener, open-answer.ts: the lenient mock's answers to
 * two recipients and compressed too), or returns the JSON (sandbox)
 */
export async function openAs(p: Profile, client: { privateKey?: string }, res: Res): Promise<unknown> {
  if (p.environment !== 'uat') return res.json;
  try {
    return await openAnswer(res.text, client.privateKey!, p.bank!.apiPublicKey!);
  } catch (e) {
    throw new Error(`response not sealed properly (${res.status}): ${e instanceof Error ? e.message : String(e)}`, {
      cause: e,
    });
  }
}

export interface ApiCall {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  token?: string;
  body?: unknown;
  /** raw body text, sent as is */
  raw?: string;
  client?: Client | CcClient;
  headers?: Record<string, string>;
}

/** a transfers API call as `client` (default: code client); body sealed in UAT; response opened in UAT */
export async function api(
  p: Profile,
  c: ApiCall,
): Promise<{ status: number; body: Record<string, unknown>; res: Res; sealed: boolean }> {
  const client = c.client ?? p.clients.code;
  const headers: Record<string, string> = {
    'X-Gateway-Client-Id': client.clientId,
    ...(c.token ? { Authorization: `Bearer ${c.token}` } : {}),
    ...(c.headers ?? {}),
  };
  let body = c.raw;
  if (body === undefined && c.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body =
      p.environment === 'uat'
        ? JSON.stringify(await seal(c.body, { signingKey: client.privateKey!, encryptionKey: p.bank!.apiPublicKey! }))
        : JSON.stringify(c.body);
  }
  const res = await call(`${p.target.baseUrl}/v1${c.path}`, {
    method: c.method,
    headers,
    ...(body !== undefined ? { body } : {}),
    tls: tlsOf(p, client),
  });
  const sealed = typeof res.json === 'object' && res.json !== null && 'recipients' in res.json;
  const opened = sealed ? await openAs(p, client, res) : (res.json ?? {});
  return { status: res.status, body: opened as Record<string, unknown>, res, sealed };
}

export function transferBody(p: Profile, customer = 0, over: Record<string, unknown> = {}): Record<string, unknown> {
  const c = p.customers[customer]!;
  return {
    beneficiary_id: c.beneficiaryId,
    account_id: mask(c.accountId),
    amount: { value: '150.00', currency: 'AED' },
    purpose_code: 'FAM',
    remarks: 'rent',
    ...over,
  };
}

export async function advance(p: Profile, seconds: number): Promise<void> {
  const res = await call(p.target.clock!, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ advance_seconds: seconds }),
  });
  if (res.status !== 204) throw new Error(`clock: ${res.status}`);
}

/**
 * a sandbox mock of the test file's own: started before its tests (`use` is given it and its profile, named
 * mock-sandbox), closed after them
 */
export function sandboxMockFor(use: (started: { mock: MockBank; p: Profile }) => void): void {
  let mock: MockBank | undefined;
  beforeAll(async () => {
    mock = await startMockBank({ mode: 'sandbox', pki: await testPki() });
    use({ mock, p: mock.profile('mock-sandbox') });
  });
  afterAll(() => mock?.close());
}
