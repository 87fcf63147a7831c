/**
 * Reference partner client: the documentation of the task a partner's client performs in a certification run
 * (docs/partner.md). Copy it freely. It reads only the documented BANK_* variables and does:
 *
 *   1. get a token: the code flow (GET /oauth/v1/authorize, read the 302, check `state`, exchange the code once)
 *      or client credentials bound to the account (POST /oauth/partner_auth/token);
 *   2. validate a transfer (POST {BANK_BASE_URL}/transfers/validate);
 *   3. create it with a transfer_id of its own (PUT {BANK_BASE_URL}/transfers/{transfer_id});
 *   4. read it back (GET {BANK_BASE_URL}/transfers/{transfer_id});
 *
 * exit 0 when done, non-zero when it refuses to go on. In UAT every body is sealed (JWS RS256 signed with the
 * client's key inside JWE RSA-OAEP-256 + A256CBC-HS512 to the bank's API key) and every sealed answer is opened
 * and verified against the bank's API key before it is used. One token for the whole task; 401 → refresh once, a
 * refused refresh → a new sign-in; 429 → wait Retry-After; a create whose answer is lost → the same PUT again.
 *
 * PARTNER_CLIENT_FAULTS (comma-separated, for the harness's own tests only) makes it break one rule each:
 * see faults.ts.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { open, seal } from '../../lib/jose/index.ts';
import { mask } from '../../lib/mask/index.ts';
import { encryptAccountId } from '../../lib/oauth/authorize.ts';
import { catalogueFaultOn, faultOn, faultyOpen, formFaultOpen, looseOpen, sealFaulty } from './faults.ts';

const env = (name: string): string => {
  const v = process.env[name];
  if (!v) throw new Refusal(`${name} is not set`);
  return v;
};

class Refusal extends Error {}

const uat = process.env.BANK_ENVIRONMENT !== 'sandbox';
const clientId = env('BANK_CLIENT_ID');
const clientSecret = env('BANK_CLIENT_SECRET');
const bankKeyPem = readFileSync(env('BANK_API_PUBLIC_KEY_FILE'), 'utf8');
const myKeyPem = uat ? readFileSync(env('BANK_CLIENT_KEY_FILE'), 'utf8') : '';
const legacyTls = faultOn('tls11');
// node's own HTTP client (no package to load: the client starts once per scenario); connections kept alive
const agent = uat
  ? new HttpsAgent({
      keepAlive: true,
      ca: readFileSync(env('BANK_CA_FILE'), 'utf8'),
      cert: readFileSync(env('BANK_CLIENT_CERT_FILE'), 'utf8'),
      key: myKeyPem,
      minVersion: legacyTls ? 'TLSv1.1' : 'TLSv1.2',
      ...(legacyTls ? { ciphers: 'DEFAULT:@SECLEVEL=0' } : {}),
      rejectUnauthorized: !faultOn('tls-no-verify'),
    })
  : new HttpAgent({ keepAlive: true });

interface Answer {
  status: number;
  headers: Record<string, string>;
  text: string;
}

function call(method: string, url: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  const u = new URL(url);
  const send = u.protocol === 'https:' ? httpsRequest : httpRequest;
  const h = body === undefined ? headers : { ...headers, 'Content-Length': String(Buffer.byteLength(body)) };
  return new Promise((resolve, reject) => {
    const req = send(u, { method, headers: h, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const out: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers))
          if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
        resolve({ status: res.statusCode ?? 0, headers: out, text: Buffer.concat(chunks).toString('utf8') });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** a request body as the bank wants it: sealed in UAT, plain JSON in the sandbox */
async function sealed(payload: unknown): Promise<string> {
  if (!uat || faultOn('plain-body')) return JSON.stringify(payload);
  const faulty = sealFaulty(payload, myKeyPem, bankKeyPem);
  if (faulty !== undefined) return faulty;
  return JSON.stringify(await seal(payload, { signingKey: myKeyPem, encryptionKey: bankKeyPem }));
}

/** a JSON answer: opened and verified in UAT (anything that does not verify is refused) */
async function opened(a: Answer): Promise<Record<string, unknown>> {
  if (faultOn('no-verify')) return looseOpen(a.text, myKeyPem);
  if (!uat) return JSON.parse(a.text) as Record<string, unknown>;
  const faulty = catalogueFaultOn()
    ? await faultyOpen(a.text, myKeyPem, bankKeyPem)
    : await formFaultOpen(a.text, myKeyPem, bankKeyPem);
  if (faulty !== undefined) return faulty;
  const r = await open(a.text, { decryptionKey: myKeyPem, verificationKey: bankKeyPem });
  if (!r.ok) throw new Refusal(`the bank's answer (HTTP ${a.status}) does not verify: ${r.code}`);
  return r.payload as Record<string, unknown>;
}

// ---------------------------------------------------------------------------------------------------------
// tokens

interface Tokens {
  access: string;
  refresh?: string;
}
const oauth = env('BANK_OAUTH_BASE_URL');
const basic = `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString('base64')}`;
const form = { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: basic };

async function signIn(): Promise<Tokens> {
  const state = randomBytes(16).toString('base64url');
  const q = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_url: env('BANK_REDIRECT_URI'),
    scope: 'transfers',
    state,
    uuid: env('BANK_CUSTOMER_UUID'),
  });
  // UAT: the account id travels encrypted to the bank's key; the sandbox needs the uuid only
  if (uat) q.set('account_id', await encryptAccountId(env('BANK_ACCOUNT_ID'), bankKeyPem));
  const a = await call('GET', `${oauth}/oauth/v1/authorize?${q}`, {});
  const location = a.headers.location;
  if (a.status !== 302 || !location) throw new Refusal(`authorize answered ${a.status}`);
  const cb = new URL(location);
  if (cb.searchParams.get('state') !== state && !faultOn('ignore-state'))
    throw new Refusal('the callback state is not the one sent: the code is not used');
  const code = cb.searchParams.get('code');
  if (!code) throw new Refusal(`sign-in refused: ${cb.searchParams.get('error') ?? 'no code'}`);
  const exchange = () =>
    call(
      'POST',
      `${oauth}/oauth/v1/token`,
      form,
      new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: env('BANK_REDIRECT_URI'),
      }).toString(),
    );
  const t = await exchange();
  if (faultOn('reuse-code')) await exchange();
  return tokensOf(t);
}

function tokensOf(a: Answer): Tokens {
  if (a.status !== 200) throw new Refusal(`token endpoint answered ${a.status}`);
  const o = JSON.parse(a.text) as { access_token?: string; refresh_token?: string };
  if (!o.access_token) throw new Refusal('no access_token in the token answer');
  return { access: o.access_token, ...(o.refresh_token ? { refresh: o.refresh_token } : {}) };
}

async function clientCredentials(): Promise<Tokens> {
  const body = {
    grant_type: 'client_credentials',
    scope: 'transfers',
    oauth_metadata: { account_id: env('BANK_ACCOUNT_ID') },
  };
  const url = `${oauth}/oauth/partner_auth/token`;
  if (!uat) {
    const f = new URLSearchParams({
      grant_type: 'client_credentials',
      scope: 'transfers',
      oauth_metadata: JSON.stringify(body.oauth_metadata),
    });
    return tokensOf(await call('POST', url, form, f.toString()));
  }
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'X-Gateway-Client-Id': clientId,
    'X-Gateway-Client-Secret': clientSecret,
  };
  if (!faultOn('no-msgid')) headers.MsgId = randomUUID();
  const a = await call('POST', url, headers, await sealed(body));
  const o = await opened(a);
  if (a.status !== 200 || typeof o.access_token !== 'string') throw new Refusal(`token endpoint answered ${a.status}`);
  return { access: o.access_token };
}

const codeFlow = process.env.BANK_FLOW !== 'client-credentials';
let tokens: Tokens | undefined;

async function newToken(): Promise<Tokens> {
  return codeFlow ? signIn() : clientCredentials();
}

/** after a 401: refresh once (code flow); a refused refresh means a new sign-in, never a second refresh */
let firstRefresh: string | undefined;
async function renew(): Promise<Tokens> {
  if (!tokens?.refresh) return newToken();
  firstRefresh ??= tokens.refresh;
  const refreshToken = faultOn('keep-first-refresh') ? firstRefresh : tokens.refresh;
  const refresh = () =>
    call(
      'POST',
      `${oauth}/oauth/v1/token`,
      form,
      new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken }).toString(),
    );
  let a = await refresh();
  if (a.status !== 200 && faultOn('retry-refresh')) a = await refresh();
  return a.status === 200 ? tokensOf(a) : newToken();
}

// ---------------------------------------------------------------------------------------------------------
// the transfers API

const base = env('BANK_BASE_URL');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** one transfers call: 401 → renew the token once; 429 → wait Retry-After (at most 3 tries) */
async function api(
  method: string,
  path: string,
  payload?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  for (let attempt = 1; ; attempt++) {
    if (!tokens || faultOn('token-per-call')) tokens = await newToken();
    const headers: Record<string, string> = { Authorization: `Bearer ${tokens.access}` };
    if (!faultOn('no-client-id')) headers['X-Gateway-Client-Id'] = clientId;
    if (payload !== undefined) headers['Content-Type'] = 'application/json';
    const a = await call(method, `${base}${path}`, headers, payload === undefined ? undefined : await sealed(payload));
    if (a.status === 401 && attempt === 1) {
      tokens = await renew();
      continue;
    }
    if (a.status === 429 && attempt < 3) {
      const wait = Number(a.headers['retry-after'] ?? '1');
      await sleep(faultOn('ignore-retry-after') ? 0 : Math.min(Number.isFinite(wait) ? wait : 1, 30) * 1000);
      continue;
    }
    return { status: a.status, body: await opened(a) };
  }
}

/** the faults that take an answer without matching it to the call (no-answer-match, read-unopened) */
function unmatched(body: Record<string, unknown>): boolean {
  return faultOn('no-answer-match') || (faultOn('read-unopened') && body.unopened === true);
}

async function main(): Promise<void> {
  tokens = await newToken();
  const clear = env('BANK_ACCOUNT_ID');
  const accountId = faultOn('unmasked-id')
    ? clear
    : faultOn('mask-six')
      ? `${clear.slice(0, 6)}${'x'.repeat(clear.length - 9)}${clear.slice(-3)}`
      : mask(clear);
  const transfer = {
    beneficiary_id: env('BANK_BENEFICIARY_ID'),
    account_id: accountId,
    amount: { value: '150.00', currency: 'AED' },
    purpose_code: 'FAM',
    remarks: 'certification',
  };
  const v = await api('POST', '/transfers/validate', transfer);
  if (v.status !== 200) throw new Refusal(`validate answered ${v.status}: ${String(v.body.response_message ?? '')}`);
  // a signed answer is this call's answer only if it answers this call (not another call's answer replayed: CLI-09)
  const credit = v.body.total_credit_amount as { value?: unknown } | undefined;
  if (credit?.value !== transfer.amount.value && !unmatched(v.body))
    throw new Refusal("validate's answer does not answer this transfer (total_credit_amount)");
  console.log(`validated: charges ${JSON.stringify(v.body.charges)}`);

  let transferId = randomUUID();
  let created: { status: number; body: Record<string, unknown> } | undefined;
  for (let attempt = 1; !created; attempt++) {
    try {
      created = await api('PUT', `/transfers/${transferId}`, transfer);
    } catch (e) {
      if (e instanceof Refusal || attempt >= 3) throw e;
      console.log(`create: no answer (${(e as Error).message}); the same PUT again`);
      if (faultOn('new-transfer-id-on-retry')) transferId = randomUUID();
    }
  }
  if (created.status !== 201 && created.status !== 200) throw new Refusal(`create answered ${created.status}`);
  if (created.body.transfer_id !== transferId && !unmatched(created.body))
    throw new Refusal("create's answer names another transfer_id");
  console.log(`created: ${transferId} ${String(created.body.status)}`);
  const g = await api('GET', `/transfers/${transferId}`);
  if (g.status !== 200) throw new Refusal(`get answered ${g.status}`);
  console.log(`read back: ${String(g.body.status)}`);
}

main().then(
  () => agent.destroy(),
  (e: unknown) => {
    console.error(`refused to go on: ${e instanceof Error ? e.message : String(e)}`);
    agent.destroy();
    process.exitCode = 3;
  },
);
