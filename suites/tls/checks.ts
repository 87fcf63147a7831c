/**
 * Transport rules (specification §5.2, §5.3), UAT only (the catalogue decides). Handshake-level facts come from lib/tls
 * (node:tls, so refusals keep their reasons); every probe's TLS facts go to ctx.tls(). A probe that could not reach
 * the target, or asked for something this client cannot offer, is inconclusive. One file per concern: common.ts
 * (endpoint, TLS 1.2 control), client-certs.ts (TLS-02..04), server-cert.ts (TLS-05), source-address.ts (TLS-06),
 * ciphers.ts (TLS-09).
 */
import { defineSuite, ensureValue } from '../../lib/engine/check.ts';
import { probeProtocol, type TlsVersion } from '../../lib/tls/probe.ts';
import { expectCallWithoutCertificateRefused, expectCertificateRefused } from './client-certs.ts';
import { codeCert, endpointOf, expectTls12, probe } from './common.ts';
import { expectWeakCiphersRefused } from './ciphers.ts';
import { expectServerCertificateValid } from './server-cert.ts';
import { expectOtherSourceRefused } from './source-address.ts';

export const suite = defineSuite('tls', [
  {
    name: 'tls12-accepted',
    requirements: ['TLS-01'],
    title: 'a TLS 1.2 handshake succeeds',
    async run(ctx) {
      await expectTls12(ctx, endpointOf(ctx), false);
      // TLS 1.3 is allowed ("1.2 and higher"): reported, not judged
      const t13 = await probe(ctx, 'TLS 1.3 probe', () =>
        probeProtocol({ ...endpointOf(ctx), ...codeCert(ctx), version: 'TLSv1.3' }),
      ).catch((e: unknown) => {
        ctx.note(`TLS 1.3 not probed: ${e instanceof Error ? e.message : String(e)}`);
        return undefined;
      });
      if (t13) ctx.note(`TLS 1.3 ${t13.accepted ? 'accepted' : `refused (${t13.error ?? ''})`} (allowed either way)`);
    },
  },
  {
    name: 'tls10-tls11-refused',
    requirements: ['TLS-01'],
    title: 'TLS 1.0 and TLS 1.1 handshakes are refused',
    async run(ctx) {
      const ep = endpointOf(ctx);
      await expectTls12(ctx, ep, true);
      const accepted: string[] = [];
      for (const version of ['TLSv1', 'TLSv1.1'] as const satisfies readonly TlsVersion[]) {
        // probeProtocol offers the version with SECLEVEL=0, so "refused" is the server's answer, not this client's limit
        const r = await probe(ctx, `${version} probe`, () => probeProtocol({ ...ep, ...codeCert(ctx), version }));
        ctx.tls(r.evidence);
        if (r.accepted) accepted.push(`${version} (${r.evidence.cipher ?? '?'})`);
        else ctx.note(`${version} refused: ${r.error ?? ''}`);
      }
      ensureValue(
        accepted.length === 0,
        'TLS versions accepted',
        `legacy protocol versions were accepted: ${accepted.join(', ')}`,
        'TLS 1.0 and 1.1 refused',
        accepted,
      );
    },
  },
  {
    name: 'client-certificate-required',
    requirements: ['TLS-02'],
    title: 'a transfers call without a client certificate is refused (handshake, connection or 401/403)',
    run: expectCallWithoutCertificateRefused,
  },
  {
    name: 'weak-client-key-refused',
    requirements: ['TLS-03'],
    title: 'a client certificate with a 1024-bit RSA key, registered to its client id, is refused',
    run: (ctx) => expectCertificateRefused(ctx, 'weak1024'),
  },
  {
    name: 'expired-client-certificate-refused',
    requirements: ['TLS-04'],
    title: 'an expired client certificate, registered to its client id, is refused',
    run: (ctx) => expectCertificateRefused(ctx, 'expired'),
  },
  {
    name: 'untrusted-ca-client-certificate-refused',
    requirements: ['TLS-04'],
    title: 'a client certificate from a CA the bank does not trust, registered to its client id, is refused',
    run: (ctx) => expectCertificateRefused(ctx, 'untrustedCa'),
  },
  {
    name: 'unregistered-client-certificate-refused',
    requirements: ['TLS-04'],
    title: "a trusted client certificate that is not the one registered for the client id (the partner's) is refused",
    run: (ctx) => expectCertificateRefused(ctx, 'unregistered'),
  },
  {
    name: 'server-certificate-valid',
    requirements: ['TLS-05'],
    title:
      'the server certificate chains to the configured CA, matches the host, is in date and has a key of at least 2048 bits',
    // no HTTP needed; and a handshake refused for the certificate is this check's to judge (PrerequisiteBoard.rule)
    prerequisites: ['tls-handshake'],
    run: expectServerCertificateValid,
  },
  {
    name: 'source-address-allow-list',
    requirements: ['TLS-06'],
    title:
      'a call from a source address outside the allow-list is refused, while the same call from the allowed address is answered',
    run: expectOtherSourceRefused,
  },
  {
    name: 'weak-cipher-suites-refused',
    requirements: ['TLS-09'],
    title: 'TLS 1.2 handshakes offering only NULL, EXPORT, RC4, 3DES or anonymous suites are refused',
    run: expectWeakCiphersRefused,
  },
]);
