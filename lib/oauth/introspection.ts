/**
 * Who calls the profile's RFC 7662 introspection endpoint, and how: the client that `target.oauth.introspection`
 * names (a resource server's, often the only kind an authorization server lets see tokens), else the code client
 * with HTTP Basic, as before. Secrets stay in the request: the session's redactor knows them (lib/profile/secrets.ts).
 */
import type { Identity } from '../http/types.ts';
import type { FullProfile, IntrospectionClient } from '../profile/schema.ts';
import { basicAuth, oauthUrl } from './context.ts';

export type IntrospectionAuth = 'client_secret_basic' | 'client_secret_post' | 'tls_client_auth';

export interface IntrospectionCaller {
  /** the endpoint, absolute */
  url: string;
  clientId: string;
  /** the profile named this client (target.oauth.introspection.client); false: the code client stands in */
  named: boolean;
  auth: IntrospectionAuth;
  /** the named client's own identity (its certificate, the profile's CA); undefined: the code client's identity */
  identity?: Identity;
}

/** the endpoint the profile names, in either form (introspection.endpoint or introspectionEndpoint), or undefined */
export function introspectionEndpoint(profile: FullProfile): string | undefined {
  const o = profile.target.oauth;
  return o.introspection?.endpoint ?? o.introspectionEndpoint;
}

function authOf(c: IntrospectionClient): IntrospectionAuth {
  return c.authMethod ?? (c.clientSecret !== undefined ? 'client_secret_basic' : 'tls_client_auth');
}

/** the named client's identity: its certificate (if any) with the profile's TLS settings */
function identityOf(profile: FullProfile, c: IntrospectionClient): Identity {
  const tls = profile.tls;
  return {
    name: 'introspection',
    ...(c.certificate ? { certificate: c.certificate } : {}),
    ...(c.privateKey ? { privateKey: c.privateKey } : {}),
    ...(tls?.caCertificate ? { ca: tls.caCertificate } : {}),
    ...(tls?.serverName ? { serverName: tls.serverName } : {}),
    ...(tls?.allowedSourceAddress ? { localAddress: tls.allowedSourceAddress } : {}),
    minVersion: 'TLSv1.2',
  };
}

/** who introspects for this profile; undefined when it names no introspection endpoint */
export function introspectionCaller(profile: FullProfile): IntrospectionCaller | undefined {
  const endpoint = introspectionEndpoint(profile);
  if (endpoint === undefined) return undefined;
  const url = /^https?:\/\//.test(endpoint) ? endpoint : oauthUrl(profile, endpoint);
  const c = profile.target.oauth.introspection?.client;
  if (!c) return { url, clientId: profile.clients.code.clientId, named: false, auth: 'client_secret_basic' };
  const needsIdentity = c.certificate !== undefined || profile.environment === 'uat';
  return {
    url,
    clientId: c.clientId,
    named: true,
    auth: authOf(c),
    ...(needsIdentity ? { identity: identityOf(profile, c) } : {}),
  };
}

/** the headers and form of an introspection request for `token`, authenticated as the caller says */
export function introspectionRequest(
  profile: FullProfile,
  caller: IntrospectionCaller,
  token: string,
): { headers: Record<string, string>; body: string } {
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
  };
  const form = new URLSearchParams({ token });
  const secret = caller.named
    ? profile.target.oauth.introspection?.client?.clientSecret
    : profile.clients.code.clientSecret;
  if (caller.auth === 'client_secret_basic') headers.authorization = basicAuth(caller.clientId, secret ?? '');
  else {
    form.set('client_id', caller.clientId);
    if (caller.auth === 'client_secret_post') form.set('client_secret', secret ?? '');
  }
  return { headers, body: form.toString() };
}
