import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { assumptionsOf, loadProfile, parseProfile, ProfileError, secretsOf } from '../../lib/profile/index.ts';
import type { FullProfile } from '../../lib/profile/schema.ts';

const PROFILES = join(import.meta.dirname, '..', '..', 'profiles');
const tmp = mkdtempSync(join(tmpdir(), 'profile-test-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const DUMMY_PEM = (label: string): string => `-----BEGIN ${label}-----\nMIIBdummydummydummy\n-----END ${label}-----\n`;

/** a valid sandbox full profile, as an object to tweak */
function sandboxDoc(): Record<string, unknown> {
  return {
    name: 't',
    environment: 'sandbox',
    target: { baseUrl: 'http://127.0.0.1:1' },
    clients: {
      code: { clientId: 'c1', clientSecret: 'code-secret-CANARY', redirectUri: 'http://127.0.0.1:2/cb' },
      partner: { clientId: 'p1', clientSecret: 'partner-secret-CANARY' },
    },
    customers: [
      { name: 'a', uuid: 'u1', accountId: '1234567890123', beneficiaryId: 'B1' },
      {
        name: 'b',
        uuid: 'u2',
        accountId: '9876543210987654321',
        emiratesId: '784198012345678',
        beneficiaryId: 'B2',
        workflow: true,
      },
    ],
  };
}

function expectProfileError(f: () => unknown, code: string): ProfileError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(ProfileError);
    expect((e as ProfileError).code).toBe(code);
    return e as ProfileError;
  }
  throw new Error('expected a ProfileError');
}

async function expectProfileErrorAsync(p: Promise<unknown>, code: string): Promise<ProfileError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ProfileError);
  expect((e as ProfileError).code).toBe(code);
  return e as ProfileError;
}

describe('the shipped profiles parse', () => {
  it('mock-sandbox.json and mock-uat.json are embedded profiles', async () => {
    const s = await loadProfile(join(PROFILES, 'mock-sandbox.json'));
    const u = await loadProfile(join(PROFILES, 'mock-uat.json'));
    expect('embedded' in s && s.environment).toBe('sandbox');
    expect('embedded' in u && u.environment).toBe('uat');
    expect(s.contract.quota.perHour).toBe(100);
  });

  /** an example profile with its variables set (dummies) and its files present (dummy PEMs in a scratch base) */
  async function loadExample(file: string): Promise<{ full: FullProfile; env: Record<string, string> }> {
    const path = join(PROFILES, 'examples', file);
    const text = readFileSync(path, 'utf8');
    // every ${env:NAME} the example uses, set to a dummy long enough for an account id
    const env: Record<string, string> = {};
    for (const m of text.matchAll(/\$\{env:([A-Z0-9_]+)\}/g)) env[m[1]!] = `dummy-${m[1]!.toLowerCase()}-0001`;
    // every file: reference, as a dummy PEM in a scratch directory used as the base
    const base = join(tmp, file);
    for (const m of text.matchAll(/"file:([^"]+)"/g)) {
      const rel = m[1]!;
      mkdirSync(join(base, rel, '..'), { recursive: true });
      writeFileSync(join(base, rel), DUMMY_PEM(rel.endsWith('.key') ? 'PRIVATE KEY' : 'CERTIFICATE'));
    }
    const p = await loadProfile(path, { baseDir: base, env });
    expect('target' in p).toBe(true);
    return { full: p as FullProfile, env };
  }

  for (const [file, environment] of [
    ['real-sandbox.jsonc', 'sandbox'],
    ['real-uat.jsonc', 'uat'],
  ] as const) {
    it(`examples/${file} parses with its variables set and its files present`, async () => {
      const { full, env } = await loadExample(file);
      expect(full.environment).toBe(environment);
      expect(full.customers.length).toBeGreaterThanOrEqual(2);
      expect(full.clients.code.clientSecret).toBe(env[Object.keys(env).find((k) => k.endsWith('CODE_CLIENT_SECRET'))!]);
    });
  }

  it('examples/real-uat.jsonc: the TLS CA, the partner key and its account binding', async () => {
    const { full } = await loadExample('real-uat.jsonc');
    expect(full.tls?.caCertificate).toContain('BEGIN CERTIFICATE');
    expect(full.clients.partner.privateKey).toContain('PRIVATE KEY');
    expect(full.clients.partner.oauthMetadata).toEqual({ account_id: full.customers[0]!.accountId });
  });
});

describe('loader errors', () => {
  it('a missing file is PROFILE_NOT_FOUND', async () => {
    const e = await expectProfileErrorAsync(loadProfile(join(tmp, 'nope.jsonc')), 'PROFILE_NOT_FOUND');
    expect(e.message).toContain('nope.jsonc');
  });

  it('bad JSONC is PROFILE_SYNTAX with line:column', () => {
    const text = '{\n  // a comment is fine\n  "name": "x",\n  "environment": "sandbox" "target": {}\n}';
    const e = expectProfileError(() => parseProfile(text, { source: 'bad.jsonc' }), 'PROFILE_SYNTAX');
    expect(e.issues[0]).toMatch(/^4:28: CommaExpected$/);
    expect(e.message).toContain('bad.jsonc');
  });

  it('a document that is not an object is PROFILE_SYNTAX', () => {
    expectProfileError(() => parseProfile('[1, 2]'), 'PROFILE_SYNTAX');
  });

  it('an unset variable names the field path and the variable', () => {
    const doc = sandboxDoc();
    (doc.clients as { code: Record<string, string> }).code.clientSecret = 'pre-${env:CODE_SECRET}';
    const e = expectProfileError(() => parseProfile(JSON.stringify(doc), { env: {} }), 'PROFILE_REFERENCE');
    expect(e.issues).toEqual(['clients.code.clientSecret: environment variable CODE_SECRET is not set']);
  });

  it('variables are substituted anywhere inside a string', () => {
    const doc = sandboxDoc();
    (doc.target as Record<string, string>).baseUrl = 'https://${env:HOST}:${env:PORT}';
    const p = parseProfile(JSON.stringify(doc), { env: { HOST: 'bank.example', PORT: '8443' } }) as FullProfile;
    expect(p.target.baseUrl).toBe('https://bank.example:8443');
  });

  it('a file: reference that cannot be read names the field path and the file', () => {
    const doc = sandboxDoc();
    doc.tls = { caCertificate: 'file:keys/missing-ca.pem' };
    const e = expectProfileError(() => parseProfile(JSON.stringify(doc), { baseDir: tmp }), 'PROFILE_REFERENCE');
    expect(e.issues).toEqual([
      expect.stringMatching(
        /^tls\.caCertificate: cannot read file keys\/missing-ca\.pem \(\/\S+\/keys\/missing-ca\.pem: ENOENT\)$/,
      ),
    ]);
  });

  it('a file: reference is read relative to the base directory', () => {
    writeFileSync(join(tmp, 'ca.pem'), DUMMY_PEM('CERTIFICATE'));
    const doc = sandboxDoc();
    doc.tls = { caCertificate: 'file:ca.pem' };
    const p = parseProfile(JSON.stringify(doc), { baseDir: tmp }) as FullProfile;
    expect(p.tls?.caCertificate).toBe(DUMMY_PEM('CERTIFICATE'));
  });

  it('schema errors name the field path', () => {
    const doc = sandboxDoc();
    (doc.customers as Record<string, unknown>[])[1]!.accountId = 'short';
    (doc.target as Record<string, unknown>).baseUrl = 'ftp://x';
    (doc.contract as unknown) = { quota: { perHour: -1 }, sealGetResponse: false };
    const e = expectProfileError(() => parseProfile(JSON.stringify(doc)), 'PROFILE_INVALID');
    expect(e.issues).toContain('customers[1].accountId: Too small: expected string to have >=8 characters');
    expect(e.issues.some((i) => i.startsWith('target.baseUrl: '))).toBe(true);
    expect(e.issues.some((i) => i.startsWith('contract.quota.perHour: '))).toBe(true);
    // a misspelt setting is an error, not a silent default
    expect(e.issues.some((i) => i.startsWith('contract: ') && i.includes('sealGetResponse'))).toBe(true);
  });

  it('uat without tls is PROFILE_INVALID naming tls', () => {
    const doc = sandboxDoc();
    doc.environment = 'uat';
    doc.target = { baseUrl: 'https://127.0.0.1:1' };
    doc.bank = { apiPublicKey: DUMMY_PEM('PUBLIC KEY') };
    for (const c of Object.values(doc.clients as Record<string, Record<string, string>>)) {
      c.certificate = DUMMY_PEM('CERTIFICATE');
      c.privateKey = DUMMY_PEM('PRIVATE KEY');
    }
    const e = expectProfileError(() => parseProfile(JSON.stringify(doc)), 'PROFILE_INVALID');
    expect(e.issues).toEqual(['tls: required when environment is uat']);
  });

  it('uat with a plain-HTTP URL is PROFILE_INVALID naming the URL', () => {
    const doc = sandboxDoc();
    doc.environment = 'uat';
    doc.target = { baseUrl: 'https://127.0.0.1:1', oauthBaseUrl: 'http://127.0.0.1:2' };
    const e = expectProfileError(() => parseProfile(JSON.stringify(doc)), 'PROFILE_INVALID');
    expect(e.issues).toContain('target.oauthBaseUrl: must be an https:// URL when environment is uat');
    expect(e.issues.some((i) => i.startsWith('target.baseUrl'))).toBe(false);
  });

  it('waivers need an id and a reason', () => {
    const doc = sandboxDoc();
    doc.waivers = [{ id: 'QUOTA-01' }];
    const e = expectProfileError(() => parseProfile(JSON.stringify(doc)), 'PROFILE_INVALID');
    expect(e.issues.some((i) => i.startsWith('waivers[0].reason'))).toBe(true);
  });

  it('an embedded profile with an unknown member is refused', () => {
    const e = expectProfileError(
      () => parseProfile('{"name":"m","environment":"uat","embedded":{},"target":{}}'),
      'PROFILE_INVALID',
    );
    expect(e.issues.join('\n')).toContain('target');
  });

  it('a resolved secret never appears in an error', () => {
    const doc = sandboxDoc();
    (doc.target as Record<string, string>).baseUrl = '${env:URL}';
    (doc.customers as Record<string, unknown>[])[0]!.accountId = '${env:ACCT}';
    const env = { URL: 'not a url SECRET-CANARY-1', ACCT: 'SHORT' };
    const e = expectProfileError(() => parseProfile(JSON.stringify(doc), { env }), 'PROFILE_INVALID');
    expect(e.issues).toHaveLength(2);
    expect(e.message).not.toContain('SECRET-CANARY-1');
    expect(e.message).not.toContain('SHORT');
  });
});

describe('secretsOf and assumptionsOf', () => {
  it('lists client secrets, keys and clear ids with their kinds', () => {
    const doc = sandboxDoc();
    (doc.clients as { partner: Record<string, unknown> }).partner.oauthMetadata = { account_id: '1234567890123' };
    doc.tls = {
      caCertificate: DUMMY_PEM('CERTIFICATE'),
      negativeCertificates: {
        weak1024: {
          certificate: DUMMY_PEM('CERTIFICATE'),
          privateKey: DUMMY_PEM('PRIVATE KEY'),
          clientSecret: 'weak-secret',
        },
      },
    };
    const p = parseProfile(JSON.stringify(doc)) as FullProfile;
    const s = secretsOf(p);
    expect(s).toEqual(
      expect.arrayContaining([
        { value: 'code-secret-CANARY', kind: 'client-secret' },
        { value: 'partner-secret-CANARY', kind: 'client-secret' },
        // named by their customer (the marker in the evidence says whose clear id it was)
        { value: '1234567890123', kind: 'account-id', whose: 'customer a' },
        { value: '9876543210987654321', kind: 'account-id', whose: 'customer b' },
        { value: '784198012345678', kind: 'emirates-id', whose: 'customer b' },
        { value: DUMMY_PEM('PRIVATE KEY'), kind: 'private-key' },
        { value: 'weak-secret', kind: 'client-secret' },
        { value: Buffer.from('c1:code-secret-CANARY').toString('base64'), kind: 'credentials' },
      ]),
    );
    // each value once
    expect(new Set(s.map((x) => x.value)).size).toBe(s.length);
  });

  it('reports the contract in force, the overrides and the paths, without secrets', () => {
    const doc = sandboxDoc();
    doc.contract = { quota: { perHour: 50 }, sealGetResponses: false };
    (doc.target as Record<string, unknown>).paths = { token: '/oauth2/token' };
    const p = parseProfile(JSON.stringify(doc));
    const a = assumptionsOf(p);
    expect(a.overrides).toEqual([
      'contract.quota.perHour: 50 (contract default 100)',
      'contract.sealGetResponses: false (contract default true)',
      'target.paths.token: "/oauth2/token" (contract default "/oauth/v1/token")',
    ]);
    expect((a.paths as Record<string, string>).token).toBe('/oauth2/token');
    const text = JSON.stringify(a);
    for (const s of secretsOf(p as FullProfile)) expect(text).not.toContain(s.value);
  });

  it('works for an embedded profile', () => {
    const a = assumptionsOf(parseProfile('{"name":"m","environment":"sandbox","embedded":{"faults":["x"]}}'));
    expect(a.overrides).toEqual([]);
    expect(a.embedded).toEqual({ faults: ['x'] });
  });
});
