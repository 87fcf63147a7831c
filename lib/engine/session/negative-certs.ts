/**
 * Negative certificates: client certificates the bank registered for the negative mutual-TLS checks
 * (profile tls.negativeCertificates). One wording for a missing one, in the run (the check's not-run reason), in
 * --list and in the docs.
 */
import type { FullProfile } from '../../profile/schema.ts';
import type { NegativeCert } from './context.ts';

const NEGATIVE_CERTS: readonly NegativeCert[] = ['weak1024', 'expired', 'untrustedCa', 'unregistered'];

export function missingNegativeCertificate(who: NegativeCert): string {
  return `needs the negative certificate tls.negativeCertificates.${who} in the profile (a client certificate the bank registered for the negative mutual-TLS checks)`;
}

/** the negative certificates a UAT profile does not give (their checks will be not run) */
export function missingNegativeCertificates(profile: FullProfile): NegativeCert[] {
  if (profile.environment !== 'uat') return [];
  return NEGATIVE_CERTS.filter((n) => !profile.tls?.negativeCertificates[n]);
}
