/**
 * Verdicts of a partner certification, from the requests the bank recorded in every scenario. Each judge
 * answers for one requirement id: `broken` (the client broke the rule: fail for a MUST, warn for a SHOULD),
 * `pass`, `inconclusive` (the evidence cannot isolate the cause: a positive control is missing) or
 * `not-applicable`. The judge opens sealed requests with the bank's key (lib/jose open), the way a bank would.
 */
import { open } from '../jose/index.ts';
import { ccFormMetadata } from '../mock/cc-form.ts';
import { describeFinding, maskFindings } from './judge-mask.ts';
import { RETRY_AFTER_SECONDS } from './scenarios.ts';
import {
  all,
  completed,
  describeReq,
  j,
  run,
  TRANSFERS,
  type Ev,
  type JudgeInput,
  type Judgement,
} from './judge-base.ts';
import { cli02 } from './judge-cli02.ts';
import { tok18 } from './judge-tokens.ts';
import type { ScenarioRun, SeenRequest } from './types.ts';

export { completed, type Judgement, type JudgeInput, type Outcome } from './judge-base.ts';

function form(body: string): URLSearchParams {
  return new URLSearchParams(body);
}

/** sealed bodies, opened once (CLI-01 and MASK-05 both read them) */
type Opened = Map<SeenRequest, { ok: true; payload: unknown } | { ok: false; reason: string }>;
export async function openBodies(input: JudgeInput): Promise<Opened> {
  const out: Opened = new Map();
  if (input.setup.mode !== 'uat') return out;
  for (const e of all(input.runs)) {
    const q = e.request;
    if (!['validate', 'create', 'cc-token'].includes(q.route) || q.body === '') continue;
    const r = await open(q.body, { decryptionKey: input.bankApiPrivateKeyPem, verificationKey: input.setup.certPem });
    out.set(q, r.ok ? { ok: true, payload: r.payload } : { ok: false, reason: `${r.step}: ${r.code}` });
  }
  return out;
}

function cli01(input: JudgeInput, opened: Opened): Judgement {
  if (input.setup.mode !== 'uat') return j('CLI-01', 'not-applicable', 'bodies travel sealed in UAT only');
  const sealedOnes = all(input.runs).filter((e) => opened.has(e.request));
  if (sealedOnes.length === 0) return j('CLI-01', 'inconclusive', 'the client sent no request body to judge');
  const bad = sealedOnes.filter((e) => !opened.get(e.request)!.ok);
  if (bad.length === 0)
    return j(
      'CLI-01',
      'pass',
      `${sealedOnes.length} request bodies opened with the bank's key and the client's certificate`,
      sealedOnes.slice(0, 3),
    );
  const why = bad.map((e) => `${describeReq(e)}: ${(opened.get(e.request) as { reason: string }).reason}`);
  return j('CLI-01', 'broken', `request bodies not sealed as §5.4 says: ${why.slice(0, 5).join('; ')}`, bad);
}

function cli03(input: JudgeInput): Judgement {
  const reqs = all(input.runs);
  const transfers = reqs.filter((e) => TRANSFERS.has(e.request.route));
  const problems: string[] = [];
  const ev: Ev = [];
  for (const e of transfers) {
    const v = e.request.headers['x-gateway-client-id'];
    if (v !== input.setup.clientId) {
      problems.push(
        `${describeReq(e)}: X-Gateway-Client-Id ${v === undefined ? 'missing' : `"${v}" is not the client id`}`,
      );
      ev.push(e);
    }
  }
  const seenMsgIds = new Map<string, Ev[number]>();
  for (const e of reqs) {
    const m = e.request.headers['msgid'];
    if (input.setup.mode === 'uat' && e.request.route === 'cc-token' && !m?.trim()) {
      problems.push(`${describeReq(e)}: no MsgId`);
      ev.push(e);
    }
    if (m === undefined) continue;
    const first = seenMsgIds.get(m);
    if (first) {
      problems.push(`${describeReq(e)}: MsgId repeats that of ${describeReq(first)}`);
      ev.push(first, e);
    } else seenMsgIds.set(m, e);
  }
  if (problems.length) return j('CLI-03', 'broken', problems.slice(0, 5).join('; '), ev);
  if (transfers.length === 0) return j('CLI-03', 'inconclusive', 'the client made no transfers call');
  return j(
    'CLI-03',
    'pass',
    `${transfers.length} transfers calls carry the client id; ${seenMsgIds.size} MsgId values, all distinct`,
    transfers.slice(0, 3),
  );
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

function cli04(input: JudgeInput): Judgement {
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

function cli05(input: JudgeInput): Judgement {
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

function cli06(input: JudgeInput): Judgement {
  const r = run(input.runs, 'validate-429');
  if (!r) return j('CLI-06', 'not-run', 'the validate-429 scenario was not run');
  const over = ['validate', 'create', 'get'].filter((op) =>
    input.runs.some((x) => x.requests.filter((q) => q.route === op).length > 100),
  );
  if (over.length)
    return j('CLI-06', 'broken', `more than 100 calls to ${over.join(', ')} in one scenario (the hourly quota)`);
  const refused = r.requests.find((q) => q.route === 'validate' && q.misbehaviour);
  if (!refused?.response) return j('CLI-06', 'inconclusive', 'the client did not call validate');
  const next = r.requests.find((q) => q.route === 'validate' && q.seq > refused.seq);
  if (!next) return j('CLI-06', 'inconclusive', 'the client did not call validate again after the 429');
  const waited = next.at - refused.response.at;
  const ev: Ev = [refused, next].map((request) => ({ scenario: r.scenario, request }));
  if (waited < RETRY_AFTER_SECONDS * 1000 - 20)
    return j(
      'CLI-06',
      'broken',
      `validate called again ${waited} ms after a 429 with Retry-After: ${RETRY_AFTER_SECONDS}`,
      ev,
    );
  return j(
    'CLI-06',
    'pass',
    `validate called again ${waited} ms after the 429 (Retry-After: ${RETRY_AFTER_SECONDS})`,
    ev,
  );
}

function cli07(input: JudgeInput): Judgement {
  if (input.setup.mode !== 'uat')
    return j('CLI-07', 'not-applicable', 'TLS applies to UAT only (the sandbox is plain HTTP)');
  const legacy = run(input.runs, 'legacy-tls');
  const bad: Ev = [];
  const problems: string[] = [];
  for (const e of all(input.runs)) {
    const q = e.request;
    // a fetch of the harness's key listener (plain HTTP on loopback) is CLI-02's evidence, not a call to the bank
    if (q.route === 'key-fetch') continue;
    if (e.scenario === 'legacy-tls')
      problems.push(`legacy-tls #${q.seq}: connected over ${q.tlsProtocol ?? 'TLS < 1.2'}`);
    else if (!['TLSv1.2', 'TLSv1.3'].includes(q.tlsProtocol ?? ''))
      problems.push(`${describeReq(e)}: over ${q.tlsProtocol ?? 'unknown TLS'}`);
    else if (q.peerSha256 !== input.setup.certSha256)
      problems.push(`${describeReq(e)}: ${q.peerSha256 ? 'another certificate' : 'no client certificate'} presented`);
    else continue;
    bad.push(e);
  }
  if (problems.length) return j('CLI-07', 'broken', problems.slice(0, 5).join('; '), bad);
  if (!run(input.runs, 'normal')?.requests.length)
    return j('CLI-07', 'inconclusive', 'blocked: the client reached the bank in no scenario');
  if (!legacy) return j('CLI-07', 'not-run', 'the legacy-tls scenario was not run');
  return j(
    'CLI-07',
    'pass',
    'TLS 1.2+ with the registered certificate on every request; no request to a TLS 1.1-only server',
  );
}

function cli08(input: JudgeInput): Judgement {
  const r = run(input.runs, 'create-answer-lost');
  if (!r) return j('CLI-08', 'not-run', 'the create-answer-lost scenario was not run');
  const creates = r.requests.filter((q) => q.route === 'create');
  const ev: Ev = creates.map((request) => ({ scenario: r.scenario, request }));
  if (creates.length === 0) return j('CLI-08', 'inconclusive', 'the client made no create');
  const idOf = (q: SeenRequest) => new URL(q.target, 'http://x').pathname.split('/').pop();
  const ids = new Set(creates.map(idOf));
  if (ids.size > 1 || r.payments > 1)
    return j(
      'CLI-08',
      'broken',
      `the create was retried with another transfer_id (${ids.size} ids, ${r.payments} payments)`,
      ev,
    );
  if (creates.length < 2)
    return j('CLI-08', 'inconclusive', 'the client did not retry the create whose answer was lost');
  return j(
    'CLI-08',
    'pass',
    `the create retried ${creates.length - 1} time(s) with the same transfer_id; one payment`,
    ev,
  );
}

/**
 * what a request reveals of the customers' identifiers, place by place (judge-mask.ts); the token request's
 * oauth_metadata, where the seed puts the clear identifier (§2, §4.4), excepted, read as the bank reads it
 */
function maskPlaces(q: SeenRequest, opened: Opened, ids: string[]): string[] {
  const places: [string, string][] = [
    ['URL', `${q.target} ${safeDecode(q.target)}`],
    ['headers', Object.values(q.headers).join(' ')],
  ];
  if (q.route === 'cc-token' && !opened.has(q)) {
    // the sandbox form: the fields that carry oauth_metadata hold the clear id
    const f = form(q.body);
    for (const field of ccFormMetadata(f).fields) f.delete(field);
    places.push(['body', `${f.toString()} ${safeDecode(f.toString())}`]);
  } else places.push(['body', q.body]);
  const o = opened.get(q);
  if (o?.ok) {
    const p = { ...(o.payload as Record<string, unknown>) };
    if (q.route === 'cc-token') delete p.oauth_metadata;
    places.push(['sealed body', JSON.stringify(p)]);
  }
  return places.flatMap(([where, text]) => maskFindings(text, ids).map((f) => `${describeFinding(f)} in the ${where}`));
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

function mask05(input: JudgeInput, opened: Opened): Judgement {
  const reqs = all(input.runs);
  if (reqs.length === 0) return j('MASK-05', 'inconclusive', 'the client sent no request');
  const bad: Ev = [];
  const problems: string[] = [];
  for (const e of reqs) {
    const places = maskPlaces(e.request, opened, input.clearIds);
    if (places.length) {
      problems.push(`${describeReq(e)}: ${[...new Set(places)].join(', ')}`);
      bad.push(e);
    }
  }
  if (problems.length) return j('MASK-05', 'broken', problems.slice(0, 5).join('; '), bad);
  return j(
    'MASK-05',
    'pass',
    `every account or emirates id in ${reqs.length} requests (URL, headers, bodies, sealed bodies opened) is its exact mask or absent`,
  );
}

function tls08(input: JudgeInput): Judgement {
  if (input.setup.mode !== 'uat')
    return j('TLS-08', 'not-applicable', 'TLS applies to UAT only (the sandbox is plain HTTP)');
  const r = run(input.runs, 'untrusted-server-cert');
  if (!r) return j('TLS-08', 'not-run', 'the untrusted-server-cert scenario was not run');
  if (r.requests.length)
    return j(
      'TLS-08',
      'broken',
      `${r.requests.length} HTTP request(s) sent to a server whose certificate does not chain to the bank CA`,
      r.requests.map((request) => ({ scenario: r.scenario, request })),
    );
  if (!run(input.runs, 'normal')?.requests.length)
    return j(
      'TLS-08',
      'inconclusive',
      'blocked: the client reached the bank in no scenario, so its silence proves nothing',
    );
  return j('TLS-08', 'pass', 'no HTTP request to a server with an untrusted certificate');
}

function tls07(input: JudgeInput): Judgement {
  return input.certificateProblems.length
    ? j('TLS-07', 'broken', input.certificateProblems.join('; '))
    : j('TLS-07', 'pass', 'file name, CN, expiry and key size agree');
}

export async function judge(input: JudgeInput): Promise<Judgement[]> {
  const opened = await openBodies(input);
  return [
    tls07(input),
    tls08(input),
    cli01(input, opened),
    ...cli02(input),
    cli03(input),
    cli04(input),
    cli05(input),
    cli06(input),
    cli07(input),
    cli08(input),
    mask05(input, opened),
    tok18(input),
  ];
}
