/**
 * The k6 load scripts: request builders, the generated bundle and data file (no secret inside), and the bundle run
 * once per scenario against the embedded mock through the k6 TEST DOUBLE (test/load/k6-double.ts, not a load runner).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { LoadData } from '../../lib/data/load.ts';
import { prepare, type PreparedTarget } from '../../lib/engine/run/prepare.ts';
import { classify } from '../../lib/jose/index.ts';
import { startMockThread, type MockThread } from '../../lib/mock/server/thread.ts';
import { secretsOf } from '../../lib/profile/secrets.ts';
import { EmbeddedProfile, type Environment, type FullProfile } from '../../lib/profile/schema.ts';
import { codeFromLocation, createRequest, tokenRequest, transferUrl, validateRequest } from '../../load/requests.ts';
import { LOAD_DEFAULTS, writeLoad } from '../../scripts/load/generate.ts';
import { runBundle } from './k6-double.ts';

const cleanup: (() => Promise<unknown>)[] = [];
/** the mocks on a worker thread: the double blocks this thread while k6's synchronous calls are under way */
let thread: MockThread | undefined;
afterAll(async () => {
  for (const c of cleanup.reverse()) await c();
  await thread?.shutdown();
});

async function generated(
  env: Environment,
): Promise<{ full: FullProfile; dir: string; data: LoadData; text: string; bundle: string }> {
  const prepared: PreparedTarget = await prepare(
    EmbeddedProfile.parse({ name: `load-${env}`, environment: env, embedded: {} }),
    {},
    { mockThread: (thread ??= startMockThread()) },
  );
  cleanup.push(() => prepared.close());
  const dir = await mkdtemp(join(tmpdir(), 'load-'));
  cleanup.push(() => rm(dir, { recursive: true, force: true }));
  const full = prepared.runtime.profile;
  const out = await writeLoad(full, { ...LOAD_DEFAULTS, bodies: 5, seed: 1234, insecureSkipTLSVerify: true }, dir);
  const text = await readFile(out.data, 'utf8');
  return { full, dir, data: JSON.parse(text) as LoadData, text, bundle: out.bundle };
}

function noSecretIn(full: FullProfile, text: string, what: string): void {
  for (const s of secretsOf(full)) {
    if (s.kind === 'account-id' || s.kind === 'emirates-id') continue;
    expect(text.includes(s.value), `${what} contains a ${s.kind}`).toBe(false);
  }
  expect(text, what).not.toMatch(/PRIVATE KEY|mockAT_|mockRT_|mockAC_/);
}

describe('load request builders', () => {
  const d = {
    urls: {
      validate: 'https://b/v1/transfers/validate',
      transfer: 'https://b/v1/transfers/{transfer_id}',
      token: 'https://b/t',
    },
    clientId: 'cid',
    redirectUri: 'https://app/cb',
    bodies: [{ a: 1 }, { a: 2 }],
  } as unknown as LoadData;
  test('code from a redirect; token form with Basic auth; bodies round-robin; ids encoded', () => {
    expect(codeFromLocation('https://app/cb?state=s&code=ab%2Bc&x=1')).toBe('ab+c');
    expect(codeFromLocation('https://app/cb?error=access_denied')).toBeUndefined();
    expect(codeFromLocation(undefined)).toBeUndefined();
    const t = tokenRequest(d, 'c/1', 'Y2lkOnM=');
    expect(t.headers.authorization).toBe('Basic Y2lkOnM=');
    expect(t.body).toBe('grant_type=authorization_code&code=c%2F1&redirect_uri=https%3A%2F%2Fapp%2Fcb');
    expect(validateRequest(d, 'tok', 3).body).toBe('{"a":2}');
    expect(validateRequest(d, 'tok', 0).headers['x-gateway-client-id']).toBe('cid');
    expect(createRequest(d, 'tok', 'A B', 0).url).toBe('https://b/v1/transfers/A%20B');
    expect(transferUrl(d, 'x')).toBe('https://b/v1/transfers/x');
  });
});

describe.concurrent('k6 bundle against the embedded mock (through the k6 test double)', { timeout: 120_000 }, () => {
  for (const env of ['sandbox', 'uat'] as const) {
    test(`${env}: data and bundle hold no secret; quota and transfers scenarios pass`, async () => {
      const g = await generated(env);
      noSecretIn(g.full, g.text, 'load-data.json');
      noSecretIn(g.full, await readFile(g.bundle, 'utf8'), 'transfers.js');
      expect(g.data.seed).toBe(1234);
      expect(g.data.bodies).toHaveLength(5);
      for (const b of g.data.bodies) expect(classify(b).kind).toBe(env === 'uat' ? 'jwe' : 'json');
      const code = g.full.clients.code;
      const env_ = {
        LOAD_DATA: join(g.dir, 'load-data.json'),
        LOAD_CLIENT_SECRET: code.clientSecret,
        ...(env === 'uat' ? { LOAD_CLIENT_KEY: code.privateKey! } : {}),
      };
      const q = await runBundle(g.bundle, { env: { ...env_, LOAD_SCENARIO: 'quota' }, iterations: 1 });
      expect(q.checks.filter((c) => !c.ok)).toEqual([]);
      const validates = q.requests.filter((r) => r.name === 'validate');
      expect(validates).toHaveLength(g.data.quota.perHour + 1);
      expect(validates.at(-1)!.status).toBe(429);
      expect(q.requests.filter((r) => r.failed)).toEqual([]);
      // a fresh quota window for the transfers scenario
      const res = await fetch(g.full.target.clock!, {
        method: 'POST',
        body: JSON.stringify({ advance_seconds: 3601 }),
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status).toBe(204);
      const t = await runBundle(g.bundle, { env: { ...env_, LOAD_SCENARIO: 'transfers' }, iterations: 3 });
      expect(t.checks.filter((c) => !c.ok)).toEqual([]);
      expect(t.requests.filter((r) => r.failed)).toEqual([]);
      expect(t.requests.map((r) => r.name)).toEqual([
        'authorize',
        'token',
        ...Array(3).fill(['validate', 'create', 'get']).flat(),
      ]);
      expect(t.requests.filter((r) => r.name === 'create').map((r) => r.status)).toEqual([201, 201, 201]);
      expect(t.options.thresholds).toEqual({
        http_req_failed: ['rate<0.01'],
        http_req_duration: ['p(95)<500'],
        checks: ['rate==1.0'],
      });
    });
  }
  test('without LOAD_CLIENT_SECRET the script stops with a clear message', async () => {
    const g = await generated('sandbox');
    await expect(
      runBundle(g.bundle, { env: { LOAD_DATA: join(g.dir, 'load-data.json') }, iterations: 1 }),
    ).rejects.toThrow(/LOAD_CLIENT_SECRET is not set/);
  });
});
