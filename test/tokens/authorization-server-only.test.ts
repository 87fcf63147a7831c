/**
 * An authorization server alone (docs/authorization-server-product.md): the mock with no API behind its OAuth endpoints
 * (MockOptions.oauth.noApi, its profile saying target.api: none and naming its RFC 7662 introspection endpoint). The
 * token-endpoint and /authorize checks run and pass; those that need the API's answer are not run, saying why; TOK-04
 * is judged by introspection, said in the evidence; nothing fails (before: TOK-07/08 "expected HTTP 401, observed
 * 404"). With a server that does not revoke on code re-use, TOK-04 still fails, by introspection.
 */
import { describe, expect, it } from 'vitest';
import { prepare } from '../../lib/engine/run/prepare.ts';
import { establishPrerequisites } from '../../lib/engine/session/prerequisites.ts';
import { runChecks } from '../../lib/engine/run/runner.ts';
import { createSession } from '../../lib/engine/session/session.ts';
import type { CheckResult } from '../../lib/engine/results.ts';
import { EmbeddedProfile, type Environment } from '../../lib/profile/schema.ts';
import { allChecks } from '../../suites/index.ts';

async function alone(env: Environment, faults: string[] = []): Promise<CheckResult[]> {
  const prepared = await prepare(
    EmbeddedProfile.parse({ name: `as-only-${env}`, environment: env, embedded: { faults, oauth: { noApi: true } } }),
  );
  try {
    const session = await createSession(prepared.runtime);
    try {
      const establishing = establishPrerequisites(session, session.prerequisites);
      const results = await runChecks(allChecks, session, prepared.runtime.options);
      await establishing;
      return results;
    } finally {
      await session.close();
    }
  } finally {
    await prepared.close();
  }
}

const verdictOf = (rs: CheckResult[], id: string): string | undefined => rs.find((r) => r.checkId === id)?.verdict;

describe('an authorization server alone', () => {
  it.each(['sandbox', 'uat'] as const)(
    '%s: token checks run, API checks say not run, nothing fails',
    async (env) => {
      const rs = await alone(env);
      const bad = rs
        .filter((r) => !['pass', 'not-run', 'not-applicable'].includes(r.verdict))
        .map((r) => `${r.checkId} ${r.verdict}: ${r.reason ?? ''}`);
      expect(bad).toEqual([]);
      for (const id of [
        'tokens.code-token-fields',
        'tokens.code-token-has-refresh',
        'tokens.code-single-use',
        'tokens.code-reuse-revokes-tokens',
        'tokens.refresh-reuse-revokes-grant',
        'tokens.code-endpoint-authenticates-client',
        'tokens.authorize-requires-client-and-scope',
        'tokens.authorize-code-to-registered-uri-with-state',
        'tokens.pkce-verifier-required',
      ])
        expect(verdictOf(rs, id), id).toBe('pass');
      const tok04 = rs.find((r) => r.checkId === 'tokens.code-reuse-revokes-tokens')!;
      expect(tok04.evidence.notes.join('\n')).toMatch(/evidence by RFC 7662 introspection .*active false/);
      for (const id of ['tokens.missing-token-401', 'tokens.scope-required', 'tokens.code-token-bound-to-account']) {
        const r = rs.find((x) => x.checkId === id)!;
        expect(r.verdict, id).toBe('not-run');
        expect(r.reason).toMatch(/no API behind the target \(target\.api: none\)/);
      }
    },
    240_000,
  );

  it('a server that does not revoke on code re-use: TOK-04 fails (a SHOULD: warn) by introspection', async () => {
    const rs = await alone('sandbox', ['no-revoke-on-code-reuse']);
    const r = rs.find((x) => x.checkId === 'tokens.code-reuse-revokes-tokens')!;
    // TOK-04 is a SHOULD: its failure is reported as a warning
    expect(r.verdict, r.reason).toBe('warn');
    expect(r.reason).toMatch(/still active \(introspection\)/);
  }, 240_000);
});
