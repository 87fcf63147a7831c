/**
 * The command as run (scripts/jose.ts through node + tsx, as `npm run jose` runs it): its exit codes and its one
 * line on bad input; and the profile field it reads the bank's private key from (bank.apiPrivateKey), a secret.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../lib/root.ts';
import { parseProfile, secretsOf, type FullProfile } from '../../lib/profile/index.ts';
import { testPki } from '../../lib/pki/index.ts';
import { startMockBank } from '../../lib/mock/index.ts';

function jose(args: string[], input = ''): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts/jose.ts'), ...args], {
    cwd: ROOT,
    input,
    encoding: 'utf8',
    timeout: 60_000,
  });
}

describe('scripts/jose.ts', () => {
  it('open --help: exit 0, the usage', () => {
    const r = jose(['open', '--help']);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('npm run jose -- open --profile p.jsonc --as client|bank');
  });

  it('bad input: exit 2, one line on stderr, no stack trace', () => {
    const r = jose(['open', '--profile', join(ROOT, 'profiles/mock-uat.json'), '--as', 'bank'], '{}');
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^jose: profile .*mock-uat\.json: an embedded-mock profile has no keys/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('profile bank.apiPrivateKey', () => {
  it('is accepted, optional, and a secret the reports redact', async () => {
    const pki = await testPki();
    const mock = await startMockBank({ mode: 'uat', pki, port: 0 });
    const described = mock.profile('bank-key');
    await mock.close();
    const p = parseProfile(
      JSON.stringify({ ...described, bank: { ...described.bank, apiPrivateKey: pki.bankApi.privateKeyPem } }),
    ) as FullProfile;
    expect(p.bank.apiPrivateKey).toBe(pki.bankApi.privateKeyPem);
    expect(secretsOf(p)).toContainEqual({ value: pki.bankApi.privateKeyPem, kind: 'private-key' });
    expect((parseProfile(JSON.stringify(described)) as FullProfile).bank.apiPrivateKey).toBeUndefined();
  });
});
