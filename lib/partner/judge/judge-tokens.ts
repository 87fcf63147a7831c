/**
 * TOK-18 (SHOULD): the client reuses its access token until it expires. Judged from the requests of every scenario
 * but token-expiry (where the bank expires the token on purpose), whether or not the task completed: a new token
 * granted, or a bearer changed, while the token held was never refused with a 401.
 */
import { completed, j, run, TRANSFERS, type Ev, type JudgeInput, type Judgement } from './judge-base.ts';
import type { ScenarioRun, SeenRequest } from '../types.ts';

const form = (body: string): URLSearchParams => new URLSearchParams(body);

/** a request for a new token (a code exchange or client credentials; a refresh is not a new grant) */
function isGrant(q: SeenRequest): boolean {
  return q.route === 'cc-token' || (q.route === 'code-token' && form(q.body).get('grant_type') !== 'refresh_token');
}

/**
 * the token requests and bearer changes of one scenario that nothing called for: a new token granted (200) while
 * the last one was never refused with a 401, or a transfers call with another bearer than the call before
 * when that call was not answered 401 (judged whether or not the task completed: the evidence is the requests)
 */
function needlessTokens(r: ScenarioRun): SeenRequest[] {
  const out: SeenRequest[] = [];
  // no usable token held: none granted yet, the last grant refused, or the bank answered 401
  let needNew = true;
  let lastBearer: string | undefined;
  for (const q of r.requests) {
    if (isGrant(q)) {
      // a grant the bank refused fetched no token (a code exchanged twice is CLI-04's, not this rule's)
      if (q.response?.status !== 200) continue;
      if (!needNew) out.push(q);
      needNew = false;
      lastBearer = undefined;
    } else if (TRANSFERS.has(q.route)) {
      const bearer = q.headers['authorization'] ?? '';
      if (lastBearer !== undefined && bearer !== lastBearer && !needNew) out.push(q);
      lastBearer = bearer;
      needNew = q.response?.status === 401;
    }
  }
  return out;
}

export function tok18(input: JudgeInput): Judgement {
  const problems: string[] = [];
  const ev: Ev = [];
  // token-expiry: the bank expires the token on purpose, a new one is called for
  for (const r of input.runs.filter((x) => x.scenario !== 'token-expiry')) {
    const extra = needlessTokens(r);
    if (extra.length === 0) continue;
    problems.push(
      `${r.scenario}: ${extra.length} new token(s) or bearer change(s) while the token held was valid (never refused with 401)`,
    );
    ev.push(...extra.map((request) => ({ scenario: r.scenario, request })));
  }
  if (problems.length) return j('TOK-18', 'broken', problems.join('; '), ev);
  if (!completed(run(input.runs, 'normal')))
    return j('TOK-18', 'inconclusive', 'blocked: the client did not complete the normal task');
  return j('TOK-18', 'pass', 'one token request and one access token per task (a new one only after a 401)');
}
