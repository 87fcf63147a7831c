/** Evidence that tells calls apart without a secret: token fingerprints, and the inner JWS header of a sealed request. */
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { tokenFingerprint } from '../../lib/engine/session.ts';
import { craftJwe, craftJws } from '../../lib/jose/craft.ts';
import { innerHeadersOf } from '../../lib/jose/sent.ts';
import { scrubResults } from '../../lib/report/scrub.ts';
import { fixtureResults } from '../fixtures/results.ts';

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
  it('a JWE the harness built remembers the JWS header inside it (alg none), never its payload', () => {
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
    expect(innerHeadersOf({ ...(jwe as object) })).toBeUndefined(); // only the envelope it returned
  });
});
