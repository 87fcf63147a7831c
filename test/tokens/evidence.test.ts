/**
 * Controls and evidence that mean what they say (a refusal counts only next to a positive control, docs/design.md):
 *  - a wrong base path (baseUrl ending in /v1 while the basepath adds /v1 again): reach-api names the configuration
 *    error with the URLs tried, and no token check fails ("expected 401, observed 404" before);
 *  - a positive control that fails (validate with the own account answering 501) makes TOK-12 inconclusive, naming
 *    the control and its answer, never a failure;
 *  - a token is "accepted" only where the same request without a token is refused: a target whose probe path
 *    answers 404 with and without a token gives no pass of TOK-09 (it passed on nothing before).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { establishPrerequisites, type Established } from '../../lib/engine/session/prerequisites.ts';
import { createSession } from '../../lib/engine/session/session.ts';
import { defaultRunOptions, runChecks } from '../../lib/engine/run/runner.ts';
import type { CheckResult } from '../../lib/engine/results.ts';
import { startMockBank } from '../../lib/mock/index.ts';
import type { MockBank, MockIntercept } from '../../lib/mock/types.ts';
import { testPki, type TestPki } from '../../lib/pki/index.ts';
import { FullProfile } from '../../lib/profile/schema.ts';
import { allChecks } from '../../suites/index.ts';

let pki: TestPki;
const mocks: MockBank[] = [];
beforeAll(async () => {
  pki = await testPki();
}, 60_000);
afterAll(async () => {
  await Promise.all(mocks.map((m) => m.close()));
});

async function mock(intercept?: MockIntercept): Promise<MockBank> {
  const m = await startMockBank({ mode: 'sandbox', pki, ...(intercept ? { intercept } : {}) });
  mocks.push(m);
  return m;
}

async function certifyLike(
  profile: FullProfile,
  checks = allChecks,
): Promise<{ results: CheckResult[]; established: Established }> {
  const options = { ...defaultRunOptions };
  const session = await createSession({ profile, options, faults: [] });
  try {
    const establishing = establishPrerequisites(session, session.prerequisites);
    const results = await runChecks(checks, session, options);
    return { results, established: await establishing };
  } finally {
    await session.close();
  }
}

const tokens = allChecks.filter((c) => c.suite === 'tokens' && !c.needs?.includes('clock'));

describe('controls and evidence', () => {
  it('a baseUrl ending in /v1 (/v1/v1/...): reach-api names the configuration error, no token check fails', async () => {
    const m = await mock();
    const p = m.profile();
    const profile = FullProfile.parse({ ...p, target: { ...p.target, baseUrl: `${m.url}/v1` } });
    const { results, established } = await certifyLike(profile, [
      ...tokens,
      ...allChecks.filter((c) => c.requirements.includes('JOSE-12')),
    ]);
    const reach = established.results.find((r) => r.id === 'reach-api')!;
    expect(reach.verdict).toBe('fail');
    expect(reach.reason).toMatch(/configuration error.*404.*\/v1\/v1\/transfers\/validate/);
    // a target that answers is not unreachable: the run fails on the configuration error instead
    expect(established.unreachable).toBeUndefined();
    const failed = results.filter((r) => r.verdict === 'fail').map((r) => `${r.checkId}: ${r.reason ?? ''}`);
    expect(failed).toEqual([]);
  }, 120_000);

  it('a failed positive control (validate with the own account: 501) makes TOK-12 inconclusive, naming it', async () => {
    let seen = 0;
    const m = await mock(async ({ req, res }, next) => {
      // the first validate of the own account: the harness's control in TOK-12
      if (
        req.method === 'POST' &&
        req.url?.endsWith('/transfers/validate') &&
        req.headers.authorization &&
        seen++ === 0
      ) {
        res.writeHead(501, { 'content-type': 'application/json' }).end('{"error":"not implemented"}');
        return;
      }
      await next();
    });
    const profile = FullProfile.parse(m.profile());
    const tok12 = allChecks.filter((c) => c.id === 'tokens.code-token-bound-to-account');
    const { results } = await certifyLike(profile, tok12);
    expect(results[0]!.verdict, results[0]!.reason).toBe('inconclusive');
    expect(results[0]!.reason).toMatch(/validate with the own account \(control\): expected HTTP 200, observed 501/);
  }, 120_000);

  it('a probe path that answers 404 with and without a token shows no token accepted: TOK-09 does not pass', async () => {
    const m = await mock(async ({ req, res }, next) => {
      if (req.method === 'GET' && /\/transfers\/[^/]+$/.test(req.url ?? '') && !req.url!.endsWith('/validate')) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not_found"}');
        return;
      }
      await next();
    });
    const profile = FullProfile.parse(m.profile());
    const tok09 = allChecks.filter((c) => c.requirements.includes('TOK-09'));
    const { results } = await certifyLike(profile, tok09);
    const rotates = results.find((r) => r.checkId === 'tokens.refresh-rotates')!;
    expect(rotates.verdict, rotates.reason).toBe('inconclusive');
    expect(rotates.reason).toMatch(/without a token answers HTTP 404/);
  }, 120_000);
});
