/** Evidence that tells calls apart without a secret: token fingerprints, and the inner JWS header of a sealed request. */
import { spawnSync } from 'node:child_process';
import { createHash, generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { tokenFingerprint } from '../../lib/engine/session/session.ts';
import { craftJwe, craftJws } from '../../lib/jose/craft.ts';
import { innerHeadersOf, sealedPayloadOf } from '../../lib/jose/sent.ts';
import { scrubResults } from '../../lib/report/scrub.ts';
import { fixtureResults } from '../fixtures/results.ts';
import { runOn } from '../fixtures/run.ts';
import { startMockBank } from '../../lib/mock/index.ts';
import { testPki } from '../../lib/pki/index.ts';
import { FullProfile } from '../../lib/profile/schema.ts';
import { defaultRunOptions } from '../../lib/engine/run/runner.ts';
import { allChecks } from '../../suites/index.ts';

describe('token fingerprints', () => {
  it('a short SHA-256 prefix per token: two tokens differ, the token itself never shows', () => {
    const a = tokenFingerprint({ Authorization: 'Bearer mockAT_customer-one-token' });
    const b = tokenFingerprint({ authorization: 'Bearer mockAT_customer-two-token' });
    expect(a).toMatch(/^sha256:[0-9a-f]{12}$/);
    expect(a).not.toBe(b);
    expect(tokenFingerprint({ authorization: 'Basic Y2xpZW50OnNlY3JldA==' })).toBeUndefined();
    expect(tokenFingerprint({})).toBeUndefined();
  });

  it('the report scrubber keeps the fingerprint and still redacts whatever precedes it', () => {
    const r = fixtureResults();
    const x = r.profiles[1]!.results.find((c) => c.evidence.exchanges.length > 0)!.evidence.exchanges[0]!;
    x.request.headers.authorization = 'Bearer [REDACTED:token] (token sha256:0123456789ab)';
    x.request.headers['proxy-authorization'] = 'Bearer leaked-clear-token (token sha256:0123456789ab)';
    const clean = scrubResults(r).profiles[1]!.results.find((c) => c.evidence.exchanges.length > 0)!.evidence
      .exchanges[0]!.request.headers;
    expect(clean.authorization).toBe('Bearer [redacted] (token sha256:0123456789ab)');
    expect(clean['proxy-authorization']).toBe('Bearer [redacted] (token sha256:0123456789ab)');
  });
});

describe('sealed requests', () => {
  it('a JWE the harness built remembers the JWS header inside it (alg none), its payload apart from it', () => {
    const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const jws = craftJws({
      payload: JSON.stringify({ amount: 'secret-looking-payload' }),
      protectedHeader: { alg: 'none' },
      signer: { kind: 'none' },
      form: 'general',
    });
    const jwe = craftJwe({
      plaintext: JSON.stringify(jws),
      recipientPublicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      alg: 'RSA-OAEP-256',
      enc: 'A256CBC-HS512',
      form: 'general',
    });
    expect(innerHeadersOf(jwe)).toEqual([{ alg: 'none' }]);
    expect(JSON.stringify(innerHeadersOf(jwe))).not.toContain('secret-looking-payload');
    // the same envelope in any form it is sent (a copy, its JSON text), for a run's HAR; never another one
    expect(innerHeadersOf({ ...(jwe as object) })).toEqual([{ alg: 'none' }]);
    expect(innerHeadersOf(JSON.stringify(jwe))).toEqual([{ alg: 'none' }]);
    expect(innerHeadersOf({ ...(jwe as object), tag: 'AAAA' })).toBeUndefined();
    // its payload is remembered apart, for the HAR's comment (redacted there like any body)
    expect(sealedPayloadOf(JSON.stringify(jwe))).toBe(JSON.stringify({ amount: 'secret-looking-payload' }));
  });
});

describe('sealed exchanges in the evidence of a UAT run', () => {
  it('a sealed response shows its inner JWS header and the fingerprint of the key that verified it; a sealed request the plaintext sealed, redacted', async () => {
    const mock = await startMockBank({ mode: 'uat', pki: await testPki() });
    try {
      const profile = FullProfile.parse(mock.profile('sealed-evidence'));
      const checks = allChecks.filter((c) => c.requirements.includes('XFER-01'));
      const [result] = await runOn(profile, { ...defaultRunOptions, embedded: true }, checks);
      expect(result?.verdict, result?.reason).toBe('pass');
      const exchanges = result!.evidence.exchanges;
      const answered = exchanges.find((x) => x.jose?.direction === 'response' && x.jose.verifiedWith);
      expect(answered, JSON.stringify(exchanges.map((x) => x.jose))).toBeDefined();
      expect(answered!.jose!.innerHeader).toMatchObject({ alg: expect.stringMatching(/^(RS|PS|ES)\d+$/) });
      // the fingerprint a reviewer computes with openssl from the bank's public key in the profile
      const pem = profile.bank.apiPublicKey!;
      const spki = pem.includes('CERTIFICATE')
        ? spawnSync('openssl', ['x509', '-pubkey', '-noout'], { input: pem }).stdout
        : pem;
      const der = spawnSync('openssl', ['pkey', '-pubin', '-outform', 'DER'], { input: spki });
      expect(der.stdout.length, der.stderr.toString()).toBeGreaterThan(100);
      const expected = createHash('sha256').update(der.stdout).digest('hex');
      expect(answered!.jose!.verifiedWith).toBe(`SHA-256 of the SPKI ${expected}`);
      // the request's plaintext: readable, and a clear id in it would be a marker (the harness sends masked ids)
      const sealed = exchanges.find((x) => x.sealedPlaintext !== undefined);
      expect(sealed?.sealedPlaintext).toMatch(/"amount"/);
      for (const cu of profile.customers) expect(sealed!.sealedPlaintext).not.toContain(cu.accountId);
      expect(sealed!.request.body).toMatch(/^<JWE general/);
    } finally {
      await mock.close();
    }
  }, 60_000);
});
