/**
 * k6 load script for the transfers API (sandbox and UAT), bundled by `npm run load -- --profile X`:
 *   LOAD_SCENARIO=transfers (default): each VU takes a token once (authorize with auto consent, code exchange),
 *     then iterates validate, create, get; a 429 (the bank's quota) is expected, counted in `quota_refused`.
 *   LOAD_SCENARIO=quota: one VU makes quota.perHour + 1 validate calls and expects the last one refused (429).
 * Secrets come from the environment only: LOAD_CLIENT_SECRET (code client), LOAD_CLIENT_KEY (UAT, mTLS key PEM).
 * Thresholds (error rate, p95) and the VU count and duration come from the data file, i.e. from the profile.
 */
import http, { type RefinedResponse, type ResponseType } from 'k6/http';
import { check, fail } from 'k6';
import encoding from 'k6/encoding';
import { Rate } from 'k6/metrics';
import type { Options } from 'k6/options';
import type { LoadData } from '../lib/data/load.ts';
import {
  authorizeRequest,
  codeFromLocation,
  createRequest,
  getRequest,
  loadTransferId,
  tokenRequest,
  validateRequest,
  type LoadRequest,
} from './requests.ts';

const data = JSON.parse(open(__ENV.LOAD_DATA || './load-data.json')) as LoadData;
const scenario = __ENV.LOAD_SCENARIO || 'transfers';
const runId = __ENV.LOAD_RUN_ID || String(Date.now());
const quotaRefused = new Rate('quota_refused');

export const options: Options = {
  scenarios:
    scenario === 'quota'
      ? { quota: { executor: 'per-vu-iterations', vus: 1, iterations: 1, exec: 'quota' } }
      : {
          transfers: {
            executor: 'constant-vus',
            vus: data.scenario.vus,
            duration: data.scenario.duration,
            exec: 'transfers',
          },
        },
  thresholds: {
    http_req_failed: [`rate<${data.thresholds.errorRate}`],
    http_req_duration: [`p(95)<${data.thresholds.p95Ms}`],
    checks: ['rate==1.0'],
  },
  ...(data.tls
    ? {
        tlsAuth: [{ domains: data.tls.domains, cert: data.tls.certificate, key: __ENV.LOAD_CLIENT_KEY || '' }],
        insecureSkipTLSVerify: data.tls.insecureSkipTLSVerify,
      }
    : {}),
};

function send(r: LoadRequest, expected: number[]): RefinedResponse<ResponseType> {
  return http.request(r.method, r.url, r.body ?? null, {
    headers: r.headers,
    redirects: 0,
    tags: { name: r.name },
    responseCallback: http.expectedStatuses(...expected),
  });
}

/** the VU's access token, taken once (module state is per VU in k6) */
let token: string | undefined;
function accessToken(): string {
  if (token) return token;
  const secret = __ENV.LOAD_CLIENT_SECRET;
  if (!secret) fail('LOAD_CLIENT_SECRET is not set (the code client secret; never in the data file)');
  const a = send(authorizeRequest(data, __VU), [302, 303]);
  const code = codeFromLocation(a.headers.Location ?? a.headers.location);
  if (!code) fail(`authorize gave no code (HTTP ${a.status}): the load needs auto consent`);
  const t = send(tokenRequest(data, code, encoding.b64encode(`${data.clientId}:${secret}`)), [200]);
  const access = t.status === 200 ? (t.json('access_token') as string | null) : null;
  if (!access) fail(`the code exchange gave no access token (HTTP ${t.status})`);
  token = access;
  return access;
}

export function transfers(): void {
  const t = accessToken();
  const id = loadTransferId(runId, __VU, __ITER);
  const ok = [200, 201, data.quota.status];
  const v = send(validateRequest(data, t, __ITER), ok);
  const c = send(createRequest(data, t, id, __ITER), ok);
  const g = send(getRequest(data, t, id), ok);
  for (const r of [v, c, g]) quotaRefused.add(r.status === data.quota.status);
  check(v, { 'validate 200 (or quota)': (r) => r.status === 200 || r.status === data.quota.status });
  check(c, { 'create 201/200 (or quota)': (r) => [200, 201, data.quota.status].includes(r.status) });
  check(g, { 'get 200 (or quota)': (r) => r.status === 200 || r.status === data.quota.status });
}

export function quota(): void {
  const t = accessToken();
  const limit = data.quota.perHour;
  let accepted = 0;
  for (let i = 0; i < limit; i++) {
    const r = send(validateRequest(data, t, i), [200]);
    if (r.status === 200) accepted++;
  }
  const last = send(validateRequest(data, t, limit), [data.quota.status]);
  check(accepted, { [`the first ${limit} calls accepted`]: (n) => n === limit });
  check(last, {
    [`call ${limit + 1} refused with ${data.quota.status}`]: (r) => r.status === data.quota.status,
    'with Retry-After': (r) => (r.headers['Retry-After'] ?? r.headers['retry-after']) !== undefined,
  });
}

export default transfers;
