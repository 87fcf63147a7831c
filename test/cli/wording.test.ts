/**
 * One word for one thing: a missing negative certificate is said the same way in the run (the check's not-run
 * reason), in --list and in the docs.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NotRun } from '../../lib/engine/check.ts';
import { identityOf } from '../../lib/engine/session/session.ts';
import { missingNegativeCertificate, missingNegativeCertificates } from '../../lib/engine/session/negative-certs.ts';
import type { FullProfile } from '../../lib/profile/schema.ts';
import { ROOT } from './run-certify.ts';

const uat = {
  environment: 'uat',
  tls: { caCertificate: 'ca', negativeCertificates: { expired: { certificate: 'c', privateKey: 'k' } } },
} as unknown as FullProfile;

describe('references in the examples', () => {
  it('the example profiles point to docs/contract.md (shared/spec is not in the package)', () => {
    for (const f of ['profiles/examples/real-uat.jsonc', 'profiles/examples/real-sandbox.jsonc']) {
      const text = readFileSync(join(ROOT, f), 'utf8');
      expect(text).not.toContain('shared/spec');
      expect(text).toContain('docs/contract.md');
    }
  });
});

describe('missing negative certificates', () => {
  it('the run: a check that needs one is not run, with the one wording (not inconclusive)', () => {
    let caught: unknown;
    try {
      identityOf(uat, 'weak1024');
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(NotRun);
    expect((caught as Error).message).toBe(missingNegativeCertificate('weak1024'));
    expect((caught as Error).message).toMatch(/^needs the negative certificate tls\.negativeCertificates\.weak1024 /);
  });

  it('--list names the missing ones; the docs use the same words', () => {
    expect(missingNegativeCertificates(uat)).toEqual(['weak1024', 'untrustedCa', 'unregistered']);
    expect(missingNegativeCertificates({ ...uat, environment: 'sandbox' } as FullProfile)).toEqual([]);
    const docs = ['README.md', 'profiles/README.md'].map((f) => readFileSync(join(ROOT, f), 'utf8')).join('\n');
    expect(docs).toMatch(/missing negative certificate/);
    expect(docs).not.toMatch(/no negative certificate in the profile/);
  });
});
