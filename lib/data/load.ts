/**
 * The data file of the k6 load scripts (load/), written by `npm run load` (scripts/load.ts). Nothing secret is in
 * it: client secrets, private keys and tokens reach k6 only through environment variables (names listed in
 * `secretsFromEnv`). In UAT the bodies are sealed by the harness (k6 has no JOSE library), signed with the code
 * client's key and encrypted to the bank's key; they carry a masked account id only.
 * Type-only and import-free: the k6 scripts (own tsconfig, k6 types) import it too.
 */
export interface LoadData {
  version: 1;
  profile: string;
  environment: 'sandbox' | 'uat';
  /** lib/data seed of the generated bodies (replayable) */
  seed: number;
  /** the transfers API: validate URL, transfer URL with {transfer_id} */
  urls: { validate: string; transfer: string; token: string };
  /** the code client's id (an identifier, not a secret) and its redirect URI */
  clientId: string;
  redirectUri: string;
  /** prepared /authorize URLs for the load customer (auto consent); UAT: account_id encrypted by the harness */
  authorizeUrls: string[];
  /** transfer request documents (sandbox: plain JSON; UAT: sealed JWE JSON envelopes), used round-robin */
  bodies: unknown[];
  /** UAT: the client certificate for mutual TLS (its key comes from LOAD_CLIENT_KEY) */
  tls?: { certificate: string; insecureSkipTLSVerify: boolean; domains: string[] };
  quota: { perHour: number; status: number };
  thresholds: { errorRate: number; p95Ms: number };
  scenario: { vus: number; duration: string };
  /** environment variables k6 must be given */
  secretsFromEnv: string[];
}

export const LOAD_SECRET_ENV = { clientSecret: 'LOAD_CLIENT_SECRET', clientKey: 'LOAD_CLIENT_KEY' } as const;
