/**
 * Sending a family of JOSE negatives to POST /transfers/validate as the partner client, and judging them.
 *
 * Each family: a positive control first (the same document, correctly sealed by the same builder, is accepted
 * with 200; otherwise a refusal would prove nothing: inconclusive), then every case once. Every case's outcome
 * goes into the evidence. Verdict: any case accepted (2xx) or answered with another status than the contract's
 * JOSE refusal (e.g. 422: the body was opened and read) fails, naming the cases; a gate refusal (401, 403, 429,
 * or the quota's status: the profile's `contract.quota.status`) or no answer makes the check inconclusive;
 * otherwise it passes.
 */
import { CheckFailed, Inconclusive } from '../../lib/engine/check.ts';
import { failure, type Failure } from '../../lib/engine/failure.ts';
import type { ApiResponse, CheckContext } from '../../lib/engine/session/context.ts';
import type { CaseOutcome } from '../../lib/engine/results.ts';
import { TransportError } from '../../lib/http/types.ts';
import { inPool } from '../../lib/pool.ts';
import type { NegativeCase } from '../../lib/negative/cases.ts';
import { clip } from '../shared.ts';

/** unisolated: accepted, but an isolation case shows another rule is the cause (inconclusive) */
/** fetched: the target fetched the key URL the case's header names (whatever it answered) */
export type Outcome = 'refused' | 'accepted' | 'other' | 'fetched' | 'gate' | 'no-answer' | 'unisolated' | 'skipped';
export interface CaseResult {
  c: NegativeCase;
  outcome: Outcome;
  status?: number;
  detail: string;
}

/** transport errors that mean no answer came in time (lib/http/budgets.ts budgetHit) */
const TIMED_OUT = new Set(['ETIMEDOUT', 'UND_ERR_HEADERS_TIMEOUT']);

export interface Sender {
  token: string;
  /** the document every case carries (a valid transfer request for the partner's customer) */
  doc: Record<string, unknown>;
  validate(body: string | object, label: string): Promise<ApiResponse>;
}

/** the partner's token and a validate call that sends a body exactly as given */
export async function partnerSender(ctx: CheckContext): Promise<Sender> {
  const token = await ctx.tokens.partnerToken();
  const doc = ctx.transferBody(ctx.customer(0));
  return {
    token,
    doc,
    validate: (body, label) => ctx.api({ op: 'validate', as: 'partner', token, rawBody: body, label }),
  };
}

/** the positive control: throws Inconclusive unless the correctly sealed request is accepted with 200 */
export async function positiveControl(
  ctx: CheckContext,
  s: Sender,
  body: string | object,
  what: string,
): Promise<void> {
  const res = await s.validate(body, `positive control: ${what}`);
  ctx.note(`positive control (${what}): HTTP ${res.status}`);
  if (res.status !== 200) {
    throw new Inconclusive(
      `positive control: ${what} was answered HTTP ${res.status}, not 200 (body: ${clip(ctx.redact(res.raw.text), 200)}); ` +
        'a refusal of the negatives would prove nothing',
    );
  }
}

export async function sendCase(ctx: CheckContext, s: Sender, c: NegativeCase): Promise<CaseResult> {
  const refused = [...ctx.profile.contract.statuses.joseRefused, ...(c.alsoRefused ?? [])];
  const body = await c.body();
  if (body === undefined) return record(ctx, { c, outcome: 'skipped', detail: c.skipped?.() ?? 'not applicable here' });
  let res: ApiResponse;
  try {
    res = await s.validate(body, `${c.id} ${c.title}`);
  } catch (e) {
    if (!(e instanceof TransportError)) throw e;
    // 'failed' (E11: the target still deriving a key from a PBES2 header) is read only from no answer in time; a
    // connection closed or reset (a busy target, a proxy) shows nothing either way
    const timedOut = TIMED_OUT.has(e.code);
    const how = c.noAnswer === 'failed' && !timedOut ? 'inconclusive' : (c.noAnswer ?? 'inconclusive');
    const outcome: Outcome = how === 'refused' ? 'refused' : how === 'failed' ? 'other' : 'no-answer';
    return record(ctx, { c, outcome, detail: `no answer (${e.code})` });
  }
  const status = res.status;
  const outcome: Outcome = refused.includes(status)
    ? 'refused'
    : status >= 200 && status < 300
      ? 'accepted'
      : [401, 403, 429, ctx.profile.contract.quota.status].includes(status)
        ? 'gate'
        : 'other';
  return record(ctx, { c, outcome, status, detail: `HTTP ${status}` });
}

const VERDICT: Record<Outcome, CaseOutcome['verdict']> = {
  refused: 'pass',
  accepted: 'fail',
  other: 'fail',
  fetched: 'fail',
  gate: 'inconclusive',
  'no-answer': 'inconclusive',
  unisolated: 'inconclusive',
  skipped: 'not-run',
};

function record(ctx: CheckContext, r: CaseResult): CaseResult {
  ctx.note(`${r.c.id} ${r.c.title}: ${r.detail} -> ${r.outcome}`);
  return r;
}

/** each case's own outcome into the results (after isolation has had its say), in the order sent */
export function recordCases(ctx: CheckContext, results: readonly CaseResult[]): void {
  for (const r of results)
    ctx.recordCase({
      id: r.c.id,
      verdict: VERDICT[r.outcome],
      outcome: r.outcome,
      detail: `${r.c.title}: ${r.detail}`,
    });
}

/** cases in flight at once: a distant target costs a round trip per CASES_IN_FLIGHT cases, not per case */
const CASES_IN_FLIGHT = 4;

/** every case, CASES_IN_FLIGHT at a time; results in the order of the catalogue (the evidence in the order sent) */
export async function sendCases(ctx: CheckContext, s: Sender, cases: readonly NegativeCase[]): Promise<CaseResult[]> {
  return inPool(cases, CASES_IN_FLIGHT, (c) => sendCase(ctx, s, c));
}

/** a case the target did not refuse, as a record: its message is the case's line of the verdict's reason */
function notRefused(r: CaseResult, refusedWith: string): Failure {
  const message = `${r.c.id} ${r.c.title} (${r.detail}${r.outcome === 'accepted' ? ', accepted' : ''})`;
  const data = {
    case: r.c.id,
    caseTitle: r.c.title,
    outcome: r.outcome,
    ...(r.status !== undefined ? { status: r.status } : {}),
  };
  return failure('negative-accepted', message, data, {
    operation: 'validate',
    label: `${r.c.id} ${r.c.title}`,
    expected: `HTTP ${refusedWith}`,
    observed: r.detail,
  });
}

/** the verdict over a family's results (see the header) */
export function judge(ctx: CheckContext, results: readonly CaseResult[], family: string): void {
  recordCases(ctx, results);
  const refusedWith = ctx.profile.contract.statuses.joseRefused.join(' or ');
  const bad = results.filter((r) => r.outcome === 'accepted' || r.outcome === 'other' || r.outcome === 'fetched');
  if (bad.length > 0) {
    const failures = bad.map((r) => notRefused(r, refusedWith));
    throw new CheckFailed(
      `${family}: not refused with HTTP ${refusedWith}: ${failures.map((f) => f.message).join('; ')}`,
      {
        expected: `HTTP ${refusedWith} for every case`,
        observed: failures.map((f) => f.message).join('; '),
        failures,
      },
    );
  }
  const unclear = results.filter(
    (r) => r.outcome === 'gate' || r.outcome === 'no-answer' || r.outcome === 'unisolated',
  );
  if (unclear.length > 0) {
    throw new Inconclusive(
      `${family}: cause not isolated (a gate refusal, no answer, or another rule): ${unclear.map((r) => `${r.c.id} (${r.detail})`).join('; ')}`,
    );
  }
  if (!results.some((r) => r.outcome === 'refused')) throw new Inconclusive(`${family}: no case could be sent`);
}
