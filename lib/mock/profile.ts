/** The full profile that describes a running mock (MockBank.profile()): the harness needs nothing else. */
import type { FullProfileInput } from '../profile/schema.ts';
import type { MockContext } from './context.ts';
import { REDIRECT_URI } from './data.ts';
import { PATHS, transfersBasepath } from './server.ts';

export function describe(
  ctx: MockContext,
  name: string,
  url: string,
  adminUrl: string,
  planPerHour?: number,
): FullProfileInput {
  const { pki, data } = ctx;
  const client = (id: string) => data.clients.get(id)!;
  const uat = ctx.mode === 'uat';
  const certOf = (id: string) =>
    uat ? { certificate: client(id).cert.certPem, privateKey: client(id).cert.privateKeyPem } : {};
  const [alice] = data.customers;
  return {
    name,
    description: `embedded mock bank (${ctx.mode})`,
    environment: ctx.mode,
    contract: {
      tokens: { accessTokenSeconds: ctx.limits.accessTokenSeconds, codeSeconds: ctx.limits.codeSeconds },
      ...(planPerHour !== undefined ? { quota: { planPerHour } } : {}),
      ...(Number.isFinite(ctx.maxBodyBytes) ? { maxRequestBytes: ctx.maxBodyBytes } : {}),
    },
    target: {
      baseUrl: url,
      paths: {
        transfersBasepath: transfersBasepath(ctx),
        validate: '/transfers/validate',
        transfer: '/transfers/{transfer_id}',
        authorize: PATHS.authorize,
        token: PATHS.token,
        partnerToken: PATHS.partnerToken,
        internalToken: PATHS.internalToken,
      },
      clock: `${adminUrl}/clock`,
      consent: ctx.autoConsent ? { mode: 'auto' } : { mode: 'manual' },
    },
    bank: { apiPublicKey: pki.bankApi.certPem },
    ...(uat ? { tls: tlsSection(ctx) } : {}),
    clients: {
      code: {
        clientId: 'fintech-app-001',
        clientSecret: client('fintech-app-001').secret,
        ...certOf('fintech-app-001'),
        redirectUri: REDIRECT_URI,
        scope: 'transfers',
      },
      partner: {
        clientId: 'partner-inst-001',
        clientSecret: client('partner-inst-001').secret,
        ...certOf('partner-inst-001'),
        tokenEndpoint: 'partner',
        scope: 'transfers',
        oauthMetadata: { account_id: alice!.accountId },
      },
      internal: {
        clientId: 'internal-app-001',
        clientSecret: client('internal-app-001').secret,
        ...certOf('internal-app-001'),
        tokenEndpoint: 'internal',
        scope: 'transfers',
        oauthMetadata: { emirates_id: alice!.emiratesId },
      },
    },
    customers: data.customers.map((c) => ({
      name: c.name,
      uuid: c.uuid,
      accountId: c.accountId,
      emiratesId: c.emiratesId,
      beneficiaryId: c.beneficiaries[0]!,
      workflow: c.workflow,
    })),
  };
}

/** UAT: the bank CA, the allow-listed and a disallowed source address, the negative client certificates */
function tlsSection(ctx: MockContext): NonNullable<FullProfileInput['tls']> {
  const { pki, data } = ctx;
  const neg = (id: string) => {
    const c = data.clients.get(id)!;
    return { certificate: c.cert.certPem, privateKey: c.cert.privateKeyPem, clientId: id, clientSecret: c.secret };
  };
  return {
    caCertificate: pki.bankCa.certPem,
    allowedSourceAddress: '127.0.0.1',
    disallowedSourceAddress: '127.0.0.2',
    negativeCertificates: {
      weak1024: neg('weak-client-001'),
      expired: neg('expired-client-001'),
      untrustedCa: neg('untrusted-client-001'),
      unregistered: {
        certificate: pki.negative.unregistered.certPem,
        privateKey: pki.negative.unregistered.privateKeyPem,
      },
    },
  };
}
