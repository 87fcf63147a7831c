/** The transfers operations once a request is admitted and valid: validate, create (PUT, idempotent), get. */
import type { MockContext } from '../context.ts';
import { APPROVERS, type MockCustomer, type RegisteredClient } from '../data.ts';
import { apiError } from '../errors.ts';
import { mask } from '../../mask/index.ts';
import { openCarelessly } from '../jose/seal.ts';
import type { AccessToken } from '../oauth/tokens.ts';
import type { TransferFaults } from './transfer-faults.ts';
import type { Reply } from './transfer-reply.ts';
import {
  canonical,
  newPaymentReference,
  ownerKey,
  type StoredTransfer,
  type TransferRequest,
} from './transfer-store.ts';
import { fromCents, toCents } from './transfer-validate.ts';

type Json = Record<string, unknown>;

const CHARGES_CENTS = 525n;
export const TRANSFER_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** an amount as answered; lenient: the shortest decimal ("150" for "150.00") and a member of the bank's own */
function money(ctx: MockContext, value: string, currency: string): Json {
  if (!ctx.lenient) return { value, currency };
  return { value: value.includes('.') ? value.replace(/\.?0+$/, '') : value, currency, scale: 2 };
}

export function validateResponse(
  ctx: MockContext,
  ff: TransferFaults,
  r: TransferRequest,
  customer: MockCustomer,
): Json {
  const cur = r.amount.currency;
  const amount = toCents(r.amount.value);
  const out: Json = { charges: money(ctx, fromCents(CHARGES_CENTS), cur) };
  if (!ff.validateMissingDebitAmount) out.debit_amount = money(ctx, fromCents(amount + CHARGES_CENTS), cur);
  out.total_credit_amount = money(ctx, fromCents(amount), cur);
  out.authentication_mode = 'OTP';
  if (customer.workflow || ff.approversAlways) out.approvers = APPROVERS.map((a) => ({ ...a }));
  else if (ctx.lenient) out.approvers = []; // an empty list names no approver
  if (ff.maskEchoClearId) out.account_id = customer.accountId;
  if (ff.maskEchoWrongMask) out.account_id = wrongMask(customer.accountId);
  return out;
}

/**
 * Whose transfers these are: the client acting for a customer. An unbound client-credentials token (sandbox only)
 * acts in the client's own namespace.
 */
export function ownerOf(client: RegisteredClient, token: AccessToken, acting: MockCustomer): string {
  return token.binding ? ownerKey(client.id, acting.uuid) : ownerKey(client.id, '*');
}

export interface CreateCall {
  transferId: string;
  body: Json;
  request: TransferRequest;
  customer: MockCustomer;
  owner: string;
}

export async function createTransfer(ctx: MockContext, ff: TransferFaults, c: CreateCall, reply: Reply): Promise<void> {
  if (!TRANSFER_ID.test(c.transferId)) {
    const text = 'The transfer_id must be 1 to 64 characters from A-Z, a-z, 0-9, ".", "_", ":" and "-".';
    return reply.error(apiError(422, 2, 'transfer_id', 'transfer_id is invalid', text));
  }
  // both lookups made before the race fault's gap: a fallback made after it would find the transfer a concurrent PUT
  // has just saved, and hide the check-then-act race
  const other = ff.putOtherCustomerReplaces ? ctx.transfers.anyOwner(c.transferId) : undefined;
  const found = ctx.transfers.find(c.owner, c.transferId, ctx.faults); // race (11): a Promise only under a race fault
  const existing = (found instanceof Promise ? await found : found) ?? other;
  if (existing) return repeatPut(ctx, ff, c, existing, reply);
  // the store's column sized in bytes: free text within 140 characters but over 140 UTF-8 bytes crashes the insert
  if (ff.remarksCreate500 && typeof c.body.remarks === 'string' && Buffer.byteLength(c.body.remarks, 'utf8') > 140)
    return reply.error(apiError(500, 1, 'body', 'Internal error', 'The request could not be processed.'));
  const t: StoredTransfer = {
    transferId: c.transferId,
    owner: c.owner,
    request: c.request,
    fingerprint: canonical(c.request),
    paymentReferenceId: newPaymentReference(),
    status: c.customer.workflow ? 'PENDING_APPROVAL' : 'PROCESSING',
    createdAt: new Date(ctx.clock.now()).toISOString(),
  };
  if (ff.readOnlyHonoured) {
    // the careless bank stores what the client sent for read-only fields
    if (typeof c.body.status === 'string') t.status = c.body.status;
    if (typeof c.body.payment_reference_id === 'string') t.paymentReferenceId = c.body.payment_reference_id;
    if (typeof c.body.created_at === 'string') t.createdAt = c.body.created_at;
  }
  ctx.transfers.save(t, true);
  return reply.json(201, createAnswer(ff, t));
}

function createAnswer(ff: TransferFaults, t: StoredTransfer): Json {
  const out: Json = { transfer_id: t.transferId };
  if (!ff.createNoReference) out.payment_reference_id = t.paymentReferenceId;
  out.status = t.status;
  return out;
}

/** a PUT of an id that exists: the same body is answered again (no second payment); another body is refused */
async function repeatPut(
  ctx: MockContext,
  ff: TransferFaults,
  c: CreateCall,
  existing: StoredTransfer,
  reply: Reply,
): Promise<void> {
  const fingerprint = canonical(c.request);
  if (existing.fingerprint === fingerprint) {
    if (!ff.putNotIdempotent) return reply.json(200, createAnswer(ff, existing));
    const again: StoredTransfer = { ...existing, paymentReferenceId: newPaymentReference() };
    ctx.transfers.save(again, true);
    return reply.json(201, createAnswer(ff, again));
  }
  if (!ff.putDifferentBodyAccepted && existing.owner === c.owner) {
    const text = 'A transfer with this transfer_id exists with a different request body.';
    return reply.error(apiError(422, 5, 'transfer_id', 'transfer_id already used', text));
  }
  const replaced: StoredTransfer = { ...existing, request: c.request, fingerprint };
  ctx.transfers.save(replaced, false);
  return reply.json(200, createAnswer(ff, replaced));
}

export async function getTransfer(
  ctx: MockContext,
  ff: TransferFaults,
  transferId: string,
  token: AccessToken,
  client: RegisteredClient,
  reply: Reply,
): Promise<void> {
  const c = token.binding?.customer;
  const owner = c ? ownerKey(client.id, c.uuid) : ctx.mode === 'sandbox' ? ownerKey(client.id, '*') : undefined;
  let t = owner ? ctx.transfers.get(owner, transferId) : undefined;
  if (!t && ff.bola) t = ctx.transfers.anyOwner(transferId);
  if (!t) {
    if (ff.unknownTransfer200) return reply.json(200, { transfer_id: transferId.slice(0, 64), status: 'UNKNOWN' });
    const text = 'No transfer with this transfer_id exists for this customer.';
    return reply.error(apiError(ff.unknownTransfer410 ? 410 : 404, 1, 'transfer_id', 'Transfer not found', text));
  }
  const out: Json = { transfer_id: t.transferId, payment_reference_id: t.paymentReferenceId };
  if (!ff.getNoStatus) out.status = t.status;
  out.beneficiary_id = t.request.beneficiary_id;
  out.amount = money(ctx, t.request.amount.value, t.request.amount.currency);
  out[ff.getMemberRenamed ? 'createdAt' : 'created_at'] = t.createdAt;
  // one past the largest int32, where the document says `format: int32` (an overflow the judge must name)
  if (ff.getInt32Overflow) out.revision = 2 ** 31;
  if (ff.maskEchoClearId && c) out.account_id = c.accountId;
  if (ff.maskEchoWrongMask && c) out.account_id = wrongMask(c.accountId);
  return reply.json(200, out, {}, false, ff.getTextPlain ? 'text/plain' : undefined);
}

/** a plausible request for the token's customer (empty-body-accepted) */
export function defaultBody(ctx: MockContext, token: AccessToken): Json {
  const c = token.binding?.customer ?? ctx.data.customers[0]!;
  return {
    beneficiary_id: c.beneficiaries[0],
    amount: { value: '1.00', currency: 'AED' },
    ...(token.binding?.kind === 'emirates' ? { emirates_id: mask(c.emiratesId) } : { account_id: mask(c.accountId) }),
  };
}

/** jose-side-effect-on-refusal: the transfer is written from whatever a careless bank could read */
export async function sideEffectCreate(
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
  const status = c.workflow ? 'PENDING_APPROVAL' : 'PROCESSING';
  const createdAt = new Date(ctx.clock.now()).toISOString();
  const fingerprint = canonical(request);
  const t = { transferId, owner, request, fingerprint, paymentReferenceId: newPaymentReference(), status, createdAt };
  ctx.transfers.save(t, true);
}

/** mask-echo-wrong-mask: the first 4 and last 3 kept, "*" between, one character short (breaks MASK-01 and MASK-02) */
function wrongMask(id: string): string {
  const a = Array.from(id);
  return a.slice(0, 4).join('') + '*'.repeat(Math.max(0, a.length - 8)) + a.slice(-3).join('');
}
