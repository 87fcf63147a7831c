/**
 * A tiny OAuth server for the client tests: just enough of /authorize and the token endpoints to see what the
 * client sends (not the mock bank; it checks nothing beyond what these tests assert).
 */
import { compactDecrypt } from 'jose';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { open, privateKeyFromPem, seal } from '../../lib/jose/index.ts';
import type { TestPki } from '../../lib/pki/types.ts';
import { json, startHttp, startHttps, type TestServer } from '../http/servers.ts';

export interface FakeBankSeen {
  authorize: URLSearchParams[];
  /** account_id of UAT /authorize, decrypted */
  decryptedAccountIds: string[];
  compactHeaders: Record<string, unknown>[];
  token: { path: string; headers: IncomingMessage['headers']; body: string; opened?: unknown }[];
}

export interface FakeBank extends TestServer {
  seen: FakeBankSeen;
  /** answer /authorize with this state instead of the one received */
  forceState?: string;
}

export const CLIENTS = {
  code: { clientId: 'fintech-1', clientSecret: 'CANARY-code-secret' },
  partner: { clientId: 'partner-1', clientSecret: 'CANARY-partner-secret' },
};

let n = 0;
const issue = (withRefresh: boolean): Record<string, unknown> => {
  n++;
  return {
    token_type: 'bearer',
    access_token: `CANARY-AT-${n}`,
    expires_in: 3600,
    consented_on: 1_700_000_000,
    scope: 'transfers',
    ...(withRefresh ? { refresh_token: `CANARY-RT-${n}`, refresh_token_expires_in: 94_608_000 } : {}),
  };
};

const basicOk = (req: IncomingMessage, c: { clientId: string; clientSecret: string }): boolean =>
  req.headers.authorization === `Basic ${Buffer.from(`${c.clientId}:${c.clientSecret}`).toString('base64')}`;

export async function startFakeBank(mode: 'sandbox' | 'uat', pki: TestPki): Promise<FakeBank> {
  const seen: FakeBankSeen = { authorize: [], decryptedAccountIds: [], compactHeaders: [], token: [] };
  const bank = {} as FakeBank;

  async function handle(req: IncomingMessage, res: ServerResponse, body: string): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/oauth/v1/authorize') {
      const q = url.searchParams;
      seen.authorize.push(q);
      if (mode === 'uat') {
        const { plaintext, protectedHeader } = await compactDecrypt(
          q.get('account_id') ?? '',
          privateKeyFromPem(pki.bankApi.privateKeyPem),
        );
        seen.decryptedAccountIds.push(new TextDecoder().decode(plaintext));
        seen.compactHeaders.push(protectedHeader as Record<string, unknown>);
      }
      const state = bank.forceState ?? q.get('state') ?? '';
      res
        .writeHead(302, {
          location: `http://127.0.0.1:9/cb?code=CANARY-CODE-${++n}&state=${encodeURIComponent(state)}`,
        })
        .end();
      return;
    }
    const entry: FakeBankSeen['token'][number] = { path: url.pathname, headers: req.headers, body };
    seen.token.push(entry);
    if (url.pathname === '/oauth/v1/token') {
      if (!basicOk(req, CLIENTS.code)) return json(res, 401, { error: 'invalid_client' });
      const f = new URLSearchParams(body);
      const g = f.get('grant_type');
      if (g === 'authorization_code' && f.get('code')?.startsWith('CANARY-CODE'))
        return json(res, 200, issue(true), { 'cache-control': 'no-store' });
      if (g === 'refresh_token' && f.get('refresh_token')?.startsWith('CANARY-RT'))
        return json(res, 200, issue(true), { 'cache-control': 'no-store' });
      return json(res, 400, { error: 'invalid_grant' });
    }
    if (url.pathname === '/oauth/partner_auth/token') {
      if (mode === 'sandbox') {
        if (!basicOk(req, CLIENTS.partner)) return json(res, 401, { error: 'invalid_client' });
        if (req.headers['content-type'] !== 'application/x-www-form-urlencoded')
          return json(res, 400, { error: 'invalid_request' });
        return json(res, 200, issue(false));
      }
      const h = req.headers;
      if (
        h['x-gateway-client-id'] !== CLIENTS.partner.clientId ||
        h['x-gateway-client-secret'] !== CLIENTS.partner.clientSecret
      ) {
        return json(res, 401, { error: 'invalid_client' });
      }
      if (!h.msgid || h['content-type'] !== 'application/json') return json(res, 400, { error: 'invalid_request' });
      const opened = await open(body, {
        decryptionKey: pki.bankApi.privateKeyPem,
        verificationKey: pki.clients.partner.certPem,
      });
      if (!opened.ok) return json(res, 400, { error: 'invalid_request', error_description: opened.code });
      entry.opened = opened.payload;
      const sealed = await seal(issue(false), {
        signingKey: pki.bankApi.privateKeyPem,
        encryptionKey: pki.clients.partner.certPem,
      });
      return json(res, 200, sealed);
    }
    json(res, 404, { error: 'not_found' });
  }

  const handler = (req: IncomingMessage, res: ServerResponse, body: string): void => {
    handle(req, res, body).catch((e: unknown) => json(res, 500, { error: String(e) }));
  };
  const server =
    mode === 'uat'
      ? await startHttps(
          {
            key: pki.server.privateKeyPem,
            cert: pki.server.certPem,
            ca: [pki.partnerCa.certPem],
            requestCert: true,
            rejectUnauthorized: true,
          },
          handler,
        )
      : await startHttp(handler);
  return Object.assign(bank, server, { seen });
}
