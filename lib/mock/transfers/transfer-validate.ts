/**
 * Validation of a transfer request (specification §1, §7; contract "Transfer bodies"): missing properties (422 naming
 * them), invalid values (422), identifiers masked (422) and naming the token's customer (403), the beneficiary one of
 * the customer's. Only the members of the request are kept: read-only fields sent by the client are ignored.
 */
import type { MockContext } from '../context.ts';
import { CURRENCIES, type MockCustomer } from '../data.ts';
import { apiError, type ApiError } from '../errors.ts';
import { isMasked, masksTo } from './masking.ts';
import type { AccessToken } from '../oauth/tokens.ts';
import type { TransferFaults } from './transfer-faults.ts';
import type { TransferRequest } from './transfer-store.ts';

type Json = Record<string, unknown>;
type IdProp = 'account_id' | 'emirates_id';
export type Checked = { ok: true; request: TransferRequest; customer: MockCustomer } | { ok: false; error: ApiError };
type Refusal = { ok: false; error: ApiError };

const AMOUNT = /^(0|[1-9][0-9]{0,14})(\.[0-9]{1,2})?$/;

/** the request's validation, in the contract's order */
export function validate(ctx: MockContext, ff: TransferFaults, body: Json, token: AccessToken): Checked {
  const debit = debitPropOf(ctx, body, token);
  if (typeof debit !== 'string') return debit;
  const shape = checkShape(ctx, ff, body, debit);
  if (shape) return shape;
  const masked = checkMasked(ctx, ff, body, token.binding?.customer);
  if (masked) return masked;
  const acting = actingCustomer(ctx, ff, body, token, debit);
  if (!acting.ok) return acting;
  const customer = acting.customer;
  const other = checkOtherIdentifier(ctx, ff, body, customer, debit);
  if (other) return other;
  if (!customer.beneficiaries.includes(body.beneficiary_id as string))
    return invalid(ctx, 'beneficiary_id', "it is not one of the customer's beneficiaries");
  return { ok: true, request: toRequest(body), customer };
}

function missing(ctx: MockContext, ff: TransferFaults, p: string): Refusal {
  if (ff.missingPropertyNotNamed)
    return { ok: false, error: apiError(422, 1, 'body', 'invalid request', 'The request is invalid.') };
  // lenient: other wording, in another language (the rule asks for a message that says it, not for words)
  const [msg, text] = ctx.lenient
    ? [`Pflichtangabe fehlt: ${p}`, `Die Angabe ${p} fehlt in der Anfrage.`]
    : [`${p} is missing`, `The required property ${p} is missing from the request.`];
  return { ok: false, error: apiError(422, 1, p, msg, text) };
}

function invalid(ctx: MockContext, p: string, why: string): Refusal {
  const msg = ctx.lenient ? `Ungültiger Wert: ${p}` : `${p} is invalid`;
  return { ok: false, error: apiError(422, 2, p, msg, `The property ${p} is invalid: ${why}.`) };
}

const absent = (v: unknown): boolean => v === undefined || v === null || v === '';
const clearOf = (c: MockCustomer, p: IdProp): string => (p === 'account_id' ? c.accountId : c.emiratesId);

/**
 * The debit identifier: the one the token is bound to; an unbound client-credentials token (sandbox: the specification
 * has no oauth_metadata there) names the account it acts on; in UAT an unbound token may not move money.
 */
function debitPropOf(ctx: MockContext, body: Json, token: AccessToken): IdProp | Refusal {
  if (!token.binding && ctx.mode === 'uat') {
    const text = 'The access token is not bound to an account id or emirates id.';
    return { ok: false, error: apiError(403, 4, 'account_id', 'Token not bound to an account', text) };
  }
  if (token.binding) return token.binding.kind === 'emirates' ? 'emirates_id' : 'account_id';
  return body.account_id === undefined && body.emirates_id !== undefined ? 'emirates_id' : 'account_id';
}

/** missing properties in a stable order, then the values */
function checkShape(ctx: MockContext, ff: TransferFaults, body: Json, debitProp: IdProp): Refusal | undefined {
  if (absent(body.beneficiary_id)) return missing(ctx, ff, 'beneficiary_id');
  if (absent(body.amount)) return missing(ctx, ff, 'amount');
  if (absent(body[debitProp])) return missing(ctx, ff, debitProp);
  const amount = body.amount;
  if (ff.amountString500 && typeof amount === 'string' && /^-?\d/.test(amount))
    return { ok: false, error: apiError(500, 1, 'body', 'Internal error', 'The request could not be processed.') };
  if (typeof amount !== 'object' || amount === null || Array.isArray(amount))
    return invalid(ctx, 'amount', 'it must be an object with value and currency');
  const a = amount as Json;
  if (absent(a.value)) return missing(ctx, ff, 'amount.value');
  if (absent(a.currency)) return missing(ctx, ff, 'amount.currency');
  if (typeof body.beneficiary_id !== 'string' || body.beneficiary_id.length > 64)
    return invalid(ctx, 'beneficiary_id', 'it must be a string');
  const bad = checkAmount(ctx, ff, a);
  if (bad) return bad;
  return checkFreeText(ctx, ff, body);
}

/**
 * purpose_code and remarks: strings of at most 140 characters (the mock's document says so; the contract's
 * `freeText` default), counted in code points as JSON Schema's maxLength counts them (an emoji is one)
 */
function checkFreeText(ctx: MockContext, ff: TransferFaults, body: Json): Refusal | undefined {
  const limit = ff.freeTextLengthUnchecked ? Infinity : 140;
  for (const p of ['purpose_code', 'remarks'] as const) {
    if (body[p] !== undefined && (typeof body[p] !== 'string' || [...(body[p] as string)].length > limit))
      return invalid(ctx, p, 'it must be a string of at most 140 characters');
  }
  if (ff.remarksShortLimit && typeof body.remarks === 'string' && body.remarks.length > 100)
    return invalid(ctx, 'remarks', 'it must be a string of at most 100 characters');
  const remarks = typeof body.remarks === 'string' ? body.remarks : '';
  // the core's faults: a 3-byte UTF-8 column (no character past U+FFFF), a column one character short
  if (
    (ff.remarksEmoji500 && /[\u{10000}-\u{10FFFF}]/u.test(remarks)) ||
    (ff.remarksLongest500 && [...remarks].length >= 140)
  )
    return { ok: false, error: apiError(500, 1, 'body', 'Internal error', 'The request could not be processed.') };
  return undefined;
}

/** the edges a validator gets wrong (faults): zero refused only as `0` or `0.00`; the sign read from the integer part */
function edgeLeniency(ff: TransferFaults, value: string): 'accept' | undefined {
  if (ff.amountZeroSpellingsAccepted && /^\d+(\.\d{1,2})?$/.test(value) && !['0', '0.00'].includes(value))
    return 'accept';
  if (ff.amountNegativeFractionAccepted && /^-0\.\d{1,2}$/.test(value) && toCents(value) !== 0n) return 'accept';
  return undefined;
}

function checkAmount(ctx: MockContext, ff: TransferFaults, a: Json): Refusal | undefined {
  if (ff.amountNumberAccepted && typeof a.value === 'number') a.value = String(a.value);
  if (typeof a.value !== 'string') return invalid(ctx, 'amount.value', 'it must be a decimal string');
  const lax = ff.nonpositiveAmountAccepted;
  const valueText = lax && a.value.startsWith('-') ? a.value.slice(1) : a.value;
  const edge = edgeLeniency(ff, a.value);
  if (!AMOUNT.test(valueText) && !edge)
    return invalid(ctx, 'amount.value', 'it must be a decimal string with at most 2 decimals');
  if (toCents(a.value) <= 0n && !lax && !edge) return invalid(ctx, 'amount.value', 'it must be greater than zero');
  if (ff.amountFractionTruncated && toCents(a.value) < 100n)
    return invalid(ctx, 'amount.value', 'it must be greater than zero');
  if (typeof a.currency !== 'string' || !/^[A-Z]{3}$/.test(a.currency))
    return invalid(ctx, 'amount.currency', 'it must be an ISO 4217 currency code');
  if (!CURRENCIES.has(a.currency) && !ff.invalidCurrencyAccepted)
    return invalid(ctx, 'amount.currency', 'it is not in the currency code list');
  return undefined;
}

/** identifiers must be sent masked (422) */
function checkMasked(
  ctx: MockContext,
  ff: TransferFaults,
  body: Json,
  bound: MockCustomer | undefined,
): Refusal | undefined {
  for (const p of ['account_id', 'emirates_id'] as const) {
    const v = body[p];
    if (v === undefined) continue;
    if (typeof v !== 'string') return invalid(ctx, p, 'it must be a string');
    const unmaskedOk = ff.acceptUnmaskedId && (bound ? [bound] : ctx.data.customers).some((c) => clearOf(c, p) === v);
    if (!isMasked(v, ctx.faults) && !unmaskedOk) {
      const text = `The property ${p} must be sent masked (first 4 and last 3 characters kept, the rest replaced with x).`;
      return { ok: false, error: apiError(422, 3, p, `${p} must be masked`, text) };
    }
  }
  return undefined;
}

/** the customer the debit identifier names: the token's own (403 otherwise, unless a fault lets any through) */
function actingCustomer(
  ctx: MockContext,
  ff: TransferFaults,
  body: Json,
  token: AccessToken,
  debitProp: IdProp,
): { ok: true; customer: MockCustomer } | Refusal {
  const debit = body[debitProp] as string;
  const matches = (c: MockCustomer): boolean =>
    masksTo(debit, clearOf(c, debitProp), ctx.faults) || (ff.acceptUnmaskedId && debit === clearOf(c, debitProp));
  const bound = token.binding?.customer;
  if (bound && matches(bound)) return { ok: true, customer: bound };
  const anyAccount =
    !bound || (token.grantId !== undefined ? ff.codeTokenAnyAccount : ctx.mode === 'uat' && ff.ccBindingIgnored);
  const found = anyAccount ? ctx.data.customers.find(matches) : undefined;
  if (found) return { ok: true, customer: found };
  const echo = ff.maskEchoClearId && bound ? ` (the token is bound to ${clearOf(bound, debitProp)})` : '';
  const text = `The ${debitProp} is not one the access token may act on${echo}.`;
  return { ok: false, error: apiError(403, 4, debitProp, `${debitProp} not allowed for this token`, text) };
}

/** the other identifier, when sent, must belong to the same customer (403) */
function checkOtherIdentifier(
  ctx: MockContext,
  ff: TransferFaults,
  body: Json,
  customer: MockCustomer,
  debitProp: IdProp,
): Refusal | undefined {
  const otherProp = debitProp === 'account_id' ? 'emirates_id' : 'account_id';
  const otherValue = body[otherProp];
  if (typeof otherValue !== 'string') return undefined;
  const clear = clearOf(customer, otherProp);
  if (masksTo(otherValue, clear, ctx.faults) || (ff.acceptUnmaskedId && otherValue === clear)) return undefined;
  const text = `The ${otherProp} does not belong to the customer the access token is bound to.`;
  return { ok: false, error: apiError(403, 4, otherProp, `${otherProp} not allowed for this token`, text) };
}

/** only these members are kept: read-only fields (payment_reference_id, status, created_at, transfer_id) are ignored */
function toRequest(body: Json): TransferRequest {
  const a = body.amount as Json;
  return {
    beneficiary_id: body.beneficiary_id as string,
    amount: { value: a.value as string, currency: a.currency as string },
    ...(typeof body.account_id === 'string' ? { account_id: body.account_id } : {}),
    ...(typeof body.emirates_id === 'string' ? { emirates_id: body.emirates_id } : {}),
    ...(typeof body.purpose_code === 'string' ? { purpose_code: body.purpose_code } : {}),
    ...(typeof body.remarks === 'string' ? { remarks: body.remarks } : {}),
  };
}

export function toCents(value: string): bigint {
  const neg = value.startsWith('-');
  const [i, d = ''] = (neg ? value.slice(1) : value).split('.');
  const cents = BigInt(i!) * 100n + BigInt((d + '00').slice(0, 2));
  return neg ? -cents : cents;
}

export function fromCents(c: bigint): string {
  const neg = c < 0n;
  const abs = neg ? -c : c;
  return `${neg ? '-' : ''}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
}
