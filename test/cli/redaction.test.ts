/**
 * Redaction, end to end: a full certification of a UAT mock that leaks (fault mask-echo-clear-id echoes clear
 * account ids in its responses) must not let any secret reach a file the run writes or its console output:
 * client secrets, private keys, access/refresh tokens and codes, clear account ids and emirates ids.
 * The mock's opaque values carry kind prefixes (mockAC_, mockAT_, mockRT_, mockGR_, mockCS_), so even a partial
 * leak of a token shows.
 */
import { chmodSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startMockBank } from '../../lib/mock/index.ts';
import type { MockBank } from '../../lib/mock/types.ts';
import { testPki } from '../../lib/pki/index.ts';
import { FullProfile } from '../../lib/profile/schema.ts';
import { parseResults } from '../../lib/report/json.ts';
import { mask } from '../../lib/mask/index.ts';
import { runCertify, type CertifyRun } from './run-certify.ts';
import { tempDirs } from '../fixtures/tmp.ts';

const tmp = tempDirs('redaction-');

let mock: MockBank;
let run: CertifyRun;
let out: string;
let profile: FullProfile;

function pemBody(pem: string): string[] {
  // distinctive chunks of the base64 body: any 40 characters of a key would identify it
  const body = pem
    .split('\n')
    .filter((l) => l && !l.startsWith('-----'))
    .join('');
  return [
    body.slice(0, 40),
    body.slice(Math.floor(body.length / 2), Math.floor(body.length / 2) + 40),
    body.slice(-40),
  ];
}

beforeAll(async () => {
  mock = await startMockBank({ mode: 'uat', pki: await testPki(), faults: ['mask-echo-clear-id'] });
  profile = FullProfile.parse(mock.profile('canary-uat'));
  const dir = tmp();
  const path = join(dir, 'canary-uat.json');
  writeFileSync(path, JSON.stringify(mock.profile('canary-uat')));
  chmodSync(path, 0o600);
  out = join(dir, 'out');
  run = await runCertify(['--profile', path, '--out', out]);
}, 600_000);

afterAll(async () => {
  await mock?.close();
});

describe('redaction (canary secrets)', () => {
  test('the run completed and the leaking fault was caught (the canaries really passed through the target)', () => {
    expect(run.code, run.stderr).toBe(1);
    const results = parseResults(readFileSync(join(out, 'results.json'), 'utf8'));
    const failed = results.profiles[0]!.results.filter((r) => r.verdict === 'fail').flatMap((r) => r.requirements);
    expect(failed).toContain('MASK-04');
  });

  test('no secret appears in any written file or in the console output', () => {
    const canaries: { what: string; value: string }[] = [];
    const clients = [profile.clients.code, profile.clients.partner, profile.clients.internal];
    for (const c of clients) {
      if (!c) continue;
      canaries.push({ what: `client secret of ${c.clientId}`, value: c.clientSecret });
      if (c.privateKey)
        for (const chunk of pemBody(c.privateKey))
          canaries.push({ what: `private key of ${c.clientId}`, value: chunk });
    }
    for (const n of Object.values(profile.tls?.negativeCertificates ?? {})) {
      if (n?.clientSecret) canaries.push({ what: `client secret of ${n.clientId}`, value: n.clientSecret });
      if (n?.privateKey)
        for (const chunk of pemBody(n.privateKey))
          canaries.push({ what: `private key of ${n.clientId}`, value: chunk });
    }
    for (const cu of profile.customers) {
      canaries.push({ what: `clear account id of ${cu.name}`, value: cu.accountId });
      if (cu.emiratesId) canaries.push({ what: `clear emirates id of ${cu.name}`, value: cu.emiratesId });
    }
    const prefixes = /mock(AC|AT|RT|GR|CS)_/;

    const texts: { where: string; text: string }[] = [
      { where: 'stdout', text: run.stdout },
      { where: 'stderr', text: run.stderr },
      ...readdirSync(out).map((f) => ({ where: f, text: readFileSync(join(out, f), 'utf8') })),
    ];
    expect(texts.map((t) => t.where)).toEqual(expect.arrayContaining(['junit.xml', 'report.html', 'results.json']));
    const leaks: string[] = [];
    for (const { where, text } of texts) {
      for (const c of canaries) if (text.includes(c.value)) leaks.push(`${where}: ${c.what}`);
      const m = prefixes.exec(text);
      if (m) leaks.push(`${where}: a token/code/secret (${m[0]}…) at offset ${m.index}`);
    }
    expect(leaks).toEqual([]);
  });

  test('MASK-04: the echoed clear id shows as a marker naming its customer, never as a mask that looks compliant', () => {
    const results = parseResults(readFileSync(join(out, 'results.json'), 'utf8'));
    const failed = results.profiles[0]!.results.filter(
      (r) => r.verdict === 'fail' && r.requirements.includes('MASK-04'),
    );
    expect(failed.length).toBeGreaterThan(0);
    const answers = failed.flatMap((r) =>
      r.evidence.exchanges.map((x) =>
        JSON.stringify([x.response ?? null, x.jose?.direction === 'response' ? x.jose : null]),
      ),
    );
    const names = profile.customers.map((c) => c.name).join('|');
    expect(answers.join('\n')).toMatch(new RegExp(`\\[clear account id of customer (${names})\\]`));
    for (const cu of profile.customers) for (const a of answers) expect(a).not.toContain(mask(cu.accountId));
  });
});
