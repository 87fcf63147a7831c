/**
 * The transfers API (specification §1, §4.1; contract "Transfer bodies"). Order of checks on every call:
 * route (404/405) -> API key header (401) -> [UAT: certificate registered for that client (403)] -> bearer token
 * (401) -> scope (403) -> quota (429, counts from here) -> body present / size (400/413) -> [UAT: open the sealed
 * body (400, no side effect)] -> JSON (400) -> validation (422/403) -> operation.
 * Every 4xx/5xx carries the five-member error body; in UAT every answer is sealed to the calling client once it is
 * established (API key known and certificate bound), plain before that.
 * Routing: transfer-route.ts; validation: transfer-validate.ts; operations: transfer-ops.ts; answers:
 * transfer-reply.ts; the faults this API knows: transfer-faults.ts (one table, read once per call).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MockContext } from '../context.ts';
import { TRANSFERS_SCOPE, type RegisteredClient } from '../data.ts';
import { apiError, type ApiError } from '../errors.ts';
import { header, parseBearer, readBody } from '../server/http.ts';
import { openRequest, publicReason } from '../jose/seal.ts';
import type { GateResult } from '../server/tls-gate.ts';
import { certBoundTo } from '../server/tls-gate.ts';
import type { AccessToken } from '../oauth/tokens.ts';
import { faultsOf, type TransferFaults } from './transfer-faults.ts';
import {
  createTransfer,
  defaultBody,
  getTransfer,
  ownerOf,
  sideEffectCreate,
  validateResponse,
} from './transfer-ops.ts';
import { Reply, discard } from './transfer-reply.ts';
import { matchRoute, sanitize, type Route } from './transfer-route.ts';
import { validate } from './transfer-validate.ts';

type Json = Record<string, unknown>;

/** one call being answered */
interface Call {
  ctx: MockContext;
  ff: TransferFaults;
  req: IncomingMessage;
  reply: Reply;
}

const NOT_FOUND = (): ApiError => apiError(404, 2, 'path', 'Resource not found', 'No resource exists at this path.');

/** `rest` is the path below the basepath, e.g. /transfers/abc */
export async function handleTransfers(
  ctx: MockContext,
  req: IncomingMessage,
  res: ServerResponse,
  rest: string,
  gate: GateResult & { ok: true },
): Promise<void> {
  const ff = faultsOf(ctx.faults);
  const call: Call = { ctx, ff, req, reply: new Reply(ctx, res, ff) };
  const route = await routeGate(call, rest);
  if (!route) return;
  const client = await apiKeyGate(call, gate);
  if (client === null) return;
  const admitted = await tokenGate(call, gate, client);
  if (!admitted) return;
  if (!(await scopeGate(call, admitted.token))) return;
  if (!(await quotaGate(call, route, admitted.token, admitted.client))) return;
  try {
    return await runOperation(call, route, admitted.token, admitted.client);
  } finally {
    ctx.quota.answered(admitted.client.id, route.op, call.reply.status);
  }
}

/** 404 for an unknown path, 405 (with Allow) for a method the resource does not offer */
async function routeGate({ ctx, ff, req, reply }: Call, rest: string): Promise<Route | undefined> {
  const method = req.method ?? 'GET';
  const route = matchRoute(rest, method, ctx.lenient);
  if (route === 'not-found' || ('allow' in route && ff.methodNotAllowed404)) {
    await reply.error(NOT_FOUND());
    return undefined;
  }
  if ('allow' in route) {
    const text = `The method ${sanitize(method)} is not allowed for this resource.`;
    await reply.error(apiError(405, 1, 'method', 'Method not allowed', text, { Allow: route.allow }));
    return undefined;
  }
  return route;
}

/**
 * The X-Gateway-Client-Id API key names a registered client whose certificate was presented. Returns the client,
 * undefined when the header may be absent (api-key-not-required), null when the call was answered.
 */
async function apiKeyGate(
  { ctx, ff, req, reply }: Call,
  gate: GateResult & { ok: true },
): Promise<RegisteredClient | undefined | null> {
  const headerId = header(req, 'x-gateway-client-id');
  const client = headerId !== undefined ? ctx.data.clients.get(headerId) : undefined;
  if (!client && !ff.apiKeyNotRequired) {
    const msg = headerId === undefined ? 'X-Gateway-Client-Id is missing' : 'Unknown client id';
    const text = 'The client id API key header X-Gateway-Client-Id must name a registered application.';
    await reply.error(
      apiError(401, 1, 'X-Gateway-Client-Id', msg, text, { 'WWW-Authenticate': 'Bearer realm="transfers"' }),
    );
    return null;
  }
  if (client && !certBoundTo(ctx, gate.peer, client.id)) {
    await reply.error(certNotRegistered());
    return null;
  }
  if (client) reply.client = client;
  return client;
}

const INVALID_TOKEN_CHALLENGE =
  'Bearer realm="transfers", error="invalid_token", error_description="The access token is invalid or expired"';

/** a live bearer token, issued to the calling client */
async function tokenGate(
  { ctx, req, reply }: Call,
  gate: GateResult & { ok: true },
  headerClient: RegisteredClient | undefined,
): Promise<{ token: AccessToken; client: RegisteredClient } | undefined> {
  const bearer = parseBearer(header(req, 'authorization'));
  if (bearer === undefined) {
    // RFC 6750 §3.1: no error code for a request without credentials; lenient: contract.md's invalid_token
    const challenge = ctx.lenient ? INVALID_TOKEN_CHALLENGE : 'Bearer realm="transfers"';
    const text = 'A bearer access token is required.';
    await reply.error(
      apiError(401, 2, 'Authorization', 'Access token is missing', text, { 'WWW-Authenticate': challenge }),
    );
    return undefined;
  }
  const invalid = async (): Promise<undefined> => {
    const text = 'The access token is malformed, unknown, expired or revoked.';
    const e = apiError(401, 3, 'Authorization', 'Invalid or expired access token', text, {
      'WWW-Authenticate': INVALID_TOKEN_CHALLENGE,
    });
    await reply.error(e);
    return undefined;
  };
  const token = bearer === null ? undefined : ctx.tokens.lookup(bearer);
  if (!token) return invalid();
  if (headerClient) return token.clientId === headerClient.id ? { token, client: headerClient } : invalid();
  // api-key-not-required: the token's client stands in for the missing header
  const client = ctx.data.clients.get(token.clientId)!;
  if (!certBoundTo(ctx, gate.peer, client.id)) {
    await reply.error(certNotRegistered());
    return undefined;
  }
  reply.client = client;
  return { token, client };
}

async function scopeGate({ ff, reply }: Call, token: AccessToken): Promise<boolean> {
  if (token.scopes.includes(TRANSFERS_SCOPE) || ff.scopeNotEnforced) return true;
  const text = `The access token lacks the scope ${TRANSFERS_SCOPE}.`;
  const challenge = `Bearer realm="transfers", error="insufficient_scope", scope="${TRANSFERS_SCOPE}"`;
  await reply.error(apiError(403, 1, 'scope', 'Insufficient scope', text, { 'WWW-Authenticate': challenge }));
  return false;
}

/** the hourly quota per client and operation (counted from here on) */
async function quotaGate(call: Call, route: Route, token: AccessToken, client: RegisteredClient): Promise<boolean> {
  const { ctx, ff, reply } = call;
  const quota = await ctx.quota.take(client.id, route.op);
  if (quota.ok) return true;
  if (route.op === 'create' && ff.quotaRefusalSideEffect)
    await runOperation({ ...call, reply: new Reply(ctx, discard(), ff) }, route, token, client);
  // quota-early-long-wait (QuotaStore counts half the quota), quota-refusal-bare: no body, as a gateway's would be
  if (ff.quotaEarlyLongWait || ff.quotaRefusalBare) {
    reply.bare(429, ff.quotaEarlyLongWait ? { 'Retry-After': String(quota.retryAfterSeconds) } : {});
    return false;
  }
  const headers: Record<string, string> = ff.quotaNoRetryAfter
    ? {}
    : { 'Retry-After': String(quota.retryAfterSeconds) };
  const text = 'The hourly quota for this operation is exhausted; retry later.';
  await reply.error(apiError(429, 1, 'quota', 'Quota exceeded', text, headers));
  return false;
}

async function runOperation(call: Call, route: Route, token: AccessToken, client: RegisteredClient): Promise<void> {
  const { ctx, ff, reply } = call;
  if (route.op === 'get') return getTransfer(ctx, ff, route.transferId!, token, client, reply);
  const body = await readRequest(call, route, token, client);
  if (body === undefined) return;
  const checked = validate(ctx, ff, body, token);
  if (!checked.ok) return reply.error(checked.error);
  if (route.op === 'validate') return reply.json(200, validateResponse(ctx, ff, checked.request, checked.customer));
  const owner = ownerOf(client, token, checked.customer);
  const create = { transferId: route.transferId!, body, request: checked.request, customer: checked.customer, owner };
  return createTransfer(ctx, ff, create, reply);
}

/** the request document: present, within the size limit, opened (UAT), JSON, an object; undefined when answered */
async function readRequest(
  call: Call,
  route: Route,
  token: AccessToken,
  client: RegisteredClient,
): Promise<Json | undefined> {
  const { ctx, ff, req, reply } = call;
  const read = await readBody(req, ff.bodySizeUnlimited ? Infinity : ctx.maxBodyBytes);
  if (!read.ok) {
    if (read.reason === 'too-large') {
      const text = `The request body exceeds ${ctx.maxBodyBytes} bytes.`;
      await reply.error(apiError(413, 1, 'body', 'Payload too large', text), true);
    }
    return undefined; // else the client went away
  }
  let body: unknown;
  if (blank(read.body)) {
    if (!ff.emptyBodyAccepted) {
      await reply.error(apiError(400, 2, 'body', 'body is missing', 'POST and PUT require a request body.'));
      return undefined;
    }
    body = defaultBody(ctx, token);
  } else {
    const parsed =
      ctx.mode === 'uat' ? await openSealed(call, route, read.body, token, client) : parseJson(read.body, ff);
    if (!parsed.ok && parsed.error === TRACEBACK_503) {
      reply.bare(503, {}, { type: 'text/html; charset=utf-8', text: TRACEBACK_PAGE });
      return undefined;
    }
    if (!parsed.ok) {
      await reply.error(parsed.error);
      return undefined;
    }
    body = parsed.body;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    await reply.error(apiError(400, 4, 'body', 'Malformed request', 'The request body must be a JSON object.'));
    return undefined;
  }
  return body as Json;
}

/**
 * a body with no text but white space (as String.prototype.trim reads it); one that starts with a visible ASCII
 * character (a JSON document, a sealed envelope) is not decoded for it
 */
function blank(body: Buffer): boolean {
  if (body.length === 0) return true;
  const first = body[0]!;
  if (first > 0x20 && first < 0x7f) return false;
  return body.toString('utf8').trim() === '';
}

type Parsed = { ok: true; body: unknown } | { ok: false; error: ApiError };

const INTERNAL_ERROR = (): ApiError =>
  apiError(500, 1, 'body', 'Internal error', 'The request could not be processed.');

/** malformed-json-503-traceback: the crash of a Python service behind the API, its page answered as it is */
const TRACEBACK_503 = apiError(503, 1, 'body', 'Internal error', 'The request could not be processed.');
const TRACEBACK_PAGE = [
  '<html><head><title>503 Service Unavailable</title></head><body><h1>Service Unavailable</h1><pre>',
  'Traceback (most recent call last):',
  '  File "/opt/bank/app/transfers.py", line 88, in validate',
  '    body = json.loads(request.data)',
  '  File "/usr/lib/python3.11/json/__init__.py", line 346, in loads',
  '    return _default_decoder.decode(s)',
  'json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)',
  '</pre></body></html>',
  '',
].join('\n');

function parseJson(raw: Buffer, ff?: TransferFaults): Parsed {
  try {
    return { ok: true, body: JSON.parse(raw.toString('utf8')) };
  } catch {
    if (ff?.malformedJson503Traceback) return { ok: false, error: TRACEBACK_503 };
    if (ff?.malformedJson500) return { ok: false, error: INTERNAL_ERROR() };
    return { ok: false, error: apiError(400, 1, 'body', 'Malformed JSON', 'The request body is not valid JSON.') };
  }
}

/** UAT: the sealed body opened (400 with no side effect when refused) */
async function openSealed(
  { ctx, ff }: Call,
  route: Route,
  raw: Buffer,
  token: AccessToken,
  client: RegisteredClient,
): Promise<Parsed> {
  const opened = await openRequest(ctx, raw, client, 'jose-accept-plain');
  if (opened.ok) return { ok: true, body: opened.payload };
  if (ff.malformedJson500 && (opened.code === 'NOT_JSON' || opened.code === 'PAYLOAD_NOT_JSON'))
    return { ok: false, error: INTERNAL_ERROR() };
  if (ff.malformedJson503Traceback && (opened.code === 'NOT_JSON' || opened.code === 'PAYLOAD_NOT_JSON'))
    return { ok: false, error: TRACEBACK_503 };
  if (opened.status === 500) return { ok: false, error: INTERNAL_ERROR() };
  if (route.op === 'create' && ff.joseSideEffectOnRefusal)
    await sideEffectCreate(ctx, raw, route.transferId!, token, client);
  const text = `The sealed request body was refused: ${publicReason(opened.reason)}.`;
  return { ok: false, error: apiError(400, 3, 'body', 'Invalid sealed payload', text) };
}

function certNotRegistered(): ApiError {
  const text = 'The client certificate is not the one registered for this client id.';
  return apiError(403, 3, 'client_certificate', 'Client certificate refused', text);
}
