/**
 * An off-the-shelf OpenID provider (the npm package oidc-provider, unmodified), configured only where the bank's
 * convention says: 60 s codes, 1 h access tokens, a refresh token on every code grant rotated on each refresh, PKCE
 * (S256) required, the transfers API's scopes declared as a resource server (resource indicators), introspection
 * and client credentials on; its own development login and consent pages. No API behind it.
 */
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import Provider from 'oidc-provider';

export const CODE_CLIENT = { clientId: 'fintech-app', clientSecret: 'fintech-app-secret-0123456789' };
export const PARTNER_CLIENT = { clientId: 'partner-app', clientSecret: 'partner-app-secret-0123456789' };
export const REDIRECT_URI = 'http://127.0.0.1:9/callback';
/** the resource server's own client, for introspection */
const API_CLIENT = { clientId: 'transfers-api', clientSecret: 'transfers-api-secret-0123456789' };

export interface RunningProvider {
  issuer: string;
  close(): Promise<void>;
}

export async function startProvider(): Promise<RunningProvider> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CODE_CLIENT.clientId,
        client_secret: CODE_CLIENT.clientSecret,
        redirect_uris: [REDIRECT_URI],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
      {
        client_id: API_CLIENT.clientId,
        client_secret: API_CLIENT.clientSecret,
        redirect_uris: [],
        grant_types: [],
        response_types: [],
        token_endpoint_auth_method: 'client_secret_basic',
      },
      {
        client_id: PARTNER_CLIENT.clientId,
        client_secret: PARTNER_CLIENT.clientSecret,
        redirect_uris: [],
        grant_types: ['client_credentials'],
        response_types: [],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    features: {
      devInteractions: { enabled: true },
      introspection: { enabled: true },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => 'https://api.bank.example/',
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({
          scope: 'transfers accounts',
          accessTokenFormat: 'opaque',
          accessTokenTTL: 3600,
        }),
      },
    },
    ttl: { AuthorizationCode: 60, AccessToken: 3600, ClientCredentials: 3600, RefreshToken: 1095 * 86_400 },
    issueRefreshToken: async (_ctx: unknown, client: { grantTypeAllowed(type: string): boolean }) =>
      client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    pkce: { methods: ['S256'], required: () => true },
    findAccount: async (_ctx: unknown, sub: string) => ({ accountId: sub, claims: async () => ({ sub }) }),
    cookies: { keys: ['oidc-provider-test-cookie-key'] },
  });
  server.on('request', provider.callback());
  return {
    issuer,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A resource server in front of the provider, as a bank puts one: a bearer token is accepted only when the
 * provider's introspection says it is active (RFC 7662), with the `transfers` scope; RFC 6750 challenges. It serves
 * GET /v1/transfers/{id} (404: it holds no transfers) and answers validate with 501 (not implemented).
 */
export async function startResourceServer(issuer: string): Promise<RunningProvider> {
  const basic = `Basic ${Buffer.from(`${API_CLIENT.clientId}:${API_CLIENT.clientSecret}`).toString('base64')}`;
  const server = createServer((req, res) => {
    const send = (status: number, headers: Record<string, string> = {}): void => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify({ status }));
    };
    const auth = /^Bearer (.+)$/.exec(req.headers.authorization ?? '');
    if (!auth) return send(401, { 'www-authenticate': 'Bearer realm="transfers"' });
    fetch(`${issuer}/token/introspection`, {
      method: 'POST',
      headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: auth[1]! }).toString(),
    })
      .then((r) => r.json() as Promise<{ active?: boolean; scope?: string }>)
      .then((t) => {
        if (t.active !== true) return send(401, { 'www-authenticate': 'Bearer error="invalid_token"' });
        if (!(t.scope ?? '').split(' ').includes('transfers'))
          return send(403, { 'www-authenticate': 'Bearer error="insufficient_scope", scope="transfers"' });
        if (req.method === 'GET' && /^\/v1\/transfers\/[^/]+$/.test(req.url ?? '')) return send(404);
        if (req.method === 'POST' && req.url === '/v1/transfers/validate') return send(501);
        return send(404);
      })
      .catch(() => send(502));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    issuer: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
