/** What the mock's OAuth endpoints share: no-store answers, RFC 6749 §5.2 errors, client authentication, form reading. */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MockContext } from '../context.ts';
import type { RegisteredClient } from '../data.ts';
import { oauthError, type OAuthError } from '../errors.ts';
import { header, mediaType, parseBasic, readBody, sendJson } from '../server/http.ts';
import { certBoundTo, type GateResult } from '../server/tls-gate.ts';

export type OkGate = GateResult & { ok: true };
export const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };

export function sendOAuthError(res: ServerResponse, e: OAuthError, extra: Record<string, string> = {}): void {
  const headers: Record<string, string> = { ...NO_STORE, ...extra };
  if (e.status === 401) headers['WWW-Authenticate'] = 'Basic realm="oauth"';
  sendJson(res, e.status, { error: e.error, error_description: e.description }, { headers });
}

function secretMatches(client: RegisteredClient, secret: string): boolean {
  const a = createHash('sha256').update(client.secret).digest();
  const b = createHash('sha256').update(secret).digest();
  return timingSafeEqual(a, b);
}

/** known client with the right secret (any secret under the token-wrong-secret-accepted fault) */
export function authenticate(
  ctx: MockContext,
  id: string | undefined,
  secret: string | undefined,
): RegisteredClient | undefined {
  const c = id !== undefined ? ctx.data.clients.get(id) : undefined;
  if (!c || secret === undefined) return undefined;
  return secretMatches(c, secret) || ctx.faults.on('token-wrong-secret-accepted') ? c : undefined;
}

/** the client of a request authenticated by HTTP Basic (RFC 6749 §2.3.1), or the invalid_client error to answer */
export function basicClient(
  ctx: MockContext,
  req: IncomingMessage,
): { client: RegisteredClient; error?: undefined } | { client?: undefined; error: OAuthError } {
  const basic = parseBasic(header(req, 'authorization'));
  if (!basic) return { error: oauthError('invalid_client', 'client authentication (HTTP Basic) is required') };
  const client = authenticate(ctx, basic.id, basic.secret);
  return client ? { client } : { error: oauthError('invalid_client', 'client authentication failed') };
}

/**
 * the client certificate of the connection is not the one registered for `clientId`: the invalid_client error to
 * answer (undefined when it is, or when this environment binds no certificate)
 */
export function certificateNotBound(ctx: MockContext, gate: OkGate, clientId: string): OAuthError | undefined {
  return certBoundTo(ctx, gate.peer, clientId)
    ? undefined
    : oauthError('invalid_client', 'the client certificate is not the one registered for this client id');
}

/** a map of the mock's, kept per mock (a WeakMap on its context) */
export function perMock<V>(): (ctx: MockContext) => Map<string, V> {
  const byCtx = new WeakMap<MockContext, Map<string, V>>();
  return (ctx) => {
    let m = byCtx.get(ctx);
    if (!m) byCtx.set(ctx, (m = new Map()));
    return m;
  };
}

export function single(q: URLSearchParams, name: string): string | undefined | null {
  const all = q.getAll(name);
  if (all.length > 1) return null; // RFC 6749 §3.1: parameters must not be repeated
  return all[0];
}

/** a form body (RFC 6749 §4.1.3, §4.4.2); lenient mode also reads a JSON object as one (the rules allow it) */
export async function readForm(
  ctx: MockContext,
  req: IncomingMessage,
): Promise<{ ok: true; form: URLSearchParams } | { ok: false; error: OAuthError }> {
  const type = mediaType(req);
  const jsonOk = ctx.mode === 'sandbox' && ctx.lenient && type === 'application/json';
  const charsetRefused =
    ctx.faults.on('token-form-charset-refused') && /;\s*charset=/i.test(req.headers['content-type'] ?? '');
  if ((type !== 'application/x-www-form-urlencoded' && !jsonOk) || charsetRefused) {
    return {
      ok: false,
      error: oauthError('invalid_request', 'Content-Type must be application/x-www-form-urlencoded'),
    };
  }
  const read = await readBody(req, 64 * 1024);
  if (!read.ok) return { ok: false, error: oauthError('invalid_request', 'the request body is too large') };
  const text = read.body.toString('utf8');
  if (type !== 'application/json') return { ok: true, form: new URLSearchParams(text) };
  try {
    const o = JSON.parse(text) as Record<string, unknown>;
    const form = new URLSearchParams();
    for (const [k, v] of Object.entries(o)) form.append(k, typeof v === 'string' ? v : JSON.stringify(v));
    return { ok: true, form };
  } catch {
    return { ok: false, error: oauthError('invalid_request', 'the request body is not JSON') };
  }
}
