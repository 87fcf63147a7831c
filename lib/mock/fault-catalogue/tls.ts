/**
 * The faults of the transport (UAT): TLS versions and ciphers, client certificates, the server certificate, the
 * source address allow-list (TLS-01..06, TLS-09).
 */
import type { FaultDefinition } from '../types.ts';
import { f, U } from './define.ts';

export const TLS_FAULTS: readonly FaultDefinition[] = [
  f('tls-accept-tls1_1', ['TLS-01'], U, 'the server accepts TLS 1.0 and 1.1 (SECLEVEL=0)'),
  f('mtls-optional', ['TLS-02', 'OAS-07'], U, 'a client certificate is not required'),
  f('accept-weak-client-key', ['TLS-03'], U, 'client certificates with RSA keys under 2048 bits are accepted'),
  f('accept-expired-client-cert', ['TLS-04'], U, 'expired client certificates are accepted'),
  f('accept-untrusted-ca', ['TLS-04'], U, 'client certificates from an untrusted CA are accepted'),
  f('cert-not-bound-to-client', ['TLS-04'], U, 'any trusted client certificate is accepted for any client id'),
  f(
    'server-cert-weak-key',
    ['TLS-05'],
    U,
    'the server certificate (right host, in date, bank CA) has a 1536-bit RSA key',
  ),
  // a server certificate a verifying client refuses: TLS-05 fails, the checks that need the connection are blocked
  f(
    'server-cert-wrong-host',
    ['TLS-05'],
    U,
    'the server certificate names another host (CN and SAN bank.invalid; bank CA, in date, 2048 bits)',
  ),
  f('server-cert-unknown-ca', ['TLS-05'], U, 'the server certificate is issued by a CA the client was not given'),
  f('server-cert-expired', ['TLS-05'], U, 'the server certificate expired yesterday (right host, bank CA)'),
  f('server-cert-not-yet-valid', ['TLS-05'], U, 'the server certificate becomes valid tomorrow (right host, bank CA)'),
  f('allow-list-off', ['TLS-06'], U, 'calls from any source address are accepted'),
  f('tls-weak-ciphers', ['TLS-09'], U, 'the server offers anonymous and other weak TLS 1.2 cipher suites'),
  // a fault for a check no other fault made fail
  f('tls12-refused', ['TLS-01'], U, 'the server accepts TLS 1.3 only (a TLS 1.2 handshake is refused)'),
];
