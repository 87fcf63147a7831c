/**
 * The server certificate (TLS-05), read over a connection that does not verify it (lib/tls/server-cert.ts) and
 * judged: chains to the configured CA, matches the host, in date, key of at least 2048 bits. When certify's
 * tls-handshake prerequisite failed on the certificate, this check is not blocked by it: it judges that failure.
 */
import { Inconclusive, ensureValue } from '../../lib/engine/check.ts';
import type { CheckContext } from '../../lib/engine/session/context.ts';
import { caSubjects, inspectServerCertificate, serverCertificateProblems } from '../../lib/tls/server-cert.ts';
import { proxyCertificateReason } from '../../lib/tls/tunnel.ts';
import { endpointOf, probe } from './common.ts';

export async function expectServerCertificateValid(ctx: CheckContext): Promise<void> {
  const ep = endpointOf(ctx);
  // the registered certificate, when there is one: a target may ask for it in the handshake
  const id = ctx.identity('code');
  const cert = id?.certificate && id.privateKey ? { cert: id.certificate, key: id.privateKey } : {};
  const s = await probe(ctx, 'server certificate', () => inspectServerCertificate({ ...ep, ...cert }));
  ctx.tls(s.evidence);
  if (s.keyType === 'ec')
    ctx.note(`EC server key (${s.keyBits} bits) judged as at least 224 bits, equivalent to RSA 2048`);
  const problems = serverCertificateProblems(s, ep.ca);
  // through a proxy: a certificate not of the profile's CA may be the proxy's own (lib/tls/tunnel.ts), never failed
  const proxied =
    problems.length > 0
      ? proxyCertificateReason(ctx.proxy, {
          issuer: s.issuer,
          issuedByTargetCa: s.chainsToCa || caSubjects(ep.ca).includes(s.issuer),
        })
      : undefined;
  if (proxied) throw new Inconclusive(`the server certificate ${problems.join('; ')}; ${proxied}`);
  ensureValue(
    problems.length === 0,
    'server certificate',
    `the server certificate ${problems.join('; ')}`,
    'chains to the CA, matches the host, in date, key >= 2048 bits',
    `${s.subject} (issuer ${s.issuer}; SANs ${s.subjectAltName ?? 'none'}; valid ${s.validFrom} to ${s.validTo}; ${s.keyType} ${s.keyBits} bits)`,
  );
}
