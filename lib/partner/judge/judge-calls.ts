/**
 * The judges of the calls and the connection: CLI-03 (client id, MsgId), CLI-06 (429, quota), CLI-07 (TLS 1.2+,
 * the registered certificate), CLI-08 (the same transfer_id on a retry), TLS-07 (the certificate file), TLS-08 (an
 * untrusted server certificate).
 */
import { RETRY_AFTER_SECONDS } from '../scenarios.ts';
import { all, describeReq, j, run, TRANSFERS, type Ev, type JudgeInput, type Judgement } from './judge-base.ts';
import type { SeenRequest } from '../types.ts';

export function cli03(input: JudgeInput): Judgement {
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

export function cli06(input: JudgeInput): Judgement {
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

export function cli07(input: JudgeInput): Judgement {
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

export function cli08(input: JudgeInput): Judgement {
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

export function tls08(input: JudgeInput): Judgement {
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

export function tls07(input: JudgeInput): Judgement {
  return input.certificateProblems.length
    ? j('TLS-07', 'broken', input.certificateProblems.join('; '))
    : j('TLS-07', 'pass', 'file name, CN, expiry and key size agree');
}
