/**
 * What `npm run load` writes: the k6 bundle (esbuild of load/transfers.ts, k6 modules left external) and its
 * data file (lib/data/load.ts) from a full profile. Secrets never go into either: the data file names the
 * environment variables k6 reads them from.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'esbuild';
import { createTestData } from '../../lib/data/index.ts';
import { LOAD_SECRET_ENV, type LoadData } from '../../lib/data/load.ts';
import { urlOf } from '../../lib/engine/session/session.ts';
import { seal } from '../../lib/jose/index.ts';
import { mask } from '../../lib/mask/index.ts';
import { buildAuthorizeRequest } from '../../lib/oauth/index.ts';
import { ROOT } from '../../lib/root.ts';
import type { Customer, FullProfile } from '../../lib/profile/schema.ts';

export interface LoadSettings {
  seed: number;
  /** varied bodies, used round-robin */
  bodies: number;
  vus: number;
  duration: string;
  errorRate: number;
  p95Ms: number;
  /** k6 cannot be given a private CA: skip server verification (loopback mock only) */
  insecureSkipTLSVerify: boolean;
}

export const LOAD_DEFAULTS: Omit<LoadSettings, 'seed' | 'insecureSkipTLSVerify'> = {
  bodies: 20,
  vus: 4,
  duration: '30s',
  errorRate: 0.01,
  p95Ms: 500,
};

function loadCustomer(p: FullProfile): Customer {
  const c = p.customers.find((x) => !x.workflow) ?? p.customers[0];
  if (!c) throw new Error('the profile has no customer for the load');
  return c;
}

async function transferBodies(p: FullProfile, s: LoadSettings, customer: Customer): Promise<unknown[]> {
  const data = createTestData(s.seed);
  const out: unknown[] = [];
  for (let i = 0; i < s.bodies; i++) {
    const doc = {
      beneficiary_id: customer.beneficiaryId,
      account_id: mask(customer.accountId),
      ...data.transferFields(p.contract.currency),
    };
    if (p.environment !== 'uat') {
      out.push(doc);
      continue;
    }
    const key = p.clients.code.privateKey;
    const bank = p.bank.apiPublicKey;
    if (!key || !bank) throw new Error('UAT load: clients.code.privateKey and bank.apiPublicKey are needed to seal');
    out.push(await seal(doc, { signingKey: key, encryptionKey: bank }));
  }
  return out;
}

function hostOf(url: string): string {
  return new URL(url).host;
}

export async function buildLoadData(p: FullProfile, s: LoadSettings): Promise<LoadData> {
  const customer = loadCustomer(p);
  const code = p.clients.code;
  const authorize = await buildAuthorizeRequest(p, { customer, state: 'load' });
  const urls = { validate: urlOf(p, 'validate'), transfer: urlOf(p, 'transfer'), token: urlOf(p, 'token') };
  const uat = p.environment === 'uat';
  if (uat && !code.certificate) throw new Error('UAT load: clients.code.certificate is needed for mutual TLS');
  return {
    version: 1,
    profile: p.name,
    environment: p.environment,
    seed: s.seed,
    urls,
    clientId: code.clientId,
    redirectUri: code.redirectUri,
    authorizeUrls: [authorize.url],
    bodies: await transferBodies(p, s, customer),
    ...(uat
      ? {
          tls: {
            certificate: code.certificate!,
            insecureSkipTLSVerify: s.insecureSkipTLSVerify,
            domains: [...new Set([hostOf(urls.validate), hostOf(urls.token)])],
          },
        }
      : {}),
    quota: { perHour: p.contract.quota.perHour, status: p.contract.quota.status },
    thresholds: { errorRate: s.errorRate, p95Ms: s.p95Ms },
    scenario: { vus: s.vus, duration: s.duration },
    secretsFromEnv: uat ? [LOAD_SECRET_ENV.clientSecret, LOAD_SECRET_ENV.clientKey] : [LOAD_SECRET_ENV.clientSecret],
  };
}

/** bundles load/transfers.ts for k6 (ES module, k6/* external); returns the bundle's path */
export async function bundleLoad(outDir: string): Promise<string> {
  const out = join(outDir, 'transfers.js');
  await build({
    entryPoints: [join(ROOT, 'load', 'transfers.ts')],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2020',
    external: ['k6', 'k6/*'],
    outfile: out,
    logLevel: 'silent',
  });
  return out;
}

export async function writeLoad(
  p: FullProfile,
  s: LoadSettings,
  outDir: string,
): Promise<{ bundle: string; data: string }> {
  await mkdir(outDir, { recursive: true });
  const data = join(outDir, 'load-data.json');
  await writeFile(data, `${JSON.stringify(await buildLoadData(p, s), null, 2)}\n`, { mode: 0o644 });
  return { bundle: await bundleLoad(outDir), data };
}
