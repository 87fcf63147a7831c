/**
 * The command as run (scripts/bin/jose.mjs, as `npm run jose` runs it: from the bundle): its exit codes and its one
 * line on bad input; and the profile field it reads the bank's private key from (bank.apiPrivateKey), a secret.
 */
import { spawn, spawnSync } from 'node:child_process';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../lib/root.ts';
import { parseProfile, secretsOf, type FullProfile } from '../../lib/profile/index.ts';
import { testPki } from '../../lib/pki/index.ts';
import { startMockBank } from '../../lib/mock/index.ts';
import { runJose } from '../../lib/workbench/jose-cli.ts';

function jose(args: string[], input = ''): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [join(ROOT, 'scripts/bin/jose.mjs'), ...args], {
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

/** runJose in-process, its output captured */
async function inProcess(args: string[], stdin = ''): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runJose(args, {
    stdin: Readable.from([Buffer.from(stdin)]),
    out: (t) => (out += t),
    err: (t) => (err += t),
  });
  return { code, out, err };
}

describe('against the standalone mock (npm run mock -- --mode uat)', () => {
  it('its profile seals and opens as client and as bank; E7 reads its TLS key; a spoil signs as the bank', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(ROOT, 'scripts/mock.ts'), '--mode', 'uat', '--port', '0'],
      {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const exited = new Promise<void>((r) => child.on('exit', () => r()));
    try {
      let text = '';
      child.stdout.on('data', (d: Buffer) => (text += d.toString()));
      const deadline = Date.now() + 100_000;
      while (!text.includes('Ctrl-C') && Date.now() < deadline) await sleep(200);
      const profile = /profile: +(\S+)/.exec(text)![1]!;
      const doc = JSON.stringify({ beneficiary_id: 'BEN-0001', amount: { value: '1.00', currency: 'AED' } });
      const req = await inProcess(['seal', '--profile', profile, '--as', 'client'], doc);
      expect((await inProcess(['open', '--profile', profile, '--as', 'bank'], req.out)).code).toBe(0);
      const answer = await inProcess(['seal', '--profile', profile, '--as', 'bank'], doc);
      expect((await inProcess(['open', '--profile', profile, '--as', 'client'], answer.out)).code).toBe(0);
      const e7 = await inProcess(['forge', '--profile', profile, '--variant', 'E7'], doc);
      expect(e7.code, e7.err).toBe(0);
      const opened = await inProcess(['open', '--profile', profile, '--as', 'bank'], e7.out);
      expect(opened.err).toMatch(/no content key of the envelope unwraps with bank\.apiPrivateKey/);
      const spoil = await inProcess(['forge', '--profile', profile, '--variant', 'spoil:crit'], doc);
      const asClient = await inProcess(['open', '--profile', profile, '--as', 'client'], spoil.out);
      expect(asClient.out).toMatch(/FAILED +jws-header +CRIT_UNSUPPORTED|FAILED +verify/);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  }, 180_000);
});
