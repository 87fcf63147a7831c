/**
 * target.oauth.introspection: the endpoint and the client that introspects. Its secret comes from an environment
 * variable or a file like every secret of a profile, is registered with the redactor (secretsOf) and never printed
 * by a profile error; the shorter introspectionEndpoint still works; a client without a way to authenticate, or two
 * different endpoints, are refused, naming the field.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseProfile, ProfileError, secretsOf } from '../../lib/profile/index.ts';
import type { FullProfile } from '../../lib/profile/schema.ts';
import { introspectionCaller, introspectionRequest } from '../../lib/oauth/index.ts';

const tmp = mkdtempSync(join(tmpdir(), 'introspection-profile-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function doc(oauth: Record<string, unknown>): string {
  return JSON.stringify({
    name: 't',
    environment: 'sandbox',
    target: { baseUrl: 'http://127.0.0.1:1', oauthBaseUrl: 'http://127.0.0.1:3/as', oauth },
    clients: {
      code: { clientId: 'c1', clientSecret: 'code-secret-CANARY', redirectUri: 'http://127.0.0.1:2/cb' },
      partner: { clientId: 'p1', clientSecret: 'partner-secret-CANARY' },
    },
    customers: [
      { name: 'a', uuid: 'u1', accountId: '1234567890123', beneficiaryId: 'B1' },
      { name: 'b', uuid: 'u2', accountId: '9876543210987654321', beneficiaryId: 'B2' },
    ],
  });
}

const full = (text: string, env: Record<string, string> = {}): FullProfile =>
  parseProfile(text, { baseDir: tmp, env }) as FullProfile;

function refused(text: string): string[] {
  try {
    full(text);
  } catch (e) {
    expect(e).toBeInstanceOf(ProfileError);
    return (e as ProfileError).issues;
  }
  throw new Error('expected a ProfileError');
}

describe('target.oauth.introspection', () => {
  it('the secret from an environment variable: Basic as the named client, registered as a secret', () => {
    const p = full(
      doc({
        introspection: { endpoint: '/introspect', client: { clientId: 'rs-1', clientSecret: '${env:RS_SECRET}' } },
      }),
      { RS_SECRET: 'rs-secret-CANARY' },
    );
    const caller = introspectionCaller(p)!;
    expect(caller).toMatchObject({ url: 'http://127.0.0.1:3/as/introspect', clientId: 'rs-1', named: true });
    const req = introspectionRequest(p, caller, 'tok');
    expect(req.headers.authorization).toBe(`Basic ${Buffer.from('rs-1:rs-secret-CANARY').toString('base64')}`);
    expect(req.body).toBe('token=tok');
    const secrets = secretsOf(p).map((s) => s.value);
    expect(secrets).toContain('rs-secret-CANARY');
    expect(secrets).toContain(Buffer.from('rs-1:rs-secret-CANARY').toString('base64'));
  });

  it('the secret from a file, client_secret_post: id and secret in the form, no Authorization', () => {
    writeFileSync(join(tmp, 'rs.secret'), 'rs-file-secret-CANARY');
    const p = full(
      doc({
        introspection: {
          endpoint: 'https://as.example/introspect',
          client: { clientId: 'rs-1', clientSecret: 'file:rs.secret', authMethod: 'client_secret_post' },
        },
      }),
    );
    const caller = introspectionCaller(p)!;
    expect(caller.url).toBe('https://as.example/introspect');
    const req = introspectionRequest(p, caller, 'tok');
    expect(req.headers.authorization).toBeUndefined();
    expect(new URLSearchParams(req.body).get('client_secret')).toBe('rs-file-secret-CANARY');
    expect(new URLSearchParams(req.body).get('client_id')).toBe('rs-1');
    expect(secretsOf(p).map((s) => s.value)).toContain('rs-file-secret-CANARY');
  });

  it('the shorter introspectionEndpoint still works: the code client asks, with Basic', () => {
    const p = full(doc({ introspectionEndpoint: '/introspect' }));
    const caller = introspectionCaller(p)!;
    expect(caller).toMatchObject({ clientId: 'c1', named: false, auth: 'client_secret_basic' });
    expect(introspectionRequest(p, caller, 't').headers.authorization).toBe(
      `Basic ${Buffer.from('c1:code-secret-CANARY').toString('base64')}`,
    );
    expect(introspectionCaller(full(doc({})))).toBeUndefined();
  });

  it('refused: no way to authenticate, a certificate without its key, two different endpoints (no secret shown)', () => {
    expect(refused(doc({ introspection: { endpoint: '/i', client: { clientId: 'rs' } } }))).toEqual([
      expect.stringMatching(/target\.oauth\.introspection\.client\.certificate: required for tls_client_auth/),
    ]);
    expect(
      refused(doc({ introspection: { endpoint: '/i', client: { clientId: 'rs', authMethod: 'client_secret_post' } } })),
    ).toEqual([expect.stringMatching(/client\.clientSecret: required for client_secret_post/)]);
    const pem = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
    expect(
      refused(
        doc({
          introspection: { endpoint: '/i', client: { clientId: 'rs', clientSecret: 's-CANARY', certificate: pem } },
        }),
      ),
    ).toEqual([expect.stringMatching(/client\.privateKey: certificate and privateKey go together/)]);
    const two = refused(doc({ introspectionEndpoint: '/a', introspection: { endpoint: '/b' } }));
    expect(two).toEqual([
      expect.stringMatching(/target\.oauth\.introspectionEndpoint: differs from introspection\.endpoint/),
    ]);
    expect(JSON.stringify(two)).not.toContain('CANARY');
  });
});
