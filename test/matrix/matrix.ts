/**
 * The fault matrix: every check can fail, and none fails without cause.
 *  - the clean mock, in both modes: every applicable check passes (nothing fails, nothing is inconclusive);
 *  - each fault of the mock, in each mode where it has an effect: the checks test/matrix/expected.ts names for it
 *    fail (or warn, for a SHOULD) with a reason holding the expected fragment, and no check of any other id fails;
 *    a check of the fault's ids that caught it otherwise (another check, another reason) is listed in the coverage
 *    output. A fault without an expectation fails its case, saying what to add.
 * Checks run through runChecks (the same verdict logic as certify) against one mock per case, several at once,
 * the mocks on a worker thread of the shard's.
 * The cases are split into shards, one test file each, so that Vitest runs them in parallel workers (cores).
 * A fault is caught only by a check that ends fail, warn (SHOULD) or unexpected-pass (coverage.ts CATCHES); a check
 * that ends `error` under a fault is a defect of the harness and fails the case.
 * Per check id: every case records the checks that caught it, with verdict and reason (coverage.ts); after a full matrix the project's global
 * teardown writes .tmp/fault-coverage.md and fails the run when an applicable check was never made to fail as
 * expected (the check expected.ts names for some fault, for its reason).
 */
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { FAULTS } from '../../lib/mock/faults.ts';
import { requirement } from '../../lib/catalogue/index.ts';
import { EmbeddedProfile, type Environment } from '../../lib/profile/schema.ts';
import { prepare } from '../../lib/engine/run/prepare.ts';
import { startMockThread, type MockThread } from '../../lib/mock/server/thread.ts';
import { createSession } from '../../lib/engine/session/session.ts';
import { runChecks } from '../../lib/engine/run/runner.ts';
import type { CheckResult } from '../../lib/engine/results.ts';
import { allChecks } from '../../suites/index.ts';
import { catchesOf, CATCHES, recordCase } from './coverage.ts';
import { EXPECTED } from './expected.ts';
import { expectationsIn, judgeFault, missingExpectation, type Judgement } from './judge.ts';

const OPENAPI_DOC = join(import.meta.dirname, '..', '..', 'docs', 'openapi', 'transfers.yaml');

/**
 * Quota exhaustion (checks that need 'destructive') and property checks (lib/engine/property/property.ts: hundreds of generated
 * inputs) cost a hundred calls or more per check, too much for every case: those checks run in the clean cases and
 * in the cases of faults on their own requirement ids only.
 */
function checksFor(faultIds: readonly string[] | undefined): typeof allChecks {
  if (!faultIds) return allChecks;
  return allChecks.filter(
    (c) =>
      !(c.needs?.includes('destructive') || c.property === true) || c.requirements.some((id) => faultIds.includes(id)),
  );
}

/**
 * The mocks of a shard run on a worker thread of their own (as in certify): the shard's thread does the harness's
 * work, the mocks' thread the banks', so that the two shards keep both cores busy. No case needs the mock's
 * in-process controls: a fault is switched on from the profile, as a real target would be configured.
 */
let mockThread: MockThread | undefined;
afterAll(async () => {
  await mockThread?.shutdown();
});

async function runAgainstMock(
  env: Environment,
  faults: string[],
  faultIds?: readonly string[],
): Promise<CheckResult[]> {
  // the mock's OpenAPI document in the clean cases and the cases of faults on its ids (OAS-01..03): every answer is
  // judged against it there; the other faults' cases keep the ids they name (a shape they change is not counted twice)
  const openapi = !faultIds || faultIds.some((id) => id.startsWith('OAS-')) ? { openapi: `file:${OPENAPI_DOC}` } : {};
  const profile = EmbeddedProfile.parse({
    name: `matrix-${env}`,
    environment: env,
    embedded: { faults, ...openapi },
  });
  mockThread ??= startMockThread();
  const prepared = await prepare(profile, { checkTimeoutMs: 120_000 }, { mockThread });
  const session = await createSession(prepared.runtime);
  try {
    return await runChecks(checksFor(faultIds), session, prepared.runtime.options);
  } finally {
    await session.close();
    await prepared.close();
  }
}

const PROPERTY_CHECKS = new Set(allChecks.filter((c) => c.property === true).map((c) => c.id));

/** the case's record for the per-check coverage (coverage.ts) */
function record(
  fault: string,
  env: Environment,
  results: CheckResult[],
  ids: readonly string[] = [],
  judgement?: Judgement,
): void {
  const applicable = results.filter((r) => r.verdict !== 'not-applicable');
  recordCase({
    fault,
    env,
    caught: catchesOf(results),
    matched: judgement?.matched ?? [],
    ...(judgement && judgement.otherReason.length > 0 ? { otherReason: judgement.otherReason } : {}),
    applicable: applicable.map((r) => r.checkId),
    properties: applicable.filter((r) => PROPERTY_CHECKS.has(r.checkId)).map((r) => r.checkId),
    missed: applicable
      .filter((r) => r.verdict === 'pass' && r.requirements.some((id) => ids.includes(id)))
      .map((r) => r.checkId),
  });
}

function summary(results: CheckResult[], keep: (r: CheckResult) => boolean): string[] {
  return results.filter(keep).map((r) => `${r.checkId} [${r.requirements.join(' ')}] ${r.verdict}: ${r.reason ?? ''}`);
}

type Case = { kind: 'clean'; env: Environment } | { kind: 'fault'; fault: (typeof FAULTS)[number]; env: Environment };
const cases: Case[] = [
  { kind: 'clean', env: 'sandbox' },
  { kind: 'clean', env: 'uat' },
  ...FAULTS.flatMap((fault) => fault.environments.map((env): Case => ({ kind: 'fault', fault, env }))),
];

export function registerMatrix(shard: number, shards: number): void {
  // UAT cases cost about three times a sandbox case: deal them out separately so the shards weigh the same
  const mine = (['sandbox', 'uat'] as const).flatMap((env) =>
    cases.filter((c) => c.env === env).filter((_, i) => i % shards === shard),
  );
  // generous time per case: a case is a whole certification run, and a loaded machine slows it several times
  describe.concurrent(`fault matrix (shard ${shard + 1} of ${shards})`, { timeout: 300_000 }, () => {
    for (const c of mine) {
      if (c.kind === 'clean') registerClean(c.env);
      else registerFault(c.fault, c.env);
    }
  });
}

function registerClean(env: Environment): void {
  test(`clean mock (${env}): every applicable check passes`, async () => {
    const results = await runAgainstMock(env, []);
    record('clean', env, results);
    expect(summary(results, (r) => r.verdict !== 'pass' && r.verdict !== 'not-applicable')).toEqual([]);
    expect(results.filter((r) => r.verdict === 'pass').length).toBeGreaterThan(0);
  });
}

function registerFault(fault: (typeof FAULTS)[number], env: Environment): void {
  test(`${fault.id} (${env}) is caught by its expected checks, for its reason, and nothing else fails`, async () => {
    const expectations = expectationsIn(EXPECTED[fault.id], env);
    // no expectation: nothing to judge the run by (the mock is not even started)
    expect(expectations?.length ?? 0, missingExpectation(fault.id, fault.requirements, env)).toBeGreaterThan(0);
    const results = await runAgainstMock(env, [fault.id], fault.requirements);
    const judgement = judgeFault(fault, env, results, expectations);
    record(fault.id, env, results, fault.requirements, judgement);
    const expected = fault.requirements.filter((id) => requirement(id).applies.includes(env));
    const broken = results.filter((r) => CATCHES.has(r.verdict));
    // a check that crashed under the fault caught nothing: a defect of the harness, whatever its id
    expect(summary(results, (r) => r.verdict === 'error')).toEqual([]);
    // each expected check caught the fault, for its reason (expected.ts)
    expect(
      judgement.unmet,
      `not caught as expected; results for ${expected.join(' ')}:\n${summary(results, (r) => r.requirements.some((id) => expected.includes(id))).join('\n')}`,
    ).toEqual([]);
    // no other id: every broken check names one of the fault's ids
    expect(summary(broken, (r) => !r.requirements.some((id) => expected.includes(id)))).toEqual([]);
  });
}
