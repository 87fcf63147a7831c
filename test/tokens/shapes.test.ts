/**
 * Real OAuth servers' variants (docs/authorization-server-product.md), reproduced with the mock's shapes
 * (MockOptions.oauth):
 *  - PKCE required and redirect_uri only, with a profile that says so (target.oauth): every token check passes, and
 *    HARD-06 (PKCE enforced) passes;
 *  - PKCE required, with a profile that does not send it: the code grant is refused, and the evidence carries the
 *    callback's error_description (no made-up status);
 *  - a profile that declares PKCE-only against a server that does not require it: HARD-06 fails;
 *  - redirect_uri only, with the specification's redirect_url: the server ignores it, the log warns, TOK-17 still holds.
 */
import { describe, expect, it } from 'vitest';
import { prepare } from '../../lib/engine/run/prepare.ts';
import { establishPrerequisites } from '../../lib/engine/session/prerequisites.ts';
import { runChecks } from '../../lib/engine/run/runner.ts';
import { createSession } from '../../lib/engine/session/session.ts';
import type { CheckResult } from '../../lib/engine/results.ts';
import { EmbeddedProfile, type FullProfile } from '../../lib/profile/schema.ts';
import { allChecks } from '../../suites/index.ts';

const tokens = allChecks.filter((c) => c.suite === 'tokens');

async function run(
  embedded: Record<string, unknown>,
  edit: (p: FullProfile) => FullProfile = (p) => p,
  checks = tokens,
): Promise<{ results: CheckResult[]; prerequisites: { id: string; verdict: string; reason?: string }[] }> {
  const prepared = await prepare(EmbeddedProfile.parse({ name: 'shape', environment: 'sandbox', embedded }));
  try {
    const runtime = { ...prepared.runtime, profile: edit(prepared.runtime.profile) };
    const session = await createSession(runtime);
    try {
      const establishing = establishPrerequisites(session, session.prerequisites);
      const results = await runChecks(checks, session, runtime.options);
      return { results, prerequisites: (await establishing).results };
    } finally {
      await session.close();
    }
  } finally {
    await prepared.close();
  }
}

const notPassed = (rs: CheckResult[]): string[] =>
  rs
    .filter((r) => r.verdict !== 'pass' && r.verdict !== 'not-applicable')
    .map((r) => `${r.checkId} ${r.verdict}: ${r.reason ?? ''}`);

describe('authorization server shapes', () => {
  it('PKCE required and redirect_uri only, declared in the profile: every token check (and the RACE-02 code race) passes, HARD-06 included', async () => {
    const withRace = [...tokens, ...allChecks.filter((c) => c.requirements.includes('RACE-02'))];
    const { results } = await run({ oauth: { pkceRequired: true, redirectUriOnly: true } }, undefined, withRace);
    expect(notPassed(results)).toEqual([]);
    expect(results.find((r) => r.checkId === 'tokens.pkce-required')?.verdict).toBe('pass');
    expect(results.find((r) => r.checkId === 'tokens.pkce-verifier-required')?.verdict).toBe('pass');
  }, 180_000);

  it('PKCE required, not sent: the code grant fails with the callback error_description, no made-up status', async () => {
    const { prerequisites } = await run(
      { oauth: { pkceRequired: true } },
      (p) => ({
        ...p,
        target: { ...p.target, oauth: { ...p.target.oauth, pkce: 'none' } },
      }),
      [],
    );
    const grant = prerequisites.find((r) => r.id === 'code-grant')!;
    expect(grant.verdict).toBe('fail');
    expect(grant.reason).toMatch(/error=invalid_request \(code_challenge is required \(PKCE S256\)\)/);
  }, 120_000);

  it('a profile that declares PKCE-only against a server that does not require it: HARD-06 fails', async () => {
    const { results } = await run(
      {},
      (p) => ({ ...p, target: { ...p.target, oauth: { ...p.target.oauth, pkce: 'S256' } } }),
      tokens.filter((c) => c.requirements.includes('HARD-06')),
    );
    expect(results.find((r) => r.checkId === 'tokens.pkce-required')?.verdict).toBe('warn');
    expect(results.find((r) => r.checkId === 'tokens.pkce-verifier-required')?.verdict).toBe('pass');
  }, 120_000);

  it("redirect_uri only, the specification's redirect_url sent: the server ignores it, the evidence warns, TOK-17 holds", async () => {
    const { results } = await run(
      { oauth: { redirectUriOnly: true } },
      (p) => ({ ...p, target: { ...p.target, oauth: { ...p.target.oauth, redirectParameter: 'redirect_url' } } }),
      tokens.filter((c) => c.requirements.includes('TOK-17')),
    );
    const r = results[0]!;
    expect(r.verdict, r.reason).toBe('pass');
    expect(r.evidence.notes.join('\n')).toMatch(/warning: the server ignored the redirect_url sent/);
  }, 120_000);
});
