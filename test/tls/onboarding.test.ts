import { X509Certificate } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { testPki } from '../../lib/pki/index.ts';
import type { Issued, TestPki } from '../../lib/pki/types.ts';
import { checkOnboardingCertificate, ddmmyyUtc } from '../../lib/tls/onboarding.ts';

let pki: TestPki;
beforeAll(async () => {
  pki = await testPki();
}, 60_000);

const der = (i: Issued) => Buffer.from(new X509Certificate(i.certPem).raw);
const pem = (i: Issued) => Buffer.from(i.certPem);
const goodName = (i: Issued) => `${i.subjectCN}_PublicKey_${ddmmyyUtc(i.notAfter)}.cer`;

describe('checkOnboardingCertificate (TLS-07)', () => {
  it('ddmmyyUtc uses the UTC calendar date', () => {
    expect(ddmmyyUtc(new Date('2027-03-05T23:30:00Z'))).toBe('050327');
    expect(ddmmyyUtc(new Date('2027-03-05T23:30:00-05:00'))).toBe('060327');
  });

  it('accepts a correctly named 2048-bit certificate, DER or PEM, with a directory in the path', () => {
    const c = pki.clients.code;
    for (const contents of [der(c), pem(c)]) {
      const r = checkOnboardingCertificate(`/uploads/${goodName(c)}`, contents);
      expect(r).toMatchObject({ ok: true, cn: 'fintech-app-001', keyBits: 2048, problems: [] });
      expect(r.expiry).toBe(new Date(new X509Certificate(c.certPem).validTo).toISOString());
      expect(r.expectedFileName).toBe(goodName(c));
    }
  });

  it('refuses a wrong CN', () => {
    const c = pki.clients.code;
    const r = checkOnboardingCertificate(`partner-inst-001_PublicKey_${ddmmyyUtc(c.notAfter)}.cer`, der(c));
    expect(r.ok).toBe(false);
    expect(r.problems).toEqual([
      expect.stringMatching(/CN in file name "partner-inst-001" does not match certificate CN "fintech-app-001"/),
    ]);
  });

  it('refuses a wrong date', () => {
    const c = pki.clients.partner;
    const wrong = ddmmyyUtc(new Date(c.notAfter.getTime() + 24 * 3600 * 1000));
    const r = checkOnboardingCertificate(`${c.subjectCN}_PublicKey_${wrong}.cer`, der(c));
    expect(r.ok).toBe(false);
    expect(r.problems).toEqual([
      expect.stringMatching(/expiry in file name \d{6} does not match certificate expiry \d{6} \(DDMMYY, UTC/),
    ]);
  });

  it('refuses a 1024-bit key even when correctly named', () => {
    const c = pki.negative.weak1024;
    const r = checkOnboardingCertificate(goodName(c), pem(c));
    expect(r).toMatchObject({ ok: false, keyBits: 1024, cn: 'weak-client-001' });
    expect(r.problems).toEqual([expect.stringMatching(/1024 bits, at least 2048 required/)]);
  });

  it('refuses garbage contents', () => {
    const r = checkOnboardingCertificate('fintech-app-001_PublicKey_010127.cer', Buffer.from('not a certificate'));
    expect(r.ok).toBe(false);
    expect(r.problems).toEqual(['contents are not an X.509 certificate (DER or PEM)']);
  });

  it('refuses a name that does not follow the pattern', () => {
    const c = pki.clients.internal;
    for (const name of [
      `${c.subjectCN}.cer`,
      `${c.subjectCN}_PublicKey_${ddmmyyUtc(c.notAfter)}.pem`,
      `${c.subjectCN}_publickey_${ddmmyyUtc(c.notAfter)}.cer`,
    ]) {
      const r = checkOnboardingCertificate(name, der(c));
      expect(r.ok, name).toBe(false);
      expect(r.problems[0]).toMatch(/does not follow \{CN\}_PublicKey_\{DDMMYY\}\.cer/);
    }
  });
});
