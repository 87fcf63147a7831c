/** The full profile that describes a running mock (MockBank.profile()): the harness needs nothing else. */
import type { FullProfileInput } from '../profile/schema.ts';
import type { MockContext } from './context.ts';
import { CLIENT_IDS, REDIRECT_URI } from './data.ts';
import { RESOURCE_SERVER_ID } from './oauth/resource-server.ts';
import { PATHS, transfersBasepath } from './server/server.ts';

/** UAT: the CA, the source addresses and the negative certificates the mock registered */
function tlsOf(ctx: MockContext): Pick<FullProfileInput, 'tls'> {
  const { pki, data } = ctx;
  if (ctx.mode !== 'uat') return {};
  const client = (id: string) => data.clients.get(id)!;
  const neg = (id: string) => ({
    certificate: client(id).cert.certPem,
    privateKey: client(id).cert.privateKeyPem,
    clientId: id,
    clientSecret: client(id).secret,
  });
  return {
    tls: {
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
    },
  };
}

/** the three registered clients (with their mutual-TLS certificates in UAT) */
function clientsOf(ctx: MockContext): FullProfileInput['clients'] {
  const { data } = ctx;
  const client = (id: string) => data.clients.get(id)!;
  const certOf = (id: string) =>
    ctx.mode === 'uat' ? { certificate: client(id).cert.certPem, privateKey: client(id).cert.privateKeyPem } : {};
  const [alice] = data.customers;
  // one client id for every grant (MockOptions.oneClient): the code client's
  const idOf = (role: keyof typeof CLIENT_IDS): string =>
    data.clients.has(CLIENT_IDS[role]) ? CLIENT_IDS[role] : CLIENT_IDS.code;
  const as = (role: keyof typeof CLIENT_IDS) => ({
    clientId: idOf(role),
    clientSecret: client(idOf(role)).secret,
    ...certOf(idOf(role)),
  });
  return {
    code: { ...as('code'), redirectUri: REDIRECT_URI, scope: 'transfers' },
    partner: {
      ...as('partner'),
      tokenEndpoint: 'partner',
      scope: 'transfers',
      oauthMetadata: { account_id: alice!.accountId },
    },
    internal: {
      ...as('internal'),
      tokenEndpoint: 'internal',
      scope: 'transfers',
      oauthMetadata: { emirates_id: alice!.emiratesId },
    },
  };
}

/** the resource-server shape: the introspection endpoint and the resource server's client that alone may call it */
function introspectionOf(ctx: MockContext): { introspection?: NonNullable<OAuthInput>['introspection'] } {
  const rs = ctx.oauth.resourceServerIntrospection ? ctx.data.clients.get(RESOURCE_SERVER_ID) : undefined;
  if (!rs) return {};
  const cert = ctx.mode === 'uat' ? { certificate: rs.cert.certPem, privateKey: rs.cert.privateKeyPem } : {};
  return {
    introspection: { endpoint: PATHS.introspect, client: { clientId: rs.id, clientSecret: rs.secret, ...cert } },
  };
}

type OAuthInput = FullProfileInput['target']['oauth'];

export function describe(
  ctx: MockContext,
  name: string,
  url: string,
  adminUrl: string,
  planPerHour?: number,
): FullProfileInput {
  const { pki, data } = ctx;
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
      oauth: {
        ...(ctx.oauth.pkceRequired ? { pkce: 'S256' as const } : {}),
        ...(ctx.oauth.redirectUriOnly ? { redirectParameter: 'redirect_uri' as const } : {}),
        // an authorization server alone offers introspection: the evidence of a token's state without an API
        ...(ctx.oauth.noApi && !ctx.oauth.resourceServerIntrospection
          ? { introspectionEndpoint: PATHS.introspect }
          : {}),
        ...introspectionOf(ctx),
      },
      ...(ctx.oauth.noApi ? { api: 'none' as const } : {}),
    },
    bank: { apiPublicKey: pki.bankApi.certPem },
    ...tlsOf(ctx),
    clients: clientsOf(ctx),
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
