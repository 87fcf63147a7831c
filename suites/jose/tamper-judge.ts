/**
 * Sending a tampered envelope and judging the answer (issue 20, property 3). One run: the mutated envelope is sent
 * to create (PUT with a fresh transfer id) or validate. Its verdict:
 *  - refused with the contract's JOSE refusal (or, for a mutation whose refusal is not demanded, any 4xx but a gate
 *    refusal) and, for create, GET of the id it named is not visible afterwards (JOSE-14): holds;
 *  - accepted (2xx) although refusal is demanded, answered with another status (422: the body was opened and read;
 *    5xx: an error oracle, never a refusal), or GET of the refused id shows a transfer: fails;
 *  - a gate refusal (401/403/429), no answer, or a GET that says nothing (429, 5xx): unclear (the run proves
 *    nothing either way; never counted as a refusal).
 * The positive controls (shapeControls) come first: the unmutated envelope of each shape is created with a fresh
 * id and is visible with GET, and GET of an id never used is not visible; a shape the target refuses unmutated
 * (two recipients or two signatures: HARD-03) is left out with a note.
 */
import { Inconclusive } from '../../lib/engine/check.ts';
import type { ApiResponse, CheckContext } from '../../lib/engine/context.ts';
import { TransportError } from '../../lib/http/types.ts';
import { clip } from '../shared.ts';
import { keysOf } from './envelopes.ts';
import { sealedBase, SHAPES, type Mutated, type SealedBase } from './mutations.ts';

export type TamperOp = 'create' | 'validate';
export type RunVerdict = 'holds' | 'fails' | 'unclear';

export interface RunJudgment {
  verdict: RunVerdict;
  /** what was seen, e.g. "HTTP 400; GET of its id: HTTP 404" */
  detail: string;
  /** the rule a failure breaks (JOSE-06, JOSE-08 or JOSE-14) */
  rule?: string;
  /** the target accepted a mutation whose refusal is not demanded */
  acceptedUndemanded?: boolean;
}

/** the client the property sends as, its token and the document every envelope carries */
export interface TamperSender {
  token: string;
  doc: Record<string, unknown>;
}

const GATE = new Set([401, 403, 429]);

export async function tamperSender(ctx: CheckContext): Promise<TamperSender> {
  return { token: await ctx.tokens.partnerToken(), doc: ctx.transferBody(ctx.customer(0)) };
}

function send(ctx: CheckContext, s: TamperSender, op: TamperOp, body: object, label: string, id?: string) {
  return ctx.api({
    op,
    as: 'partner',
    token: s.token,
    rawBody: body,
    label,
    ...(op === 'create' ? { transferId: id ?? ctx.newTransferId() } : {}),
  });
}

function get(ctx: CheckContext, s: TamperSender, transferId: string, label: string): Promise<ApiResponse> {
  return ctx.api({ op: 'get', as: 'partner', transferId, token: s.token, label });
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
export async function shapeControls(ctx: CheckContext, s: TamperSender): Promise<SealedBase[]> {
  const statuses = ctx.profile.contract.statuses;
  const k = await keysOf(ctx);
  const never = await get(ctx, s, ctx.newTransferId(), 'positive control: GET of an id never used');
  if (!statuses.notVisible.includes(never.status))
    throw new Inconclusive(
      `positive control: GET of an id never used was answered HTTP ${never.status}, not ${statuses.notVisible.join(' or ')}; no GET could show a side effect`,
    );
  const bases: SealedBase[] = [];
  for (const shape of SHAPES) {
    const base = sealedBase(k, s.doc, shape);
    const id = ctx.newTransferId();
    const res = await send(
      ctx,
      s,
      'create',
      base.jwe,
      `positive control (${shape}): PUT of the unmutated envelope`,
      id,
    );
    const seen = statuses.create.includes(res.status)
      ? (await get(ctx, s, id, `positive control (${shape}): GET of the created transfer`)).status
      : undefined;
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

/** one run: the mutated envelope sent, judged (see the header) */
export async function judgeTampered(
  ctx: CheckContext,
  s: TamperSender,
  op: TamperOp,
  m: Mutated,
): Promise<RunJudgment> {
  const statuses = ctx.profile.contract.statuses;
  const id = ctx.newTransferId();
  const res = await answered(() => send(ctx, s, op, m.envelope, `${op} of a tampered envelope: ${m.description}`, id));
  if (typeof res === 'string') return { verdict: 'unclear', detail: res };
  const status = res.status;
  const http = `HTTP ${status}`;
  if (status >= 200 && status < 300)
    return m.demand
      ? { verdict: 'fails', detail: `accepted (${http})`, rule: m.demand }
      : { verdict: 'holds', detail: `accepted (${http}; allowed)`, acceptedUndemanded: true };
  if (GATE.has(status)) return { verdict: 'unclear', detail: `${http}: a gate refusal, not the JOSE layer's` };
  const refused = statuses.joseRefused.includes(status) || (!m.demand && status >= 400 && status < 500);
  if (!refused)
    return m.demand
      ? {
          verdict: 'fails',
          detail: `${http}, not refused with HTTP ${statuses.joseRefused.join(' or ')}`,
          rule: m.demand,
        }
      : { verdict: 'unclear', detail: `${http} (neither accepted nor refused)` };
  if (op === 'validate') return { verdict: 'holds', detail: `refused (${http})` };
  const after = await answered(() => get(ctx, s, id, 'GET of the id the refused PUT named'));
  if (typeof after === 'string') return { verdict: 'unclear', detail: `refused (${http}); GET of its id: ${after}` };
  const seen = `refused (${http}); GET of its id: HTTP ${after.status}`;
  if (statuses.notVisible.includes(after.status)) return { verdict: 'holds', detail: seen };
  if (after.status === 200)
    return { verdict: 'fails', detail: `${seen}: the refused PUT created the transfer`, rule: 'JOSE-14' };
  return { verdict: 'unclear', detail: seen };
}
