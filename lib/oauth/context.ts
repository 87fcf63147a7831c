/** Endpoint URLs and client identities derived from a profile. */
import type { Identity } from '../http/types.ts';
import type { CodeClient, CredentialsClient, FullProfile } from '../profile/schema.ts';
import { OAuthError, type ClientRole, type OAuthContext } from './types.ts';

type AnyClient = CodeClient | CredentialsClient;

/** OAuth base URL (oauthBaseUrl, else baseUrl) joined with a profile path; a base path prefix is kept. */
export function oauthUrl(profile: FullProfile, path: string): string {
  const base = profile.target.oauthBaseUrl ?? profile.target.baseUrl;
  return base.replace(/\/+$/, '') + path;
}

export function tokenUrl(profile: FullProfile, endpoint: 'token' | 'partner' | 'internal'): string {
  const p = profile.target.paths;
  return oauthUrl(profile, endpoint === 'token' ? p.token : endpoint === 'partner' ? p.partnerToken : p.internalToken);
}

export function clientOf(profile: FullProfile, role: ClientRole): AnyClient {
  const c = profile.clients[role];
  if (!c) throw new OAuthError('CONFIG_MISSING', `clients.${role} is not in the profile`);
  return c;
}

/**
 * The identity a client calls with: its certificate and key (mutual TLS, UAT), the bank's CA, the expected
 * server name, the allow-listed source address, TLS 1.2 at least. Sandbox without `tls`: system defaults.
 */
export function clientIdentity(
  profile: FullProfile,
  role: ClientRole,
  client: AnyClient = clientOf(profile, role),
): Identity {
  const tls = profile.tls;
  return {
    name: role,
    ...(client.certificate ? { certificate: client.certificate } : {}),
    ...(client.privateKey ? { privateKey: client.privateKey } : {}),
    ...(tls?.caCertificate ? { ca: tls.caCertificate } : {}),
    ...(tls?.serverName ? { serverName: tls.serverName } : {}),
    ...(tls?.allowedSourceAddress ? { localAddress: tls.allowedSourceAddress } : {}),
    minVersion: 'TLSv1.2',
  };
}

/** the identity for a role in a context (the context's override first) */
export function identityIn(ctx: OAuthContext, role: ClientRole): Identity | undefined {
  return ctx.identity ? ctx.identity(role) : clientIdentity(ctx.profile, role);
}

export function basicAuth(clientId: string, clientSecret: string): string {
  return `Basic ${Buffer.from(`${clientId}:${clientSecret}`, 'utf8').toString('base64')}`;
}
