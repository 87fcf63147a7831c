/**
 * A server certificate that fails verification is a TLS-05 failure, not an unreachable target (TLS-05):
 * certify against the UAT mock with each server-cert-* fault ends FAIL (exit 1), TLS-05 fails with the reason and
 * the presented certificate in its evidence, the checks that need the connection are blocked naming TLS-05, and the
 * run is not UNREACHABLE. A profile whose tls.caCertificate is the wrong file gives the same handshake error: the
 * reason names the presented issuer beside the configured CA's subject.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { certify } from '../../lib/engine/run/certify.ts';
import { prepare, type PreparedTarget } from '../../lib/engine/run/prepare.ts';
import { establishPrerequisites } from '../../lib/engine/session/prerequisites.ts';
import type { ProfileRun } from '../../lib/engine/results.ts';
import { runChecks } from '../../lib/engine/run/runner.ts';
import { createSession } from '../../lib/engine/session/session.ts';
import { profileVerdict } from '../../lib/engine/verdict.ts';
import { testPki } from '../../lib/pki/index.ts';
import { loadProfile } from '../../lib/profile/load.ts';
import { readResults } from '../../lib/report/json.ts';
import { writeReports } from '../../lib/report/write.ts';
import { ROOT } from '../../lib/root.ts';
import { allChecks } from '../../suites/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'server-cert-'));

/** fault → what the reason must say (the certificate's defect) */
const FAULTS: Record<string, RegExp> = {
  'server-cert-wrong-host': /does not match 127\.0\.0\.1 \(SANs DNS:bank\.invalid\)/,
  'server-cert-unknown-ca':
    /does not chain to the configured CA .*issued by "CN=Untrusted Test CA.*tls\.caCertificate is "CN=Test Bank Root CA/,
  'server-cert-expired': /has expired \(valid /,
  'server-cert-not-yet-valid': /is not yet valid \(valid /,
};

function profileWith(fault: string): string {
  const path = join(dir, `${fault}.json`);
  writeFileSync(path, JSON.stringify({ name: fault, environment: 'uat', embedded: { faults: [fault] } }));
  return path;
}

describe('a server certificate that fails verification (certify, UAT mock)', () => {
  let runs: ProfileRun[] = [];
  let exitCode: number | undefined;
  beforeAll(async () => {
    const outcome = await certify({
      checks: allChecks,
      profiles: Object.keys(FAULTS).map(profileWith),
      suites: [],
      // TLS-05, a check on another TLS rule, and one API check: enough to see who fails and who is blocked
      only: ['TLS-05', 'TLS-01', 'XFER-01'],
      long: false,
      destructive: false,
      failOn: 'must',
    });
    exitCode = outcome.exitCode;
    // the reports are written and read back: the certificate evidence passes the results schema
    const written = await writeReports(outcome.results!, join(dir, 'reports'), {});
    runs = readResults(written.json).profiles;
  }, 120_000);

  test('the run is FAIL (exit 1), not UNREACHABLE', () => {
    expect(exitCode).toBe(1);
    for (const run of runs) {
      expect(run.unreachable, run.profile).toBeUndefined();
      expect(profileVerdict(run, 'must'), run.profile).toBe('FAIL');
    }
  });

  for (const [fault, defect] of Object.entries(FAULTS)) {
    test(`${fault}: TLS-05 fails with the presented certificate, the others are blocked naming TLS-05`, () => {
      const run = runs.find((r) => r.profile === fault)!;
      const handshake = run.prerequisites!.find((q) => q.id === 'tls-handshake')!;
      expect(handshake.verdict).toBe('fail');
      expect(handshake.reason).toMatch(/^the server certificate fails TLS-05: it /);
      expect(handshake.reason).toMatch(defect);

      const tls05 = run.results.find((r) => r.requirements.includes('TLS-05'))!;
      expect(tls05.verdict, tls05.reason).toBe('fail');
      expect(tls05.blockedBy).toBeUndefined();
      expect(tls05.reason).toMatch(defect);
      const cert = tls05.evidence.tls.find((t) => t.label === 'server certificate')?.peerCertificate;
      expect(cert).toMatchObject({
        subject: expect.stringMatching(/CN=/),
        issuer: expect.stringMatching(/CN=/),
        subjectAltName: expect.stringMatching(/DNS:/),
        keyType: 'rsa',
        keyBits: 2048,
      });
      expect(cert!.chain!.length).toBeGreaterThan(0);
      expect(cert!.chain![0]!.sha256).toBe(cert!.sha256);

      const others = run.results.filter((r) => !r.requirements.includes('TLS-05') && r.verdict !== 'not-applicable');
      expect(others.length).toBeGreaterThan(0);
      for (const r of others) {
        expect(r, r.checkId).toMatchObject({ verdict: 'inconclusive', blockedBy: 'tls-handshake' });
        expect(r.reason).toMatch(/blocked by prerequisite tls-handshake: the server certificate fails TLS-05/);
        expect(r.evidence.exchanges).toEqual([]);
      }
    });
  }
});

describe('the profile names the wrong CA file', () => {
  let prepared: PreparedTarget;
  beforeAll(async () => {
    prepared = await prepare(await loadProfile(`${ROOT}/profiles/mock-uat.json`));
  });
  afterAll(async () => {
    await prepared.close();
  });

  test('tls-handshake and TLS-05 fail naming the presented issuer and the configured CA, not unreachable', async () => {
    const wrongCa = (await testPki()).partnerCa.certPem;
    const p = prepared.runtime.profile;
    const runtime = { ...prepared.runtime, profile: { ...p, tls: { ...p.tls!, caCertificate: wrongCa } } };
    const session = await createSession(runtime);
    try {
      const establishing = establishPrerequisites(session, session.prerequisites);
      const tls05 = allChecks.filter((c) => c.requirements.includes('TLS-05'));
      const [results, est] = await Promise.all([runChecks(tls05, session, runtime.options), establishing]);
      expect(est.unreachable).toBeUndefined();
      const handshake = est.results.find((q) => q.id === 'tls-handshake')!;
      const bothReadings =
        /issued by "CN=Test Bank Root CA.*tls\.caCertificate is "CN=Test Partner Client CA.*either the target presents a certificate from another CA, or tls\.caCertificate is not the CA/;
      expect(handshake.reason).toMatch(bothReadings);
      expect(results[0]).toMatchObject({ verdict: 'fail' });
      expect(results[0]!.reason).toMatch(bothReadings);
    } finally {
      await session.close();
    }
  });
});
