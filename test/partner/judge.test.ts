/**
 * The judge on hand-made recordings (no bank, no client): the edges of the rules — Retry-After to the
 * millisecond, a clear id URL-encoded, the client-credentials metadata the contract wants in clear, a MsgId
 * repeated, a refused refresh tried again — and the positive controls that turn a silence into inconclusive.
 */
import { describe, expect, it } from 'vitest';
import { judge, type Judgement } from '../../lib/partner/judge/judge.ts';
import type { PartnerSetup, ScenarioId, ScenarioRun, SeenRequest } from '../../lib/partner/types.ts';

const ACCOUNT = '1234567890123';
const setup: PartnerSetup = { mode: 'sandbox', flow: 'code', clientId: 'partner-0001', certPem: '', certSha256: 'ab' };

let seq = 0;
function req(route: SeenRequest['route'], o: Partial<SeenRequest> = {}): SeenRequest {
  seq++;
  return {
    seq,
    at: 1_000_000 + seq,
    method: route === 'get' || route === 'authorize' ? 'GET' : route === 'create' ? 'PUT' : 'POST',
    target: route === 'create' || route === 'get' ? '/v1/transfers/t-1' : `/${route}`,
    route,
    headers: { 'x-gateway-client-id': 'partner-0001', authorization: 'Bearer tok-1' },
    body: '',
    response: { status: 200, headers: {}, body: '', at: 1_000_000 + seq },
    ...o,
  };
}
const runOf = (scenario: ScenarioId, requests: SeenRequest[], exitCode = 0): ScenarioRun => ({
  scenario,
  exitCode,
  durationMs: 1,
  output: '',
  requests,
  payments: 1,
});
const normal = (): ScenarioRun =>
  runOf('normal', [
    req('code-token', { body: 'grant_type=authorization_code&code=c1' }),
    req('validate'),
    req('create'),
    req('get'),
  ]);

async function verdicts(runs: ScenarioRun[], s: PartnerSetup = setup): Promise<Record<string, Judgement>> {
  const js = await judge({ setup: s, runs, bankApiPrivateKeyPem: '', clearIds: [ACCOUNT], certificateProblems: [] });
  // a variant (CLI-02) under its own key, id:scenario
  return Object.fromEntries(js.map((j) => [j.variant ? `${j.id}:${j.variant}` : j.id, j]));
}

describe('the partner judge', () => {
  it('CLI-06: a validate 1 ms before Retry-After ends is broken, one at the limit passes', async () => {
    for (const [delay, outcome] of [
      [1_979, 'broken'],
      [2_000, 'pass'],
    ] as const) {
      const first = req('validate', {
        misbehaviour: '429',
        response: { status: 429, headers: {}, body: '', at: 5_000 },
      });
      const again = req('validate', { at: 5_000 + delay });
      const v = await verdicts([normal(), runOf('validate-429', [first, again, req('create'), req('get')])]);
      expect(v['CLI-06']!.outcome).toBe(outcome);
    }
  });

  it('MASK-05: a clear account id URL-encoded in the query is found; the token metadata the contract wants clear is not', async () => {
    const ccBody = `grant_type=client_credentials&oauth_metadata=${encodeURIComponent(JSON.stringify({ account_id: ACCOUNT }))}`;
    const clean = await verdicts([runOf('normal', [req('cc-token', { body: ccBody }), req('validate'), req('get')])]);
    expect(clean['MASK-05']!.outcome).toBe('pass');
    const leaky = await verdicts([
      runOf('normal', [req('get', { target: `/v1/transfers/t-1?acct=%31%32%33%34${ACCOUNT.slice(4)}` })]),
    ]);
    expect(leaky['MASK-05']!.outcome).toBe('broken');
    expect(leaky['MASK-05']!.reason).toContain('the clear identifier (its mask is 1234xxxxxx123) in the URL');
    expect(leaky['MASK-05']!.reason).not.toContain(ACCOUNT);
  });

  it('MASK-05: a mask that keeps six leading characters is broken, with the expected mask beside what was sent', async () => {
    const six = JSON.stringify({ account_id: `${ACCOUNT.slice(0, 6)}xxxx${ACCOUNT.slice(-3)}` });
    const v = await verdicts([runOf('normal', [req('validate', { body: six }), req('get')], 3)]);
    expect(v['MASK-05']!.outcome).toBe('broken');
    expect(v['MASK-05']!.reason).toContain(
      '"123456xxxx123" shows 2 character(s) the mask hides (the mask is 1234xxxxxx123) in the body',
    );
    const exact = await verdicts([
      runOf('normal', [req('validate', { body: JSON.stringify({ account_id: '1234xxxxxx123' }) })]),
    ]);
    expect(exact['MASK-05']!.outcome).toBe('pass');
  });

  it('CLI-03: a MsgId used twice is broken; a missing client id header is broken', async () => {
    const twice = await verdicts([
      runOf('normal', [
        req('validate', { headers: { ...req('get').headers, msgid: 'm1' } }),
        req('get', { headers: { ...req('get').headers, msgid: 'm1' } }),
      ]),
    ]);
    expect(twice['CLI-03']!.reason).toMatch(/MsgId repeats/);
    const noId = await verdicts([runOf('normal', [req('validate', { headers: { authorization: 'Bearer t' } })])]);
    expect(noId['CLI-03']!.reason).toMatch(/X-Gateway-Client-Id missing/);
  });

  it('CLI-05: a second refresh after a refused one is broken; a new sign-in instead passes', async () => {
    const refused = () =>
      req('code-token', {
        body: 'grant_type=refresh_token&refresh_token=r1',
        misbehaviour: 'refresh refused',
        response: { status: 400, headers: {}, body: '', at: 0 },
      });
    const retried = await verdicts([normal(), runOf('token-expiry', [req('authorize'), refused(), refused()])]);
    expect(retried['CLI-05']!.outcome).toBe('broken');
    const signIn = await verdicts([
      normal(),
      runOf('token-expiry', [
        req('authorize'),
        req('validate'),
        refused(),
        req('authorize'),
        req('create'),
        req('get'),
      ]),
    ]);
    expect(signIn['CLI-05']!.outcome).toBe('pass');
  });

  it('CLI-02 and TLS-08 need their positive control: without a create in the normal scenario, silence is inconclusive', async () => {
    const uat = { ...setup, mode: 'uat' as const };
    const noControl = [
      runOf('normal', [], 3),
      runOf('validate-plain', [req('validate', { misbehaviour: 'validate-plain' })], 3),
      runOf('untrusted-server-cert', [], 3),
    ];
    const v = await verdicts(noControl, uat);
    expect(v['CLI-02:validate-plain']!.outcome).toBe('inconclusive');
    expect(v['CLI-02:validate-jwk']!.outcome).toBe('not-run');
    expect(v['TLS-08']!.outcome).toBe('inconclusive');
  });

  it('started by hand (--listen): a create variant is never a pass without an exit code; no create call is inconclusive', async () => {
    const uat = { ...setup, mode: 'uat' as const };
    const byHand = (scenario: ScenarioId, requests: SeenRequest[]): ScenarioRun => ({
      ...runOf(scenario, requests),
      exitCode: null,
      byHand: true,
    });
    const v = await verdicts(
      [
        byHand('normal', normal().requests),
        byHand('create-other-key', [req('validate'), req('create', { misbehaviour: 'create-other-key' })]),
        byHand('create-jwk', [req('validate')]),
        byHand('validate-jwk', [req('validate', { misbehaviour: 'validate-jwk' })]),
      ],
      uat,
    );
    expect(v['CLI-02:create-other-key']!.outcome).toBe('inconclusive');
    expect(v['CLI-02:create-other-key']!.reason).toMatch(/started by hand \(--listen\): .* exit code/);
    expect(v['CLI-02:create-jwk']!.outcome).toBe('inconclusive');
    expect(v['CLI-02:create-jwk']!.reason).toMatch(/the client made no create call in this scenario/);
    // a validate variant has its evidence in the traffic (no create after the spoiled answer), by hand too
    expect(v['CLI-02:validate-jwk']!.outcome).toBe('pass');
    // the same create variant run by the harness: its exit code (non-zero) is the evidence
    const run = await verdicts(
      [normal(), runOf('create-other-key', [req('validate'), req('create', { misbehaviour: 'create-other-key' })], 3)],
      uat,
    );
    expect(run['CLI-02:create-other-key']!.outcome).toBe('pass');
  });

  it('CLI-08: a retry with another transfer_id is broken; no retry at all is inconclusive', async () => {
    const other = await verdicts([
      runOf('create-answer-lost', [req('create'), req('create', { target: '/v1/transfers/t-2' })]),
    ]);
    expect(other['CLI-08']!.outcome).toBe('broken');
    const none = await verdicts([runOf('create-answer-lost', [req('create')], 3)]);
    expect(none['CLI-08']!.outcome).toBe('inconclusive');
  });

  it('TOK-18: a new token for every call is broken even when the task did not complete; one token after a 401 is not', async () => {
    const grant = (n: number) =>
      req('code-token', {
        body: `grant_type=authorization_code&code=c${n}`,
        response: { status: 200, headers: {}, body: '', at: 0 },
      });
    const bearer = (n: number) => ({ ...req('get').headers, authorization: `Bearer tok-${n}` });
    const perCall = (scenario: ScenarioId) =>
      runOf(
        scenario,
        [
          grant(1),
          req('validate', { headers: bearer(1) }),
          grant(2),
          req('create', { headers: bearer(2), response: { status: 429, headers: {}, body: '', at: 0 } }),
        ],
        3,
      );
    const v = await verdicts([perCall('normal'), perCall('validate-429'), perCall('create-answer-lost')]);
    expect(v['TOK-18']!.outcome).toBe('broken');
    expect(v['TOK-18']!.reason).toMatch(/^normal: 1 new token/);
    const after401 = await verdicts([
      runOf('normal', [
        grant(3),
        req('validate', { headers: bearer(3), response: { status: 401, headers: {}, body: '', at: 0 } }),
        grant(4),
        req('validate', { headers: bearer(4) }),
        req('create', { headers: bearer(4) }),
        req('get', { headers: bearer(4) }),
      ]),
    ]);
    expect(after401['TOK-18']!.outcome).toBe('pass');
  });
});
