/**
 * The transfers API (seed §1, §4.1; contract "Transfer bodies"). Order of checks on every call:
 * route (404/405) -> API key header (401) -> [UAT: certificate registered for that client (403)] -> bearer token
 * (401) -> scope (403) -> quota (429, counts from here) -> body present / size (400/413) -> [UAT: open the sealed
 * body (400, no side effect)] -> JSON (400) -> validation (422/403) -> operation.
 * Every 4xx/5xx carries the five-member error body; in UAT every answer is sealed to the calling client once it is
 * established (API key known and certificate bound), plain before that.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MockContext } from './context.ts';
import { APPROVERS, CURRENCIES, TRANSFERS_SCOPE, type MockCustomer, type RegisteredClient } from './data.ts';
import { apiError, apiErrorBody, type ApiError } from './errors.ts';
import { header, parseBearer, readBody, sendJson } from './http.ts';
import { mask } from '../mask/index.ts';
import { isMasked, masksTo } from './masking.ts';
import type { Operation } from './quota.ts';
import { openCarelessly, openRequest, publicReason, sealResponse } from './seal.ts';
import type { GateResult } from './tls-gate.ts';
import { certBoundTo } from './tls-gate.ts';
import type { AccessToken } from './tokens.ts';
import {
  canonical,
  newPaymentReference,
  ownerKey,
  type StoredTransfer,
  type TransferRequest,
} from './transfer-store.ts';

const CHARGES_CENTS = 525n;
const TRANSFER_ID = /^[A-Za-z0-9._:-]{1,64}$/;
const AMOUNT = /^(0|[1-9][0-9]{0,14})(\.[0-9]{1,2})?$/;

interface Route {
  op: Operation;
  transferId?: string;
}

type Json = Record<string, unknown>;

/** one call: who is answering whom, and how */
class Reply {
  /** the client responses are sealed to (UAT), once established */
  client: RegisteredClient | undefined;
  constructor(
    private readonly ctx: MockContext,
    private readonly res: ServerResponse,
  ) {}

  async json(status: number, body: unknown, headers: Record<string, string> = {}, close = false): Promise<void> {
    const out = this.ctx.mode === 'uat' && this.client ? await sealResponse(this.ctx, body, this.client) : body;
    if (this.ctx.faults.on('server-software-headers'))
      headers = { ...headers, Server: 'nginx/1.25.3', 'X-Powered-By': 'Express' };
    sendJson(this.res, status, out, { headers: { 'Cache-Control': 'no-store', ...headers }, close });
  }

  async error(e: ApiError, close = false): Promise<void> {
    const headers = { ...(e.headers ?? {}) };
    if (e.status === 401 && this.ctx.faults.on('no-www-authenticate')) delete headers['WWW-Authenticate'];
    await this.json(e.status, apiErrorBody(e, this.ctx.faults), headers, close);
  }
}

/** `rest` is the path below the basepath, e.g. /transfers/abc */
export async function handleTransfers(
  ctx: MockContext,
  req: IncomingMessage,
  res: ServerResponse,
  rest: string,
  gate: GateResult & { ok: true },
): Promise<void> {
  const reply = new Reply(ctx, res);
  const f = ctx.faults;
  const method = req.method ?? 'GET';

  // --- route
  const route = matchRoute(rest, method);
  if (route === 'not-found')
    return reply.error(apiError(404, 2, 'path', 'Resource not found', 'No resource exists at this path.'));
  if (typeof route === 'object' && 'allow' in route) {
    if (f.on('method-not-allowed-404'))
      return reply.error(apiError(404, 2, 'path', 'Resource not found', 'No resource exists at this path.'));
    return reply.error(
      apiError(
        405,
        1,
        'method',
        'Method not allowed',
        `The method ${sanitize(method)} is not allowed for this resource.`,
        { Allow: route.allow },
      ),
    );
  }

  // --- API key
  const headerId = header(req, 'x-gateway-client-id');
  let client = headerId !== undefined ? ctx.data.clients.get(headerId) : undefined;
  if (!client && !f.on('api-key-not-required')) {
    return reply.error(
      apiError(
        401,
        1,
        'X-Gateway-Client-Id',
        headerId === undefined ? 'X-Gateway-Client-Id is missing' : 'Unknown client id',
        'The client id API key header X-Gateway-Client-Id must name a registered application.',
        { 'WWW-Authenticate': 'Bearer realm="transfers"' },
      ),
    );
  }
  if (client && !certBoundTo(ctx, gate.peer, client.id)) return reply.error(certNotRegistered());
  if (client) reply.client = client;

  // --- bearer token
  const bearer = parseBearer(header(req, 'authorization'));
  if (bearer === undefined) {
    return reply.error(
      apiError(401, 2, 'Authorization', 'Access token is missing', 'A bearer access token is required.', {
        'WWW-Authenticate': 'Bearer realm="transfers"',
      }),
    );
  }
  const invalidToken = (): Promise<void> =>
    reply.error(
      apiError(
        401,
        3,
        'Authorization',
        'Invalid or expired access token',
        'The access token is malformed, unknown, expired or revoked.',
        {
          'WWW-Authenticate':
            'Bearer realm="transfers", error="invalid_token", error_description="The access token is invalid or expired"',
        },
      ),
    );
  const token = bearer === null ? undefined : ctx.tokens.lookup(bearer);
  if (!token) return invalidToken();
  if (!client) {
    // api-key-not-required: the token's client stands in for the missing header
    client = ctx.data.clients.get(token.clientId)!;
    if (!certBoundTo(ctx, gate.peer, client.id)) return reply.error(certNotRegistered());
    reply.client = client;
  } else if (token.clientId !== client.id) {
    // a token is used only by the client it was issued to
    return invalidToken();
  }

  // --- scope
  if (!token.scopes.includes(TRANSFERS_SCOPE) && !f.on('scope-not-enforced')) {
    return reply.error(
      apiError(403, 1, 'scope', 'Insufficient scope', `The access token lacks the scope ${TRANSFERS_SCOPE}.`, {
        'WWW-Authenticate': `Bearer realm="transfers", error="insufficient_scope", scope="${TRANSFERS_SCOPE}"`,
      }),
    );
  }

  // --- quota
  const quota = await ctx.quota.take(client.id, route.op);
  if (!quota.ok) {
    if (route.op === 'create' && f.on('quota-refusal-side-effect'))
      await runOperation(ctx, req, route, token, client, new Reply(ctx, discard()));
    const headers: Record<string, string> = f.on('quota-no-retry-after')
      ? {}
      : { 'Retry-After': String(quota.retryAfterSeconds) };
    return reply.error(
      apiError(
        429,
        1,
        'quota',
        'Quota exceeded',
        'The hourly quota for this operation is exhausted; retry later.',
        headers,
      ),
    );
  }

  return runOperation(ctx, req, route, token, client, reply);
}

async function runOperation(
  ctx: MockContext,
  req: IncomingMessage,
  route: Route,
  token: AccessToken,
  client: RegisteredClient,
  reply: Reply,
): Promise<void> {
  if (route.op === 'get') return getTransfer(ctx, route.transferId!, token, client, reply);

  // --- body
  const read = await readBody(req, ctx.faults.on('body-size-unlimited') ? Infinity : ctx.maxBodyBytes);
  if (!read.ok) {
    if (read.reason === 'too-large')
      return reply.error(
        apiError(413, 1, 'body', 'Payload too large', `The request body exceeds ${ctx.maxBodyBytes} bytes.`),
        true,
      );
    return; // the client went away
  }
  let body: unknown;
  if (read.body.length === 0 || read.body.toString('utf8').trim() === '') {
    if (!ctx.faults.on('empty-body-accepted'))
      return reply.error(apiError(400, 2, 'body', 'body is missing', 'POST and PUT require a request body.'));
    body = defaultBody(ctx, token);
  } else if (ctx.mode === 'uat') {
    const opened = await openRequest(ctx, read.body, client, 'jose-accept-plain');
    if (!opened.ok) {
      if (ctx.faults.on('malformed-json-500') && (opened.code === 'NOT_JSON' || opened.code === 'PAYLOAD_NOT_JSON')) {
        return reply.error(apiError(500, 1, 'body', 'Internal error', 'The request could not be processed.'));
      }
      if (opened.status === 500)
        return reply.error(apiError(500, 1, 'body', 'Internal error', 'The request could not be processed.'));
      if (route.op === 'create' && ctx.faults.on('jose-side-effect-on-refusal')) {
        await sideEffectCreate(ctx, read.body, route.transferId!, token, client);
      }
      return reply.error(
        apiError(
          400,
          3,
          'body',
          'Invalid sealed payload',
          `The sealed request body was refused: ${publicReason(opened.reason)}.`,
        ),
      );
    }
    body = opened.payload;
  } else {
    try {
      body = JSON.parse(read.body.toString('utf8'));
    } catch {
      if (ctx.faults.on('malformed-json-500'))
        return reply.error(apiError(500, 1, 'body', 'Internal error', 'The request could not be processed.'));
      return reply.error(apiError(400, 1, 'body', 'Malformed JSON', 'The request body is not valid JSON.'));
    }
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return reply.error(apiError(400, 4, 'body', 'Malformed request', 'The request body must be a JSON object.'));
  }

  const checked = validate(ctx, body as Json, token);
  if (!checked.ok) return reply.error(checked.error);
  if (route.op === 'validate') return reply.json(200, validateResponse(ctx, checked.request, checked.customer));
  return createTransfer(
    ctx,
    route.transferId!,
    body as Json,
    checked.request,
    checked.customer,
    ownerOf(client, token, checked.customer),
    reply,
  );
}

// ------------------------------------------------------------------------------------------------------------
// routing

function matchRoute(rest: string, method: string): Route | 'not-found' | { allow: string } {
  const m = /^\/transfers\/([^/]+)$/.exec(rest);
  if (!m) return 'not-found';
  if (m[1] === 'validate') return method === 'POST' ? { op: 'validate' } : { allow: 'POST' };
  let id: string;
  try {
    id = decodeURIComponent(m[1]!);
  } catch {
    return 'not-found';
  }
  if (method === 'GET') return { op: 'get', transferId: id };
  if (method === 'PUT') return { op: 'create', transferId: id };
  return { allow: 'GET, PUT' };
}

/** a method name is the caller's text: keep it short and harmless before putting it into a description */
function sanitize(s: string): string {
  return s.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 16);
}

function certNotRegistered(): ApiError {
  return apiError(
    403,
    3,
    'client_certificate',
    'Client certificate refused',
    'The client certificate is not the one registered for this client id.',
  );
}

/** a sink for work done while the real answer is something else (quota-refusal-side-effect) */
function discard(): ServerResponse {
  return { headersSent: true } as unknown as ServerResponse;
}

// ------------------------------------------------------------------------------------------------------------
// validation

type Checked = { ok: true; request: TransferRequest; customer: MockCustomer } | { ok: false; error: ApiError };

function validate(ctx: MockContext, body: Json, token: AccessToken): Checked {
  const f = ctx.faults;
  const missing = (p: string): Checked => ({
    ok: false,
    error: f.on('missing-property-not-named')
      ? apiError(422, 1, 'body', 'invalid request', 'The request is invalid.')
      : apiError(422, 1, p, `${p} is missing`, `The required property ${p} is missing from the request.`),
  });
  const invalid = (p: string, why: string): Checked => ({
    ok: false,
    error: apiError(422, 2, p, `${p} is invalid`, `The property ${p} is invalid: ${why}.`),
  });
  const absent = (v: unknown): boolean => v === undefined || v === null || v === '';

  // the debit identifier: the one the token is bound to; an unbound client-credentials token (sandbox: the
  // seed has no oauth_metadata there) names the account it acts on; in UAT an unbound token may not move money
  if (!token.binding && ctx.mode === 'uat') {
    return {
      ok: false,
      error: apiError(
        403,
        4,
        'account_id',
        'Token not bound to an account',
        'The access token is not bound to an account id or emirates id.',
      ),
    };
  }
  const debitProp: 'account_id' | 'emirates_id' = token.binding
    ? token.binding.kind === 'emirates'
      ? 'emirates_id'
      : 'account_id'
    : body.account_id === undefined && body.emirates_id !== undefined
      ? 'emirates_id'
      : 'account_id';

  // missing, in a stable order
  if (absent(body.beneficiary_id)) return missing('beneficiary_id');
  if (absent(body.amount)) return missing('amount');
  if (absent(body[debitProp])) return missing(debitProp);
  const amount = body.amount;
  if (typeof amount !== 'object' || amount === null || Array.isArray(amount))
    return invalid('amount', 'it must be an object with value and currency');
  const a = amount as Json;
  if (absent(a.value)) return missing('amount.value');
  if (absent(a.currency)) return missing('amount.currency');

  // values
  if (typeof body.beneficiary_id !== 'string' || body.beneficiary_id.length > 64)
    return invalid('beneficiary_id', 'it must be a string');
  if (typeof a.value !== 'string') return invalid('amount.value', 'it must be a decimal string');
  const lax = f.on('nonpositive-amount-accepted');
  const valueText = lax && a.value.startsWith('-') ? a.value.slice(1) : a.value;
  if (!AMOUNT.test(valueText)) return invalid('amount.value', 'it must be a decimal string with at most 2 decimals');
  if (toCents(a.value) <= 0n && !lax) return invalid('amount.value', 'it must be greater than zero');
  if (typeof a.currency !== 'string' || !/^[A-Z]{3}$/.test(a.currency))
    return invalid('amount.currency', 'it must be an ISO 4217 currency code');
  if (!CURRENCIES.has(a.currency) && !f.on('invalid-currency-accepted'))
    return invalid('amount.currency', 'it is not in the currency code list');
  for (const p of ['purpose_code', 'remarks'] as const) {
    if (body[p] !== undefined && (typeof body[p] !== 'string' || (body[p] as string).length > 140))
      return invalid(p, 'it must be a string of at most 140 characters');
  }

  // identifiers: masked (422), then naming the token's customer (403)
  const clearOf = (c: MockCustomer, p: 'account_id' | 'emirates_id'): string =>
    p === 'account_id' ? c.accountId : c.emiratesId;
  const bound = token.binding?.customer;
  for (const p of ['account_id', 'emirates_id'] as const) {
    const v = body[p];
    if (v === undefined) continue;
    if (typeof v !== 'string') return invalid(p, 'it must be a string');
    const unmaskedOk =
      f.on('accept-unmasked-id') && (bound ? [bound] : ctx.data.customers).some((c) => clearOf(c, p) === v);
    if (!isMasked(v, f) && !unmaskedOk) {
      return {
        ok: false,
        error: apiError(
          422,
          3,
          p,
          `${p} must be masked`,
          `The property ${p} must be sent masked (first 4 and last 3 characters kept, the rest replaced with x).`,
        ),
      };
    }
  }
  const debit = body[debitProp] as string;
  const matches = (c: MockCustomer): boolean =>
    masksTo(debit, clearOf(c, debitProp), f) || (f.on('accept-unmasked-id') && debit === clearOf(c, debitProp));
  let customer = bound;
  if (!customer || !matches(customer)) {
    const anyAccount =
      !bound ||
      (token.grantId !== undefined ? f.on('code-token-any-account') : ctx.mode === 'uat' && f.on('cc-binding-ignored'));
    const found = anyAccount ? ctx.data.customers.find(matches) : undefined;
    if (!found) {
      const echo = f.on('mask-echo-clear-id') && bound ? ` (the token is bound to ${clearOf(bound, debitProp)})` : '';
      return {
        ok: false,
        error: apiError(
          403,
          4,
          debitProp,
          `${debitProp} not allowed for this token`,
          `The ${debitProp} is not one the access token may act on${echo}.`,
        ),
      };
    }
    customer = found;
  }
  const otherProp = debitProp === 'account_id' ? 'emirates_id' : 'account_id';
  const otherValue = body[otherProp];
  if (typeof otherValue === 'string') {
    const clear = clearOf(customer, otherProp);
    if (!masksTo(otherValue, clear, f) && !(f.on('accept-unmasked-id') && otherValue === clear)) {
      return {
        ok: false,
        error: apiError(
          403,
          4,
          otherProp,
          `${otherProp} not allowed for this token`,
          `The ${otherProp} does not belong to the customer the access token is bound to.`,
        ),
      };
    }
  }
  if (!customer.beneficiaries.includes(body.beneficiary_id))
    return invalid('beneficiary_id', "it is not one of the customer's beneficiaries");

  // only these members are kept: read-only fields (payment_reference_id, status, created_at, transfer_id) are ignored
  const request: TransferRequest = {
    beneficiary_id: body.beneficiary_id,
    amount: { value: a.value, currency: a.currency },
    ...(typeof body.account_id === 'string' ? { account_id: body.account_id } : {}),
    ...(typeof body.emirates_id === 'string' ? { emirates_id: body.emirates_id } : {}),
    ...(typeof body.purpose_code === 'string' ? { purpose_code: body.purpose_code } : {}),
    ...(typeof body.remarks === 'string' ? { remarks: body.remarks } : {}),
  };
  return { ok: true, request, customer };
}

function toCents(value: string): bigint {
  const neg = value.startsWith('-');
  const [i, d = ''] = (neg ? value.slice(1) : value).split('.');
  const cents = BigInt(i!) * 100n + BigInt((d + '00').slice(0, 2));
  return neg ? -cents : cents;
}

function fromCents(c: bigint): string {
  const neg = c < 0n;
  const abs = neg ? -c : c;
  return `${neg ? '-' : ''}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
}

/** a plausible request for the token's customer (empty-body-accepted) */
function defaultBody(ctx: MockContext, token: AccessToken): Json {
  const c = token.binding?.customer ?? ctx.data.customers[0]!;
  return {
    beneficiary_id: c.beneficiaries[0],
    amount: { value: '1.00', currency: 'AED' },
    ...(token.binding?.kind === 'emirates' ? { emirates_id: mask(c.emiratesId) } : { account_id: mask(c.accountId) }),
  };
}

// ------------------------------------------------------------------------------------------------------------
// operations

function validateResponse(ctx: MockContext, r: TransferRequest, customer: MockCustomer): Json {
  const f = ctx.faults;
  const cur = r.amount.currency;
  const amount = toCents(r.amount.value);
  const out: Json = { charges: { value: fromCents(CHARGES_CENTS), currency: cur } };
  if (!f.on('validate-missing-debit-amount'))
    out.debit_amount = { value: fromCents(amount + CHARGES_CENTS), currency: cur };
  out.total_credit_amount = { value: fromCents(amount), currency: cur };
  out.authentication_mode = 'OTP';
  if (customer.workflow || f.on('approvers-always')) out.approvers = APPROVERS.map((a) => ({ ...a }));
  if (f.on('mask-echo-clear-id')) out.account_id = customer.accountId;
  if (f.on('mask-echo-wrong-mask')) out.account_id = wrongMask(customer.accountId);
  return out;
}

/**
 * Whose transfers these are: the client acting for a customer. An unbound client-credentials token (sandbox only)
 * acts in the client's own namespace.
 */
function ownerOf(client: RegisteredClient, token: AccessToken, acting: MockCustomer): string {
  return token.binding ? ownerKey(client.id, acting.uuid) : ownerKey(client.id, '*');
}

async function createTransfer(
  ctx: MockContext,
  transferId: string,
  body: Json,
  request: TransferRequest,
  customer: MockCustomer,
  owner: string,
  reply: Reply,
): Promise<void> {
  const f = ctx.faults;
  if (!TRANSFER_ID.test(transferId)) {
    return reply.error(
      apiError(
        422,
        2,
        'transfer_id',
        'transfer_id is invalid',
        'The transfer_id must be 1 to 64 characters from A-Z, a-z, 0-9, ".", "_", ":" and "-".',
      ),
    );
  }
  const fingerprint = canonical(request);
  const found = ctx.transfers.find(owner, transferId, f); // race (11): a Promise only under a race fault
  const existing =
    (found instanceof Promise ? await found : found) ??
    (f.on('put-other-customer-replaces') ? ctx.transfers.anyOwner(transferId) : undefined);
  const answer = (t: StoredTransfer): Json => {
    const out: Json = { transfer_id: t.transferId };
    if (!f.on('create-no-reference')) out.payment_reference_id = t.paymentReferenceId;
    out.status = t.status;
    return out;
  };
  if (existing) {
    if (existing.fingerprint === fingerprint) {
      if (!f.on('put-not-idempotent')) return reply.json(200, answer(existing));
      const again: StoredTransfer = { ...existing, paymentReferenceId: newPaymentReference() };
      ctx.transfers.save(again, true);
      return reply.json(201, answer(again));
    }
    if (!f.on('put-different-body-accepted') && existing.owner === owner) {
      return reply.error(
        apiError(
          422,
          5,
          'transfer_id',
          'transfer_id already used',
          'A transfer with this transfer_id exists with a different request body.',
        ),
      );
    }
    const replaced: StoredTransfer = { ...existing, request, fingerprint };
    ctx.transfers.save(replaced, false);
    return reply.json(200, answer(replaced));
  }
  const t: StoredTransfer = {
    transferId,
    owner,
    request,
    fingerprint,
    paymentReferenceId: newPaymentReference(),
    status: customer.workflow ? 'PENDING_APPROVAL' : 'PROCESSING',
    createdAt: new Date(ctx.clock.now()).toISOString(),
  };
  if (f.on('read-only-honoured')) {
    // the careless bank stores what the client sent for read-only fields
    if (typeof body.status === 'string') t.status = body.status;
    if (typeof body.payment_reference_id === 'string') t.paymentReferenceId = body.payment_reference_id;
    if (typeof body.created_at === 'string') t.createdAt = body.created_at;
  }
  ctx.transfers.save(t, true);
  return reply.json(201, answer(t));
}

async function getTransfer(
  ctx: MockContext,
  transferId: string,
  token: AccessToken,
  client: RegisteredClient,
  reply: Reply,
): Promise<void> {
  const f = ctx.faults;
  const c = token.binding?.customer;
  const owner = c ? ownerKey(client.id, c.uuid) : ctx.mode === 'sandbox' ? ownerKey(client.id, '*') : undefined;
  let t = owner ? ctx.transfers.get(owner, transferId) : undefined;
  if (!t && f.on('bola')) t = ctx.transfers.anyOwner(transferId);
  if (!t) {
    if (f.on('unknown-transfer-200'))
      return reply.json(200, { transfer_id: transferId.slice(0, 64), status: 'UNKNOWN' });
    return reply.error(
      apiError(
        404,
        1,
        'transfer_id',
        'Transfer not found',
        'No transfer with this transfer_id exists for this customer.',
      ),
    );
  }
  const out: Json = { transfer_id: t.transferId, payment_reference_id: t.paymentReferenceId };
  if (!f.on('get-no-status')) out.status = t.status;
  out.beneficiary_id = t.request.beneficiary_id;
  out.amount = { ...t.request.amount };
  out.created_at = t.createdAt;
  if (f.on('mask-echo-clear-id') && c) out.account_id = c.accountId;
  if (f.on('mask-echo-wrong-mask') && c) out.account_id = wrongMask(c.accountId);
  return reply.json(200, out);
}

/** jose-side-effect-on-refusal: the transfer is written from whatever a careless bank could read */
async function sideEffectCreate(
  ctx: MockContext,
  raw: Buffer,
  transferId: string,
  token: AccessToken,
  client: RegisteredClient,
): Promise<void> {
  const c = token.binding?.customer;
  if (!c || !TRANSFER_ID.test(transferId)) return;
  const owner = ownerKey(client.id, c.uuid);
  if (ctx.transfers.get(owner, transferId)) return;
  const read = await openCarelessly(ctx, raw, client);
  const body = (typeof read === 'object' && read !== null ? read : {}) as Json;
  const amount = (typeof body.amount === 'object' && body.amount !== null ? body.amount : {}) as Json;
  const request: TransferRequest = {
    beneficiary_id: typeof body.beneficiary_id === 'string' ? body.beneficiary_id : c.beneficiaries[0]!,
    amount: {
      value: typeof amount.value === 'string' ? amount.value : '1.00',
      currency: typeof amount.currency === 'string' ? amount.currency : 'AED',
    },
  };
  ctx.transfers.save(
    {
      transferId,
      owner,
      request,
      fingerprint: canonical(request),
      paymentReferenceId: newPaymentReference(),
      status: c.workflow ? 'PENDING_APPROVAL' : 'PROCESSING',
      createdAt: new Date(ctx.clock.now()).toISOString(),
    },
    true,
  );
}

/** mask-echo-wrong-mask: the first 4 and last 3 kept, "*" between, one character short (breaks MASK-01 and MASK-02) */
function wrongMask(id: string): string {
  const a = Array.from(id);
  return a.slice(0, 4).join('') + '*'.repeat(Math.max(0, a.length - 8)) + a.slice(-3).join('');
}
