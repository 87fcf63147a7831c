/** The judges of the session: CLI-04 (authorization codes and state) and CLI-05 (refresh tokens, a new sign-in). */
import { completed, j, run, type Ev, type JudgeInput, type Judgement } from './judge-base.ts';
import type { ScenarioRun, SeenRequest } from '../types.ts';

function form(body: string): URLSearchParams {
  return new URLSearchParams(body);
}

function issuedCodes(r: ScenarioRun): Map<string, { at: number; changedState: boolean; request: SeenRequest }> {
  const codes = new Map<string, { at: number; changedState: boolean; request: SeenRequest }>();
  for (const q of r.requests) {
    const loc = q.route === 'authorize' ? q.response?.headers['location'] : undefined;
    if (!loc || !q.response) continue;
    const code = new URL(loc).searchParams.get('code');
    if (code) codes.set(code, { at: q.response.at, changedState: !!q.misbehaviour, request: q });
  }
  return codes;
}

const CODE_LIFE_MS = 60_000;

export function cli04(input: JudgeInput): Judgement {
  if (input.setup.flow !== 'code')
    return j('CLI-04', 'not-applicable', 'the client uses client credentials (no authorization code)');
  const problems: string[] = [];
  const ev: Ev = [];
  let exchanged = 0;
  for (const r of input.runs) {
    const codes = issuedCodes(r);
    const uses = new Map<string, number>();
    for (const q of r.requests) {
      if (q.route === 'authorize' && !new URL(q.target, 'http://x').searchParams.get('state')) {
        problems.push(`${r.scenario} #${q.seq}: the authorization request carries no state`);
        ev.push({ scenario: r.scenario, request: q });
      }
      const f = q.route === 'code-token' ? form(q.body) : undefined;
      if (f?.get('grant_type') !== 'authorization_code') continue;
      const code = f.get('code') ?? '';
      const issued = codes.get(code);
      uses.set(code, (uses.get(code) ?? 0) + 1);
      exchanged++;
      const at = { scenario: r.scenario, request: q };
      if (uses.get(code)! > 1) problems.push(`${r.scenario} #${q.seq}: an authorization code exchanged a second time`);
      else if (issued?.changedState)
        problems.push(`${r.scenario} #${q.seq}: a code exchanged although the callback's state was not the one sent`);
      else if (issued && q.at - issued.at > CODE_LIFE_MS)
        problems.push(
          `${r.scenario} #${q.seq}: a code exchanged ${Math.round((q.at - issued.at) / 1000)} s after it was issued (valid 60 s)`,
        );
      else continue;
      ev.push(...(issued ? [{ scenario: r.scenario, request: issued.request }] : []), at);
    }
  }
  if (problems.length) return j('CLI-04', 'broken', problems.slice(0, 5).join('; '), ev);
  const normal = run(input.runs, 'normal');
  if (!normal?.requests.some((q) => q.route === 'code-token'))
    return j('CLI-04', 'inconclusive', 'blocked: the client exchanged no code in the normal scenario');
  const sm = run(input.runs, 'state-mismatch');
  if (!sm)
    return j(
      'CLI-04',
      'not-run',
      `the state-mismatch scenario was not run (${exchanged} codes exchanged once each, in time)`,
    );
  if (!sm.requests.some((q) => q.misbehaviour))
    return j('CLI-04', 'inconclusive', 'the client did not sign in in the state-mismatch scenario');
  return j(
    'CLI-04',
    'pass',
    `${exchanged} codes exchanged once each, in time; a callback with another state was not acted on`,
  );
}

export function cli05(input: JudgeInput): Judgement {
  if (input.setup.flow !== 'code')
    return j('CLI-05', 'not-applicable', 'client-credentials tokens carry no refresh token');
  const r = run(input.runs, 'token-expiry');
  if (!r) return j('CLI-05', 'not-run', 'the token-expiry scenario was not run');
  const problems: string[] = [];
  const ev: Ev = [];
  let newest: string | undefined;
  let rotated = false;
  let rotatedUsed = 0;
  let refused: SeenRequest | undefined;
  for (const q of r.requests) {
    if (q.route !== 'code-token') continue;
    const f = form(q.body);
    const isRefresh = f.get('grant_type') === 'refresh_token';
    if (isRefresh && rotated && !refused && f.get('refresh_token') === newest) rotatedUsed++;
    if (isRefresh) {
      if (refused) problems.push(`#${q.seq}: a refresh tried again after one was refused`);
      else if (newest !== undefined && f.get('refresh_token') !== newest)
        problems.push(`#${q.seq}: not the newest refresh token`);
      if (refused || (newest !== undefined && f.get('refresh_token') !== newest))
        ev.push({ scenario: r.scenario, request: q });
      if (q.misbehaviour) refused ??= q;
    }
    const rt = q.response?.status === 200 ? parseJson(q.response.body)?.refresh_token : undefined;
    if (typeof rt === 'string') [newest, rotated] = [rt, isRefresh];
  }
  if (problems.length) return j('CLI-05', 'broken', problems.join('; '), ev);
  const authorizes = r.requests.filter((q) => q.route === 'authorize');
  const signIn = refused ? authorizes.find((q) => q.seq > refused!.seq) : authorizes[1];
  if (refused && !signIn)
    return j('CLI-05', 'broken', 'after the refused refresh the client started no new sign-in', [
      { scenario: r.scenario, request: refused },
    ]);
  if (!completed(r))
    return j(
      'CLI-05',
      'inconclusive',
      `the client did not complete the task after its token expired (exit ${r.exitCode})`,
    );
  const newestNote = rotatedUsed
    ? `${rotatedUsed} refresh(es) with the rotated (newest) refresh token; `
    : 'no refresh after a rotation (the newest-token rule had nothing to judge); ';
  return j(
    'CLI-05',
    'pass',
    newestNote +
      (refused
        ? 'the refused refresh was not retried; a new sign-in followed'
        : 'no refresh tried; a new sign-in followed'),
  );
}

function parseJson(text: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
