/**
 * Sending a tampered envelope and judging the answer (the tampered-envelopes property). One run: the mutated
 * envelope is sent to create (PUT with a fresh transfer id) or validate. Its verdict (a property Trial):
 *  - refused with the contract's JOSE refusal and, for create, GET of the id it named is not visible afterwards
 *    (JOSE-14): held;
 *  - accepted (2xx), answered with another status (422: the body was opened and read; 5xx: an error oracle, never
 *    a refusal), or GET of the refused id shows a transfer: broken;
 *  - a gate refusal (401, 403; the quota's status, the profile's `contract.quota.status`, and 429 whatever the
 *    quota's status: a throttle), no answer, or a GET that says nothing: unclear (the run proves nothing either
 *    way; never counted as a refusal).
 * The positive controls (shapeControls) come first: the unmutated envelope of each shape is created with a fresh
 * id and is visible with GET, and GET of an id never used is not visible; a shape the target refuses unmutated
 * (two recipients or two signatures: HARD-03) is left out with a note.
 */
import { Inconclusive } from '../../lib/engine/check.ts';
import type { ApiResponse, CheckContext } from '../../lib/engine/session/context.ts';
import type { Trial } from '../../lib/engine/property/property.ts';
import { TransportError } from '../../lib/http/types.ts';
import { clip } from '../shared.ts';
import { keysOf } from './keys.ts';
import { sealedBase, SHAPES, type Mutated, type SealedBase } from '../../lib/negative/mutations.ts';
import { waitingOutGates } from '../../lib/engine/property/property-gate.ts';

export type TamperOp = 'create' | 'validate';

/** the document every envelope carries (the property sends as the partner client, its token fetched per call:
 *  cached, renewed after a move of the clock) */
export interface TamperSender {
  doc: Record<string, unknown>;
}

/** a gate's refusal: no evidence of the JOSE layer either way */
export function gateStatuses(ctx: Pick<CheckContext, 'profile'>): Set<number> {
  return new Set([401, 403, 429, ctx.profile.contract.quota.status]);
}

export function tamperSender(ctx: CheckContext): TamperSender {
  return { doc: ctx.transferBody(ctx.customer(0)) };
}

async function send(ctx: CheckContext, op: TamperOp, body: object, label: string, id?: string): Promise<ApiResponse> {
  return ctx.api({
    op,
    as: 'partner',
    token: await ctx.tokens.partnerToken(),
    rawBody: body,
    label,
    ...(op === 'create' ? { transferId: id ?? ctx.newTransferId() } : {}),
  });
}

async function get(ctx: CheckContext, transferId: string, label: string): Promise<ApiResponse> {
  return ctx.api({ op: 'get', as: 'partner', transferId, token: await ctx.tokens.partnerToken(), label });
}

async function answered(f: () => Promise<ApiResponse>): Promise<ApiResponse | string> {
  try {
    return await f();
  } catch (e) {
    if (e instanceof TransportError) return `no answer (${e.code})`;
    throw e;
  }
}

/**
 * The bases of the shapes the target accepts unmutated (positive controls, each created with a fresh id and then
 * visible), after checking that GET of an id never used is not visible (else no GET could show a side effect).
 * Inconclusive when the one-recipient one-signature envelope is not accepted.
 */
export async function shapeControls(checkCtx: CheckContext, s: TamperSender): Promise<SealedBase[]> {
  // a control's call a gate refused (a spike arrest's short Retry-After) is sent again after the wait
  const ctx = waitingOutGates(checkCtx);
  const statuses = ctx.profile.contract.statuses;
  const k = await keysOf(ctx);
  const never = await get(ctx, ctx.newTransferId(), 'positive control: GET of an id never used');
  if (!statuses.notVisible.includes(never.status))
    throw new Inconclusive(
      `positive control: GET of an id never used was answered HTTP ${never.status}, not ${statuses.notVisible.join(' or ')}; no GET could show a side effect`,
    );
  // each shape's PUT (then its GET) side by side: two round trips, not two a shape, on a distant target's timeline;
  // judged in the shapes' order
  const shapes = await Promise.all(
    SHAPES.map(async (shape) => {
      const base = sealedBase(k, s.doc, shape);
      const id = ctx.newTransferId();
      const res = await send(ctx, 'create', base.jwe, `positive control (${shape}): PUT of the unmutated envelope`, id);
      const seen = statuses.create.includes(res.status)
        ? (await get(ctx, id, `positive control (${shape}): GET of the created transfer`)).status
        : undefined;
      return { shape, base, res, seen };
    }),
  );
  const bases: SealedBase[] = [];
  for (const { shape, base, res, seen } of shapes) {
    ctx.note(`positive control (${shape}): PUT HTTP ${res.status}${seen ? `, GET HTTP ${seen}` : ''}`);
    if (seen === 200) bases.push(base);
    else if (shape === 'single')
      throw new Inconclusive(
        `positive control: the unmutated envelope was answered HTTP ${res.status}${seen ? ` and GET of its id HTTP ${seen}` : ''} ` +
          `(body: ${clip(ctx.redact(res.raw.text), 200)}); a refusal of its mutations would prove nothing`,
      );
    else
      ctx.note(
        `shape ${shape} left out: the target does not accept it unmutated (HTTP ${res.status}; refusing it is HARD-03's hardening)`,
      );
  }
  return bases;
}

/** base64url text as UTF-8 (a mutated header may not decode to JSON: shown as it decodes) */
const decodedText = (v: unknown): string =>
  typeof v === 'string' ? Buffer.from(v, 'base64url').toString('utf8') : `(${typeof v})`;

/**
 * the sealed request decoded, for the evidence (kept with a counterexample): the JWE protected header and recipients,
 * the JWS protected headers and payload inside, as sent (after the mutation)
 */
export function decodedRequest(m: Mutated): string {
  const recipients = Array.isArray(m.envelope.recipients) ? m.envelope.recipients.length : 0;
  const signatures = Array.isArray(m.inner.signatures) ? (m.inner.signatures as Record<string, unknown>[]) : [];
  return [
    `JWE protected header ${decodedText(m.envelope.protected)}`,
    `${recipients} recipient(s)`,
    `JWS protected header(s) ${signatures.map((x) => decodedText(x.protected)).join(' | ')}`,
    `JWS payload ${decodedText(m.inner.payload)}`,
  ].join('; ');
}

/** a run's verdict; `rule`: the rule a broken run breaks (also its `requirements`, the ids the failure names) */
export type JudgedTrial = Trial & { rule?: string };

/** one run: the mutated envelope sent, judged (see the header) */
export async function judgeTampered(ctx: CheckContext, op: TamperOp, m: Mutated): Promise<JudgedTrial> {
  const statuses = ctx.profile.contract.statuses;
  const id = ctx.newTransferId();
  ctx.note(`the sealed request decoded: ${ctx.redact(decodedRequest(m))}`);
  const res = await answered(() => send(ctx, op, m.envelope, `${op} of a tampered envelope: ${m.description}`, id));
  if (typeof res === 'string') return { verdict: 'unclear', observed: res };
  const status = res.status;
  const http = `HTTP ${status}`;
  if (status >= 200 && status < 300)
    return { verdict: 'broken', observed: `accepted (${http})`, status, rule: m.demand, requirements: [m.demand] };
  if (gateStatuses(ctx).has(status))
    return { verdict: 'unclear', observed: `${http}: a gate refusal, not the JOSE layer's`, status };
  if (!statuses.joseRefused.includes(status))
    return {
      verdict: 'broken',
      observed: `${http}, not refused with HTTP ${statuses.joseRefused.join(' or ')}`,
      status,
      rule: m.demand,
      requirements: [m.demand],
    };
  if (op === 'validate') return { verdict: 'held', observed: `refused (${http})`, status };
  const after = await answered(() => get(ctx, id, 'GET of the id the refused PUT named'));
  if (typeof after === 'string') return { verdict: 'unclear', observed: `refused (${http}); GET of its id: ${after}` };
  const seen = `refused (${http}); GET of its id: HTTP ${after.status}`;
  if (statuses.notVisible.includes(after.status)) return { verdict: 'held', observed: seen, status };
  if (after.status === 200)
    return {
      verdict: 'broken',
      observed: `${seen}: the refused PUT created the transfer`,
      status,
      rule: 'JOSE-14',
      requirements: ['JOSE-14'],
    };
  return { verdict: 'unclear', observed: seen, status: after.status };
}
