/**
 * Helpers shared by the suites: expectations on common shapes, and cause isolation (a refusal that can come
 * from a rule other than the one under test makes the verdict inconclusive, never pass or fail).
 */
import { CheckFailed, Inconclusive, isObject, show, statusFailure, ensureValue } from '../lib/engine/check.ts';
import type { ApiResponse, CheckContext, TokenResponse, TokenResult } from '../lib/engine/session/context.ts';
import type { HttpResponse } from '../lib/http/types.ts';

/** Statuses that mean "refused before the rule under test was reached". */
const GATE_STATUSES = new Set([401, 403, 429]);

/**
 * A call that should have reached the operation: expected statuses pass; a gate refusal (401/403/429) is
 * inconclusive for a check about the operation itself; anything else fails.
 */
export function expectReached(
  res: { status: number; body?: unknown; raw?: HttpResponse },
  expected: readonly number[],
  what: string,
): void {
  if (expected.includes(res.status)) return;
  if (GATE_STATUSES.has(res.status)) {
    throw new Inconclusive(
      `${what}: refused with HTTP ${res.status} before the rule under test (body: ${clip(show(res.body))})`,
    );
  }
  throw CheckFailed.of(
    statusFailure(
      res,
      expected,
      `${what}: expected HTTP ${expected.join(' or ')}, observed ${res.status} (body: ${clip(show(res.body))})`,
    ),
  );
}

/**
 * the calls of a check made side by side: every one has ended (none is left in flight when the check ends, whatever
 * happened) before the first failure, in the calls' order, is thrown
 */
export async function together<T extends readonly unknown[]>(
  calls: readonly [...{ [K in keyof T]: Promise<T[K]> }],
): Promise<T> {
  const settled = await Promise.allSettled(calls);
  for (const s of settled) if (s.status === 'rejected') throw s.reason;
  return settled.map((s) => (s as PromiseFulfilledResult<unknown>).value) as unknown as T;
}

export function clip(s: string, n = 300): string {
  return s.length > n ? `${s.slice(0, n)}…` : s;
}

export function bodyObject(
  res: ApiResponse | { body: unknown; opened?: ApiResponse['opened'] },
  what: string,
): Record<string, unknown> {
  if (res.opened && !res.opened.ok) {
    throw new Inconclusive(
      `${what}: the sealed response did not open (${res.opened.step}: ${res.opened.code}); sealing is JOSE-11's rule, not this one`,
    );
  }
  if (!isObject(res.body) && 'raw' in res && COMPACT_JOSE.test(res.raw.text.trim())) {
    throw new Inconclusive(
      `${what}: the response is a compact JOSE serialization, which the harness does not open; sealing is JOSE-11's rule, not this one`,
    );
  }
  ensureValue(
    isObject(res.body),
    'response body',
    `${what}: the response body is not a JSON object`,
    'a JSON object',
    clip(show(res.body)),
  );
  return res.body;
}

/** a compact JWS (3 parts) or JWE (5 parts) serialization */
const COMPACT_JOSE = /^[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]*){2}(?:(?:\.[A-Za-z0-9_-]*){2})?$/;

/** a decimal string as an exact (integer, scale) pair: "150" , "150.0" and "150.00" are the same amount */
function decimal(v: string): { units: bigint; scale: number } | undefined {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(v.trim());
  if (!m) return undefined;
  const frac = (m[3] ?? '').replace(/0+$/, '');
  const units = BigInt(`${m[1]}${m[2]}${frac}`);
  return { units, scale: frac.length };
}

/** two decimal strings name the same amount (compared as decimals, not as text) */
export function sameDecimal(a: unknown, b: unknown): boolean {
  if (typeof a !== 'string' || typeof b !== 'string') return false;
  const x = decimal(a);
  const y = decimal(b);
  return x !== undefined && y !== undefined && x.units === y.units && x.scale === y.scale;
}

/**
 * The amount a target answers is the amount sent: same currency, same value as a decimal. Extra members in the
 * amount object are the target's own (no rule forbids them).
 */
export function ensureSameAmount(observed: unknown, sent: unknown, what: string): void {
  const s = sent as { value?: unknown; currency?: unknown };
  ensureValue(
    isObject(observed) && observed.currency === s.currency && sameDecimal(observed.value, s.value),
    'amount',
    `${what}: not the amount sent`,
    { value: s.value, currency: s.currency },
    observed,
  );
}

/** {value: decimal string, currency: 3 letters} */
export function expectMoney(v: unknown, what: string): { value: string; currency: string } {
  ensureValue(isObject(v), 'amount', `${what} is missing or not an object`, '{ value, currency }', v);
  ensureValue(
    typeof v.value === 'string' && /^\d+(\.\d{1,2})?$/.test(v.value),
    'amount.value',
    `${what}.value is not a decimal string`,
    'decimal string',
    v.value,
  );
  ensureValue(
    typeof v.currency === 'string' && /^[A-Z]{3}$/.test(v.currency),
    'amount.currency',
    `${what}.currency is not an ISO 4217 code`,
    '3 upper-case letters',
    v.currency,
  );
  return { value: v.value, currency: v.currency };
}

/**
 * The token of a token call that should succeed: a refusal is the gate's business (inconclusive), a sealed
 * answer that does not open is JOSE-12's (inconclusive); a 200 without a token fails.
 */
export function tokenOf(r: TokenResult, what: string): TokenResponse {
  expectReached({ status: r.response.status, body: r.response.json }, [200], what);
  if (r.opened && !r.opened.ok) {
    throw new Inconclusive(
      `${what}: the sealed token response did not open (${r.opened.step}: ${r.opened.code}); that is JOSE-12's rule`,
    );
  }
  ensureValue(
    r.token,
    'token response',
    `${what}: HTTP 200 without a token response`,
    'token response',
    clip(r.response.text, 200),
  );
  return r.token;
}

/** TOK-01: fields every token response has. */
export function expectTokenFields(t: TokenResponse, ctx: CheckContext, requestedScope: string): void {
  ensureValue(
    typeof t.token_type === 'string' && t.token_type.toLowerCase() === 'bearer',
    'token_type',
    'token_type is not "bearer"',
    'bearer',
    t.token_type,
  );
  ensureValue(
    typeof t.access_token === 'string' && t.access_token.length > 0,
    'access_token',
    'access_token is not a non-empty string',
    'string',
    typeof t.access_token,
  );
  const life = ctx.profile.contract.tokens.accessTokenSeconds;
  ensureValue(Number.isInteger(t.expires_in), 'expires_in', 'expires_in is not an integer', 'integer', t.expires_in);
  ensureValue(t.expires_in === life, 'expires_in', `expires_in is not ${life}`, life, t.expires_in);
  ensureValue(
    Number.isInteger(t.consented_on) && (t.consented_on as number) > 0,
    'consented_on',
    'consented_on is not a positive integer timestamp',
    'integer',
    t.consented_on,
  );
  ensureValue(
    typeof t.scope === 'string' && t.scope.length > 0,
    'scope',
    'scope is not a string',
    'space-separated string',
    t.scope,
  );
  const granted = (t.scope as string).split(' ');
  ensureValue(
    granted.every((s) => s.length > 0),
    'scope',
    'scope is not a space-separated list (empty item, or another separator)',
    'a b c',
    t.scope,
  );
  ensureValue(
    granted.includes(requestedScope),
    'scope',
    `scope does not contain the requested "${requestedScope}"`,
    requestedScope,
    t.scope,
  );
}

/** A 422 body (ERR-01): exactly the five members, all strings, status "422", six-digit response_code. */
export const ERROR_MEMBERS = ['status', 'response_code', 'property', 'response_message', 'description'] as const;
export function expectErrorStructure(body: unknown, status: number, what: string): Record<string, string> {
  ensureValue(
    isObject(body),
    'error body',
    `${what}: error body is not a JSON object`,
    'JSON object',
    clip(show(body)),
  );
  const keys = Object.keys(body).sort();
  const want = [...ERROR_MEMBERS].sort();
  ensureValue(show(keys) === show(want), 'error body members', `${what}: error body members differ`, want, keys);
  for (const k of ERROR_MEMBERS)
    ensureValue(typeof body[k] === 'string', `error.${k}`, `${what}: ${k} is not a string`, 'string', typeof body[k]);
  ensureValue(
    body.status === String(status),
    'error.status',
    `${what}: status is not "${status}"`,
    String(status),
    body.status,
  );
  const code = body.response_code as string;
  ensureValue(
    /^\d{6}$/.test(code) && code.startsWith(String(status)),
    'error.response_code',
    `${what}: response_code is not six digits starting with ${status}`,
    `${status}NNN`,
    code,
  );
  return body as Record<string, string>;
}

/**
 * A positive control: the same request without the defect under test must get `expected`. Any other answer makes
 * the check inconclusive (it cannot isolate its cause), never a failure of the rule: which control, with its answer.
 */
export function expectControl(
  res: { status: number; body?: unknown },
  expected: readonly number[],
  what: string,
): void {
  if (expected.includes(res.status)) return;
  throw new Inconclusive(
    `${what}: expected HTTP ${expected.join(' or ')}, observed ${res.status} (body: ${clip(show(res.body))})`,
  );
}
