import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpClient } from '../../lib/http/client.ts';
import { createRecorder } from '../../lib/http/record/recorder.ts';
import { createRedactor } from '../../lib/http/record/redact.ts';
import type { HttpClient } from '../../lib/http/types.ts';
import { mask } from '../../lib/mask/index.ts';
import {
  authorize,
  buildClientCredentialsRequest,
  clientCredentials,
  exchangeCode,
  OAuthError,
  parseCallback,
  refresh,
  requireToken,
  runLoginScript,
  sendTokenRequest,
  waitForCallback,
  type OAuthContext,
} from '../../lib/oauth/index.ts';
import { testPki, type TestPki } from '../../lib/pki/index.ts';
import { FullProfile, type FullProfileInput } from '../../lib/profile/schema.ts';
import { secretsOf } from '../../lib/profile/secrets.ts';
import { CLIENTS, startFakeBank, type FakeBank } from './fake-bank.ts';

const ACCOUNT_1 = '1234567890123';
const ACCOUNT_2 = '9876543210987654321';

let pki: TestPki;
let sandbox: FakeBank;
let uat: FakeBank;
const https: HttpClient[] = [];
const tmp = mkdtempSync(join(tmpdir(), 'oauth-test-'));

beforeAll(async () => {
  pki = await testPki();
  sandbox = await startFakeBank('sandbox', pki);
  uat = await startFakeBank('uat', pki);
}, 60_000);

afterAll(async () => {
  await Promise.all(https.map((h) => h.close()));
  await Promise.all([sandbox.close(), uat.close()]);
  rmSync(tmp, { recursive: true, force: true });
});

function profile(
  env: 'sandbox' | 'uat',
  over: Partial<FullProfileInput['target']> = {},
  redirectUri = 'http://127.0.0.1:9/cb',
): FullProfile {
  const uatMode = env === 'uat';
  const certs = (w: 'code' | 'partner') =>
    uatMode ? { certificate: pki.clients[w].certPem, privateKey: pki.clients[w].privateKeyPem } : {};
  return FullProfile.parse({
    name: `t-${env}`,
    environment: env,
    target: { baseUrl: uatMode ? uat.url : sandbox.url, ...over },
    ...(uatMode ? { bank: { apiPublicKey: pki.bankApi.certPem }, tls: { caCertificate: pki.bankCa.certPem } } : {}),
    clients: {
      code: { ...CLIENTS.code, ...certs('code'), redirectUri },
      partner: {
        ...CLIENTS.partner,
        ...certs('partner'),
        ...(uatMode ? { oauthMetadata: { account_id: ACCOUNT_1 } } : {}),
      },
    },
    customers: [
      { name: 'c1', uuid: 'uuid-1', accountId: ACCOUNT_1, beneficiaryId: 'B1' },
      { name: 'c2', uuid: 'uuid-2', accountId: ACCOUNT_2, beneficiaryId: 'B2', workflow: true },
    ],
  } satisfies FullProfileInput);
}

/** a context whose redactor knows the profile's secrets, as the harness sets it up */
function context(p: FullProfile): OAuthContext {
  const redactor = createRedactor();
  for (const s of secretsOf(p)) redactor.add(s.value, s.kind);
  const http = createHttpClient({ redactor, defaultTimeoutMs: 5000 });
  https.push(http);
  return { profile: p, http, redactor, recorder: createRecorder() };
}

function recorded(ctx: OAuthContext): string {
  return JSON.stringify(ctx.recorder!.exchanges);
}

async function rejection(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e,
  );
}

describe('client credentials', () => {
  it('sandbox: Basic + form, token read, nothing secret recorded', async () => {
    const ctx = context(profile('sandbox'));
    const r = await clientCredentials(ctx);
    expect(r.response.status).toBe(200);
    expect(r.token?.access_token).toMatch(/^CANARY-AT-/);
    expect(r.opened).toBeUndefined();
    const sent = sandbox.seen.token.at(-1)!;
    expect(sent.body).toBe('grant_type=client_credentials&scope=transfers');
    expect(sent.headers['content-type']).toBe('application/x-www-form-urlencoded');
    const text = recorded(ctx);
    expect(text).not.toMatch(/CANARY/);
    expect(text).toContain('Basic [REDACTED:credentials]');
  });

  it('sandbox: a wrong secret gives the error answer and no token', async () => {
    const ctx = context(profile('sandbox'));
    const r = await clientCredentials(ctx, {
      client: { ...ctx.profile.clients.partner, clientSecret: 'CANARY-wrong' },
    });
    expect(r.response.status).toBe(401);
    expect(r.token).toBeUndefined();
    expect(r.body).toEqual({ error: 'invalid_client' });
    const e = (() => {
      try {
        requireToken(r);
      } catch (err) {
        return err as OAuthError;
      }
      throw new Error('expected a throw');
    })();
    expect(e).toBeInstanceOf(OAuthError);
    expect(e.code).toBe('TOKEN_REQUEST_FAILED');
    expect(e.message).toContain('HTTP 401 invalid_client');
    expect(recorded(ctx)).not.toMatch(/CANARY/);
  });

  it('uat: sealed JSON with the X-Gateway headers and a MsgId, over mutual TLS; the sealed answer is opened', async () => {
    const ctx = context(profile('uat'));
    const r = await clientCredentials(ctx);
    expect(r.response.status).toBe(200);
    expect(r.opened?.ok).toBe(true);
    expect(r.token?.access_token).toMatch(/^CANARY-AT-/);
    const sent = uat.seen.token.at(-1)!;
    expect(sent.opened).toEqual({
      grant_type: 'client_credentials',
      scope: 'transfers',
      oauth_metadata: { account_id: ACCOUNT_1 },
    });
    expect(sent.headers.msgid).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent.headers.accept).toBe('application/json');
    const ex = ctx.recorder!.exchanges.at(-1)!;
    expect(ex.request.body).toMatch(/^<JWE general/);
    expect(ex.request.headers['X-Gateway-Client-Secret']).toBe('[REDACTED:client-secret]');
    expect(ex.jose?.direction).toBe('response');
    expect(ex.jose?.opened).toMatchObject({ access_token: '[REDACTED:token]', token_type: 'bearer' });
    const text = recorded(ctx);
    expect(text).not.toMatch(/CANARY/);
    expect(text).not.toContain(ACCOUNT_1);
  });

  it('uat: a check can mutate the request (no MsgId, form instead of JSON)', async () => {
    const ctx = context(profile('uat'));
    const req = await buildClientCredentialsRequest(ctx.profile);
    delete req.headers!.MsgId;
    const noMsgId = await sendTokenRequest(ctx, req);
    expect(noMsgId.response.status).toBe(400);
    const form = await sendTokenRequest(ctx, await buildClientCredentialsRequest(ctx.profile, { style: 'form' }));
    expect(form.response.status).toBe(401);
    expect(uat.seen.token.at(-1)!.headers.authorization).toMatch(/^Basic /);
    expect(recorded(ctx)).not.toMatch(/CANARY/);
  });
});

describe('authorization code', () => {
  it('sandbox auto consent: code from the Location, state checked, clear selectors sent (mock convention)', async () => {
    const ctx = context(profile('sandbox'));
    const a = await authorize(ctx, { customer: ctx.profile.customers[0]!, state: 'st-1' });
    expect(a.response?.status).toBe(302);
    expect(a.code).toMatch(/^CANARY-CODE-/);
    expect(a.state).toBe('st-1');
    expect(a.redirectMatches).toBe(true);
    const q = sandbox.seen.authorize.at(-1)!;
    expect(Object.fromEntries(q)).toEqual({
      response_type: 'code',
      client_id: CLIENTS.code.clientId,
      scope: 'transfers',
      state: 'st-1',
      uuid: 'uuid-1',
      account_id: ACCOUNT_1,
    });
    const text = recorded(ctx);
    expect(text).not.toMatch(/CANARY/);
    expect(text).not.toContain(ACCOUNT_1);
    // the /authorize URL carried the clear id (the sandbox asks for it): the evidence says so, never shows a mask
    expect(text).not.toContain(mask(ACCOUNT_1));
    expect(text).toContain('account_id=[clear account id');
  });

  it('uat: account_id is a JWE compact of the clear id to the bank key', async () => {
    const ctx = context(profile('uat'));
    const a = await authorize(ctx, { customer: ctx.profile.customers[1]!, sendRedirectUrl: true });
    expect(a.code).toBeDefined();
    expect(uat.seen.decryptedAccountIds.at(-1)).toBe(ACCOUNT_2);
    expect(uat.seen.compactHeaders.at(-1)).toMatchObject({ alg: 'RSA-OAEP-256', enc: 'A256CBC-HS512' });
    const q = uat.seen.authorize.at(-1)!;
    expect(q.get('uuid')).toBe('uuid-2');
    expect(q.get('redirect_url')).toBe('http://127.0.0.1:9/cb');
    expect(recorded(ctx)).not.toContain(ACCOUNT_2);
  });

  it('a callback with another state is STATE_MISMATCH', async () => {
    const ctx = context(profile('sandbox'));
    sandbox.forceState = 'forged';
    try {
      const e = await rejection(authorize(ctx, { customer: ctx.profile.customers[0]! }));
      expect(e).toBeInstanceOf(OAuthError);
      expect((e as OAuthError).code).toBe('STATE_MISMATCH');
    } finally {
      delete sandbox.forceState;
    }
  });

  it('parseCallback reads codes and errors and compares the redirect target', () => {
    const uri = 'http://127.0.0.1:9/cb';
    expect(parseCallback('http://127.0.0.1:9/cb?code=c1&state=s', uri)).toEqual({
      code: 'c1',
      state: 's',
      redirectMatches: true,
    });
    expect(parseCallback('http://127.0.0.1:9/cb?error=access_denied&error_description=no', uri)).toEqual({
      error: 'access_denied',
      errorDescription: 'no',
      redirectMatches: true,
    });
    expect(parseCallback('https://evil.example/cb?code=c1', uri).redirectMatches).toBe(false);
    expect(parseCallback('/other?code=c1', uri).redirectMatches).toBe(false);
  });

  for (const env of ['sandbox', 'uat'] as const) {
    it(`${env}: code exchange and refresh are Basic + form with plain JSON answers; tokens never recorded`, async () => {
      const ctx = context(profile(env));
      const a = await authorize(ctx, { customer: ctx.profile.customers[0]! });
      const t = await exchangeCode(ctx, { code: a.code! });
      expect(t.token?.refresh_token).toMatch(/^CANARY-RT-/);
      const bank = env === 'uat' ? uat : sandbox;
      expect(new URLSearchParams(bank.seen.token.at(-1)!.body).get('grant_type')).toBe('authorization_code');
      const r = await refresh(ctx, { refreshToken: t.token!.refresh_token! });
      expect(r.token?.access_token).not.toBe(t.token!.access_token);
      expect(new URLSearchParams(bank.seen.token.at(-1)!.body).get('refresh_token')).toBe(t.token!.refresh_token);
      expect(ctx.recorder!.exchanges).toHaveLength(3);
      expect(recorded(ctx)).not.toMatch(/CANARY/);
    });
  }
});

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe('consent modes', () => {
  it('manual: the URL goes to the prompt and a loopback listener takes the callback', async () => {
    const port = await freePort();
    const p = profile('sandbox', { consent: { mode: 'manual', timeoutSeconds: 10 } }, `http://127.0.0.1:${port}/cb`);
    const ctx = context(p);
    let shown = '';
    const a = await authorize(
      ctx,
      { customer: p.customers[0]! },
      {
        prompt: (url) => {
          shown = url;
          // the "browser": the bank would redirect here after consent
          const state = new URL(url).searchParams.get('state')!;
          void fetch(`http://127.0.0.1:${port}/cb?code=MANUAL-CODE-1&state=${state}`);
        },
      },
    );
    expect(a.code).toBe('MANUAL-CODE-1');
    expect(a.redirectMatches).toBe(true);
    // a URL shown to a person carries no clear account id
    expect(shown).not.toContain(ACCOUNT_1);
    expect(new URL(shown).searchParams.has('account_id')).toBe(false);
  });

  it('manual: no callback in time is CONSENT_TIMEOUT; a non-loopback redirect URI is refused', async () => {
    const port = await freePort();
    const e = await rejection(waitForCallback(`http://127.0.0.1:${port}/cb`, 100));
    expect((e as OAuthError).code).toBe('CONSENT_TIMEOUT');
    const f = await rejection(waitForCallback('https://app.example/cb', 100));
    expect((f as OAuthError).code).toBe('REDIRECT_NOT_LOOPBACK');
  });

  it('script: the command gets the URL and prints the callback URL', async () => {
    const script = join(tmp, 'login.mjs');
    writeFileSync(
      script,
      `const u = new URL(process.argv.at(-1));\nconsole.log('signing in...');\nconsole.log('http://127.0.0.1:9/cb?code=SCRIPT-CODE-1&state=' + u.searchParams.get('state'));\n`,
    );
    const p = profile('sandbox', {
      consent: { mode: 'script', command: `"${process.execPath}" "${script}"`, timeoutSeconds: 10 },
    });
    const ctx = context(p);
    const a = await authorize(ctx, { customer: p.customers[0]! });
    expect(a.code).toBe('SCRIPT-CODE-1');
  });

  it('script: a hanging script is killed (CONSENT_TIMEOUT), a failing one is CONSENT_SCRIPT_FAILED', async () => {
    const hang = join(tmp, 'hang.mjs');
    writeFileSync(hang, 'setTimeout(() => {}, 60_000);\n');
    const e = await rejection(runLoginScript(`"${process.execPath}" "${hang}"`, 'http://x/', 200));
    expect((e as OAuthError).code).toBe('CONSENT_TIMEOUT');
    const fail = join(tmp, 'fail.mjs');
    writeFileSync(fail, 'process.exit(3);\n');
    const f = await rejection(runLoginScript(`"${process.execPath}" "${fail}"`, 'http://x/', 5000));
    expect((f as OAuthError).code).toBe('CONSENT_SCRIPT_FAILED');
    const g = await rejection(runLoginScript(`"${process.execPath}" -e "console.log('no url')"`, 'http://x/', 5000));
    expect((g as OAuthError).code).toBe('CONSENT_NO_CALLBACK');
  });
});
