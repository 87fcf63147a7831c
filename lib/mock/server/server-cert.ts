/**
 * The mock's TLS server certificate: the PKI's own, or, under a server-cert-* fault, a variant that breaks TLS-05
 * one way (lib/pki/server-variants.ts), built when the fault is first switched on and kept.
 */
import { serverCertificateVariant, type ServerCertificateVariant } from '../../pki/server-variants.ts';
import type { TestPki } from '../../pki/types.ts';

const VARIANT_OF_FAULT: Readonly<Record<string, ServerCertificateVariant>> = {
  'server-cert-weak-key': 'weak-key',
  'server-cert-wrong-host': 'wrong-host',
  'server-cert-unknown-ca': 'unknown-ca',
  'server-cert-expired': 'expired',
  'server-cert-not-yet-valid': 'not-yet-valid',
};

export function serverCertificate(
  pki: TestPki,
  faults: { on(id: string): boolean },
  built: Map<string, { cert: string; key: string }>,
): { cert: string; key: string } {
  const fault = Object.keys(VARIANT_OF_FAULT).find((id) => faults.on(id));
  if (!fault) return { cert: pki.server.certPem, key: pki.server.privateKeyPem };
  let c = built.get(fault);
  if (!c) built.set(fault, (c = serverCertificateVariant(pki, VARIANT_OF_FAULT[fault]!)));
  return c;
}
