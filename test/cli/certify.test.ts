/** certify's exit codes, measured on real runs: 0 passed, 1 a check failed, 2 configuration error, 3 nothing ran. */
import { existsSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { notVerified, ROOT, runCertify } from './run-certify.ts';
import { parseResults } from '../../lib/report/json.ts';
import { verifyReport } from '../../lib/report/verify.ts';
import { generateKeyPairSync } from 'node:crypto';
import { tempDirs } from '../fixtures/tmp.ts';

const tmp = tempDirs('certify-test-');

describe.concurrent('certify exit codes', { timeout: 300_000 }, () => {
  test('2: an unknown option, before any traffic', async () => {
    const r = await runCertify(['--no-such-option']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no-such-option/);
  });

  test('2: a missing profile file names the file', async () => {
    const r = await runCertify(['--profile', 'profiles/does-not-exist.json', '--out', tmp()]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/does-not-exist\.json/);
  });

  test('2: a broken profile names the field, and no report is written', async () => {
    const dir = tmp();
    const p = join(dir, 'broken.json');
    writeFileSync(
      p,
      JSON.stringify({ name: 'broken', environment: 'uat', embedded: {}, contract: { quota: { perHour: -1 } } }),
    );
    const r = await runCertify(['--profile', p, '--out', join(dir, 'out')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/contract\.quota\.perHour/);
  });

  test('--list prints the requirement matrix and what would run, and exits 0 (from the sources, through tsx)', async () => {
    const r = await runCertify(
      ['--list', '--profile', 'profiles/mock-uat.json', '--only', 'TOK-06'],
      240_000,
      'scripts/certify.ts',
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Requirement matrix/);
    expect(r.stdout).toMatch(/TOK-06\s+MUST/);
    expect(r.stdout).toMatch(/would run\s+tokens\.access-token-expires/);
    expect(r.stdout).toMatch(/tokens\.code-single-use \(filtered out\)/);
  });

  test('the bundle the bin entry runs is rebuilt when one of its sources changes', async () => {
    const manifest = join(ROOT, 'node_modules', '.cache', 'openbank-conformance', 'certify', 'manifest.json');
    const first = await runCertify(['--list', '--only', 'QUOTA-01']);
    expect(first.code, first.stderr).toBe(0);
    const before = JSON.parse(readFileSync(manifest, 'utf8')) as { dir: string; inputs: Record<string, string> };
    expect(Object.keys(before.inputs)).toContain('lib/engine/run/select.ts');
    // a new modification time, same content: the next run must not reuse the build
    const source = join(ROOT, 'lib', 'engine', 'run', 'select.ts');
    const later = new Date(statSync(source).mtimeMs + 1000);
    utimesSync(source, later, later);
    const second = await runCertify(['--list', '--only', 'QUOTA-01']);
    expect(second.code, second.stderr).toBe(0);
    const after = JSON.parse(readFileSync(manifest, 'utf8')) as { dir: string; inputs: Record<string, string> };
    expect(after.dir).not.toBe(before.dir);
    expect(after.inputs['lib/engine/run/select.ts']).not.toBe(before.inputs['lib/engine/run/select.ts']);
    // zod's locales in the bundle: English alone (zod's default; the others are never used), every input a real file
    const built = join(dirname(manifest), after.dir);
    const code = readdirSync(built)
      .map((f) => readFileSync(join(built, f), 'utf8'))
      .join('\n');
    expect(code).toContain('// node_modules/zod/v4/locales/en.js');
    expect(code).not.toContain('// node_modules/zod/v4/locales/fr.js');
    for (const input of Object.keys(after.inputs)) expect(existsSync(join(ROOT, input)), input).toBe(true);
  });

  test('3: a filter that selects no check', async () => {
    const r = await runCertify(['--grep', 'no-check-is-named-like-this', '--out', tmp()]);
    expect(r.code).toBe(3);
  });

  test('3: selected checks that all do not apply (a UAT-only requirement on the sandbox profile)', async () => {
    const r = await runCertify(['--profile', 'profiles/mock-sandbox.json', '--only', 'TLS-01', '--out', tmp()]);
    expect(r.code).toBe(3);
  });

  test('5: a MUST left inconclusive and nothing failed is INCOMPLETE; waived with a reason, it is no longer INCOMPLETE', async () => {
    const dir = tmp();
    // creates answer 201 while the profile says 299: the positive control of JOSE-14 proves nothing -> inconclusive
    const doc = { name: 'odd-create', environment: 'uat', embedded: {}, contract: { statuses: { create: [299] } } };
    writeFileSync(join(dir, 'odd.json'), JSON.stringify(doc));
    const waiver = { id: 'JOSE-14', reason: 'this target answers creates with 299' };
    writeFileSync(join(dir, 'waived.json'), JSON.stringify({ ...doc, waivers: [waiver] }));
    const [odd, waived] = await Promise.all([
      runCertify(['--profile', join(dir, 'odd.json'), '--only', 'JOSE-14', '--out', join(dir, 'o1')]),
      runCertify(['--profile', join(dir, 'waived.json'), '--only', 'JOSE-14', '--out', join(dir, 'o2')]),
    ]);
    expect(odd.code, odd.stdout + odd.stderr).toBe(5);
    // JOSE-14's two checks: the fixed one and the tampered-envelopes property (JOSE-06/08/14)
    expect(odd.stdout).toMatch(/2 inconclusive — INCOMPLETE/);
    expect(odd.stdout).toMatch(/Not verified \(2\):\n/);
    expect(odd.stdout).toMatch(/\n {2}odd-create {2}JOSE-14 +inconclusive +\S[^[]+\[jose\.refusal-no-side-effect\]/);
    // the only check is waived: nothing was verified, so NOTHING RAN (3), said with the waiver, never PASS
    expect(waived.code, waived.stdout + waived.stderr).toBe(3);
    expect(waived.stdout).toMatch(/2 waived — NOTHING RAN/);
    expect(waived.stdout).toMatch(/Waived by the profile \(2\)/);
    const results = parseResults(readFileSync(join(dir, 'o2', 'results.json'), 'utf8'));
    expect(results.profiles[0]!.results[0]!.waived).toBe(waiver.reason);
  });

  test('0: a clean suite passes; the reports are written, results.json signed with the operator key of the profile', async () => {
    const dir = tmp();
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    writeFileSync(join(dir, 'operator.key'), privateKey.export({ type: 'pkcs8', format: 'pem' }));
    const p = join(dir, 'signed.json');
    writeFileSync(
      p,
      JSON.stringify({
        name: 'signed-sandbox',
        environment: 'sandbox',
        embedded: {},
        report: { signingKey: 'file:operator.key', signingKid: 'operator-1' },
      }),
    );
    const out = join(dir, 'out');
    const r = await runCertify(['--profile', p, '--suite', 'errors', '--out', out]);
    expect(r.code, `${notVerified(out)}\n${r.stdout}${r.stderr}`).toBe(0);
    const results = parseResults(readFileSync(join(out, 'results.json'), 'utf8'));
    expect(results.profiles[0]!.results.filter((c) => c.verdict === 'pass').length).toBeGreaterThan(0);
    expect(readFileSync(join(out, 'junit.xml'), 'utf8')).toMatch(/<testsuites/);
    const keyPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const ok = await verifyReport({
      resultsPath: join(out, 'results.json'),
      jwsPath: join(out, 'results.json.jws'),
      keyPem,
      htmlPath: join(out, 'report.html'),
    });
    expect(ok.ok, JSON.stringify(ok.steps)).toBe(true);
    // one changed byte of the archived results is detected
    writeFileSync(
      join(out, 'results.json'),
      readFileSync(join(out, 'results.json'), 'utf8').replace('"pass"', '"fail"'),
    );
    const tampered = await verifyReport({
      resultsPath: join(out, 'results.json'),
      jwsPath: join(out, 'results.json.jws'),
      keyPem,
    });
    expect(tampered.ok).toBe(false);
  });

  test('1: a faulty mock fails the broken requirement, with expected vs observed and evidence in every report', async () => {
    const dir = tmp();
    const p = join(dir, 'faulty.json');
    writeFileSync(
      p,
      JSON.stringify({ name: 'faulty-sandbox', environment: 'sandbox', embedded: { faults: ['get-no-status'] } }),
    );
    const out = join(dir, 'out');
    const r = await runCertify(['--profile', p, '--suite', 'transfers', '--out', out]);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    const results = parseResults(readFileSync(join(out, 'results.json'), 'utf8'));
    const failed = results.profiles[0]!.results.filter((c) => c.verdict === 'fail');
    expect(failed.map((c) => c.requirements).flat()).toContain('XFER-04');
    const f = failed.find((c) => c.requirements.includes('XFER-04'))!;
    expect(f.expected).toBeDefined();
    expect(f.observed).toBeDefined();
    expect(f.evidence.exchanges.length).toBeGreaterThan(0);
    expect(results.profiles[0]!.target.faults).toEqual(['get-no-status']);
    const junit = readFileSync(join(out, 'junit.xml'), 'utf8');
    expect(junit).toMatch(/<failure[^>]*>[^<]*XFER-04|XFER-04[^"]*"[^>]*>\s*<failure/);
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).toContain('get-no-status');
  });
});
