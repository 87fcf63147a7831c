/**
 * The built-in no-false-positive test: the lenient-but-conformant mock (every leniency the rules allow, at once:
 * invalid_token on a missing token, 404 for GET /transfers/validate, shortest decimals and extra members in
 * amounts, approvers: [] without a workflow, other wording of messages, the unversioned path served too, a Via
 * header, no size limit, JSON token requests in sandbox, and the JOSE leniencies) must fail no MUST check.
 * HARD/SHOULD warnings are expected, and listed.
 */
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { prepare } from '../../lib/engine/run/prepare.ts';
import { createSession } from '../../lib/engine/session/session.ts';
import { runChecks } from '../../lib/engine/run/runner.ts';
import type { CheckResult } from '../../lib/engine/results.ts';
import { EmbeddedProfile, type Environment } from '../../lib/profile/schema.ts';
import { allChecks } from '../../suites/index.ts';

async function certifyLenient(env: Environment): Promise<CheckResult[]> {
  // with the mock's OpenAPI document: a leniency the rules allow is no drift from it either (OAS-01..03, 06..08 pass)
  const openapi = `file:${join(import.meta.dirname, '..', '..', 'docs', 'openapi', 'transfers.yaml')}`;
  const profile = EmbeddedProfile.parse({
    name: `lenient-${env}`,
    environment: env,
    embedded: { lenient: true, openapi },
  });
  const prepared = await prepare(profile, { checkTimeoutMs: 120_000 });
  const session = await createSession(prepared.runtime);
  try {
    return await runChecks(allChecks, session, prepared.runtime.options);
  } finally {
    await session.close();
    await prepared.close();
  }
}

const line = (r: CheckResult): string => `${r.checkId} [${r.requirements.join(' ')}] ${r.verdict}: ${r.reason ?? ''}`;

describe.concurrent('the lenient-but-conformant mock', { timeout: 240_000 }, () => {
  for (const env of ['sandbox', 'uat'] as const) {
    test(`${env}: no MUST check fails (warnings allowed)`, async () => {
      const results = await certifyLenient(env);
      expect(results.filter((r) => r.verdict === 'fail' || r.verdict === 'error').map(line)).toEqual([]);
      expect(results.filter((r) => r.verdict === 'inconclusive').map(line)).toEqual([]);
      // the leniencies are really on: the hardening probes see them
      const byId = new Map(results.map((r) => [r.checkId, r] as const));
      expect(byId.get('conventions.oversize-body-413')?.verdict).toBe('not-run');
      expect(byId.get('conventions.basepath-versioned')?.verdict).toBe('warn');
      for (const id of [
        'openapi.status-documented',
        'openapi.content-type-documented',
        'openapi.body-valid',
        'openapi.headers-documented',
        'openapi.security-held',
        'openapi.document-consistent',
      ])
        expect(byId.get(id)?.verdict, id).toBe('pass');
    });
  }
});
