/**
 * Introspection for resource servers only (the mock's shape MockOAuthShape.resourceServerIntrospection: a registered
 * resource-server client alone sees tokens, any other caller is told {"active": false}, as RFC 7662 §2.2 allows).
 * With the profile naming that client (target.oauth.introspection.client) TOK-04 is verified by introspection, in
 * sandbox and in UAT (its own certificate), by Basic or client_secret_post; naming nobody (the code client asks),
 * it is inconclusive, saying that the caller may not be allowed to see the token and which profile field to set;
 * the server that does not revoke on code re-use still fails it (a SHOULD: warn).
 */
import { describe, expect, it } from 'vitest';
import { prepare } from '../../lib/engine/run/prepare.ts';
import { establishPrerequisites } from '../../lib/engine/session/prerequisites.ts';
import { runChecks } from '../../lib/engine/run/runner.ts';
import { createSession } from '../../lib/engine/session/session.ts';
import type { CheckResult } from '../../lib/engine/results.ts';
import { EmbeddedProfile, type Environment, type FullProfile } from '../../lib/profile/schema.ts';
import { allChecks } from '../../suites/index.ts';

const tok04 = allChecks.filter((c) => c.requirements.includes('TOK-04'));

async function run(
  env: Environment,
  edit: (p: FullProfile) => FullProfile = (p) => p,
  faults: string[] = [],
): Promise<{ result: CheckResult; profile: FullProfile }> {
  const prepared = await prepare(
    EmbeddedProfile.parse({
      name: `rs-introspection-${env}`,
      environment: env,
      embedded: { faults, oauth: { resourceServerIntrospection: true } },
    }),
  );
  try {
    const runtime = { ...prepared.runtime, profile: edit(prepared.runtime.profile) };
    const session = await createSession(runtime);
    try {
      const establishing = establishPrerequisites(session, session.prerequisites);
      const [result] = await runChecks(tok04, session, runtime.options);
      await establishing;
      return { result: result!, profile: runtime.profile };
    } finally {
      await session.close();
    }
  } finally {
    await prepared.close();
  }
}

/** the profile with its introspection client left out: the code client asks, as before the field existed */
const nobodyNamed = (p: FullProfile): FullProfile => ({
  ...p,
  target: {
    ...p.target,
    oauth: { ...p.target.oauth, introspection: { endpoint: p.target.oauth.introspection!.endpoint } },
  },
});

const notes = (r: CheckResult): string => r.evidence.notes.join('\n');

describe('introspection by the client the profile names', () => {
  it.each(['sandbox', 'uat'] as const)(
    '%s: the profile names the resource server: TOK-04 is verified by its introspection',
    async (env) => {
      const { result, profile } = await run(env);
      expect(profile.target.oauth.introspection?.client?.clientId).toBe('resource-server-001');
      expect(result.verdict, result.reason).toBe('pass');
      expect(notes(result)).toMatch(/introspection \(.*, as client resource-server-001\): .*active true/);
      expect(notes(result)).toMatch(
        /as client resource-server-001\): the access token issued from a re-used code: active false/,
      );
      // its secret never reaches the evidence
      const secret = profile.target.oauth.introspection!.client!.clientSecret!;
      expect(JSON.stringify(result)).not.toContain(secret);
    },
    120_000,
  );

  it('client_secret_post: the id and secret in the form, TOK-04 verified and the secret redacted', async () => {
    let secret = '';
    const { result } = await run('sandbox', (p) => {
      const c = p.target.oauth.introspection!.client!;
      secret = c.clientSecret!;
      return {
        ...p,
        target: {
          ...p.target,
          oauth: {
            ...p.target.oauth,
            introspection: {
              endpoint: p.target.oauth.introspection!.endpoint,
              client: { ...c, authMethod: 'client_secret_post' },
            },
          },
        },
      };
    });
    expect(result.verdict, result.reason).toBe('pass');
    expect(secret.length).toBeGreaterThan(8);
    expect(JSON.stringify(result)).not.toContain(secret);
  }, 120_000);

  it('uat, tls_client_auth (RFC 8705): the client id and its certificate alone, no secret: TOK-04 verified', async () => {
    const { result } = await run('uat', (p) => {
      const { clientId, certificate, privateKey } = p.target.oauth.introspection!.client!;
      const client = { clientId, certificate, privateKey, authMethod: 'tls_client_auth' as const };
      const introspection = { endpoint: p.target.oauth.introspection!.endpoint, client };
      return { ...p, target: { ...p.target, oauth: { ...p.target.oauth, introspection } } };
    });
    expect(result.verdict, result.reason).toBe('pass');
    expect(notes(result)).toMatch(
      /as client resource-server-001\): the access token issued from a re-used code: active false/,
    );
  }, 120_000);

  it('naming nobody: the code client is told "not active"; inconclusive, the caller may not see the token', async () => {
    const { result } = await run('sandbox', nobodyNamed);
    expect(result.verdict).toBe('inconclusive');
    expect(result.reason).toMatch(/introspection as client fintech-app-001 \(the code client\) says it is not active/);
    expect(result.reason).toMatch(/may not let this caller see the token \(RFC 7662 §2\.2/);
    expect(result.reason).toMatch(/target\.oauth\.introspection\.client/);
  }, 120_000);

  it('naming a client the server does not let see tokens: inconclusive, pointing at the named client', async () => {
    const { result } = await run('sandbox', (p) => {
      const code = p.clients.code;
      const client = { clientId: code.clientId, clientSecret: code.clientSecret };
      const introspection = { endpoint: p.target.oauth.introspection!.endpoint, client };
      return { ...p, target: { ...p.target, oauth: { ...p.target.oauth, introspection } } };
    });
    expect(result.verdict).toBe('inconclusive');
    expect(result.reason).toMatch(/introspection as client fintech-app-001 says it is not active/);
    expect(result.reason).toMatch(/check that target\.oauth\.introspection\.client is a client the server lets/);
  }, 120_000);

  it('a server that does not revoke on code re-use still fails TOK-04 (a SHOULD: warn) by the resource server', async () => {
    const { result } = await run('sandbox', undefined, ['no-revoke-on-code-reuse']);
    expect(result.verdict, result.reason).toBe('warn');
    expect(result.reason).toMatch(/still active \(introspection\)/);
  }, 120_000);
});
