/**
 * A gate's refusal: the quota's status (the profile's contract.quota.status, 429 by default) asking for a short wait
 * (Retry-After of GATE_WAIT_SECONDS at most) is a gateway's spike arrest (a rate over seconds), not the hourly quota.
 * One rule for the quota checks (suites/quota/exhaust.ts) and the property searches (lib/engine/property/property-search.ts),
 * apart from the search so that a check's context reads it without loading fast-check.
 */
import { HarnessError } from '../../errors.ts';
import type { CheckContext } from '../session/context.ts';
import { realWaits } from '../../waits.ts';

/** a refusal whose Retry-After asks for this long at most is a gate's (a spike arrest), not the quota's */
export const GATE_WAIT_SECONDS = 5;

/** the wait a refusal asks for when it is a gate's: the quota's status, a Retry-After of GATE_WAIT_SECONDS at most */
export function gateWait(
  status: number | undefined,
  retryAfter: string | undefined,
  quotaStatus: number,
): number | undefined {
  const wait = Number(retryAfter);
  return status === quotaStatus && retryAfter !== undefined && Number.isFinite(wait) && wait <= GATE_WAIT_SECONDS
    ? Math.max(1, wait)
    : undefined;
}

/**
 * The contract's quota answer (docs/contract.md "Quotas": the profile's contract.quota.status, with Retry-After and the
 * error body): the target's window of that client and operation is spent, whatever the harness counted. Not a gate's
 * short wait (gateWait), and not a gateway's throttle without Retry-After or with a page for a body.
 */
export function isQuotaAnswer(
  r: { status: number; headers: Record<string, string>; body?: unknown } | undefined,
  quotaStatus: number,
): boolean {
  if (r === undefined || r.status !== quotaStatus) return false;
  const retryAfter = Object.entries(r.headers).find(([k]) => k.toLowerCase() === 'retry-after')?.[1];
  if (retryAfter === undefined || retryAfter.trim() === '') return false;
  if (gateWait(r.status, retryAfter, quotaStatus) !== undefined) return false;
  return errorBodyLike(r.body);
}

/** a JSON object (parsed, or its text; a sealed answer is passed as the object it opened to): not a page, not empty */
function errorBodyLike(body: unknown): boolean {
  if (typeof body === 'object' && body !== null) return !Array.isArray(body);
  if (typeof body !== 'string') return false;
  try {
    const parsed: unknown = JSON.parse(body);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
  } catch {
    return false;
  }
}

/**
 * A property's positive control was answered with the contract's quota answer: the window is spent. The search moves
 * to a fresh window and sends the control again when the target has a test clock; without one the check is
 * inconclusive, saying so.
 */
export class QuotaAnswered extends HarnessError {
  readonly code = 'QUOTA_ANSWERED';
  constructor(readonly what: string) {
    super(what);
    this.name = 'QuotaAnswered';
  }
}

/** a gate's refusals of one call of a positive control waited out at most (each GATE_WAIT_SECONDS at most) */
export const CONTROL_GATE_WAITS = 8;

/** what a positive control's call was answered, as `waitingOutGates` shows it to its watcher */
export interface ControlAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/**
 * A context for a positive control: each call a gate refused (gateWait: a spike arrest's short Retry-After) is sent
 * again after the wait, CONTROL_GATE_WAITS times at most, and said in a note; `look` sees each call's last answer. A
 * control's refusal by a gate says nothing of the rule under test, and a busy harness's calls bunch into one second.
 */
export function waitingOutGates(ctx: CheckContext, look: (r: ControlAnswer) => void = () => {}): CheckContext {
  const status = ctx.profile.contract.quota.status;
  const gated = async <R extends { status: number; headers: Record<string, string> }>(
    call: () => Promise<R>,
    seen: (r: R) => void,
  ): Promise<R> => {
    for (let waits = 0; ; waits++) {
      const r = await call();
      const wait = gateWait(r.status, r.headers['retry-after'], status);
      if (wait === undefined || waits >= CONTROL_GATE_WAITS) {
        seen(r);
        return r;
      }
      ctx.note(`a call of the positive control met a gate's refusal (Retry-After ${wait} s): waited, sent again`);
      await (ctx.options.waits ?? realWaits).sleep(wait * 1000);
    }
  };
  const api: CheckContext['api'] = (call) =>
    gated(
      () => ctx.api(call),
      (r) => look({ status: r.status, headers: r.headers, body: r.opened ? {} : r.body }),
    );
  const send: CheckContext['send'] = (req) =>
    gated(
      () => ctx.send(req),
      (r) => look({ status: r.status, headers: r.headers, body: r.json ?? r.text }),
    );
  return new Proxy(ctx, {
    get: (target, p, receiver): unknown => (p === 'api' ? api : p === 'send' ? send : Reflect.get(target, p, receiver)),
  });
}
