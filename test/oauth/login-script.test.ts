/**
 * The login script of `script` consent (profiles/README.md): it runs in the folder it is given (the profile's), is told
 * who consents and which check asked (its environment), and its stderr is passed through when it fails (only then).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { OAuthError, runLoginScript } from '../../lib/oauth/index.ts';
import { parseProfile } from '../../lib/profile/load.ts';

const dir = mkdtempSync(join(tmpdir(), 'login-script-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SCRIPT = `
console.error('signing in as ' + process.env.HARNESS_CONSENT_CUSTOMER);
if (process.env.FAIL) { console.error('the page shows an error'); process.exit(3); }
console.log('http://127.0.0.1:9/cb?code=C&who=' + process.env.HARNESS_CONSENT_CUSTOMER_UUID + '&check=' + process.env.HARNESS_CONSENT_CHECK + '&cwd=' + encodeURIComponent(process.cwd()));
`;
writeFileSync(join(dir, 'login.cjs'), SCRIPT);
const command = `"${process.execPath}" login.cjs`;
const env = { HARNESS_CONSENT_CUSTOMER: 'bob', HARNESS_CONSENT_CUSTOMER_UUID: 'u-bob', HARNESS_CONSENT_CHECK: 'x.y' };

describe('login script', () => {
  it('runs in the given folder, told who consents and which check asked; its stderr kept back on success', async () => {
    const seen: string[] = [];
    const url = new URL(
      await runLoginScript(command, 'http://as/auth', 20_000, dir, { env, stderr: (t) => seen.push(t) }),
    );
    expect(url.searchParams.get('who')).toBe('u-bob');
    expect(url.searchParams.get('check')).toBe('x.y');
    expect(url.searchParams.get('cwd')).toBe(dir);
    expect(seen).toEqual([]);
  });

  it('a failing script: its stderr is passed through, the error says so', async () => {
    const seen: string[] = [];
    const err = await runLoginScript(command, 'http://as/auth', 20_000, dir, {
      env: { ...env, FAIL: '1' },
      stderr: (t) => seen.push(t),
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OAuthError);
    expect((err as Error).message).toMatch(/exited with 3 \(its stderr is on the console\)/);
    expect(seen.join('')).toMatch(/signing in as bob[\s\S]*the page shows an error/);
  });

  it("a profile's script consent runs from the profile's folder (where its file: references resolve)", () => {
    const p = parseProfile(
      JSON.stringify({
        name: 'p',
        environment: 'sandbox',
        target: { baseUrl: 'http://127.0.0.1:9', consent: { mode: 'script', command: 'node login.mjs' } },
        clients: {
          code: { clientId: 'c', clientSecret: 's', redirectUri: 'http://127.0.0.1:9/cb' },
          partner: { clientId: 'p', clientSecret: 's' },
        },
        customers: [
          { name: 'a', uuid: 'u1', accountId: '1234567890123', beneficiaryId: 'B1' },
          { name: 'b', uuid: 'u2', accountId: '9876543210987', beneficiaryId: 'B2' },
        ],
      }),
      { baseDir: dir },
    );
    expect('target' in p && p.target.consent.mode === 'script' && p.target.consent.workingDirectory).toBe(dir);
  });
});
