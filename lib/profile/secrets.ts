/**
 * What in a profile is secret (to register with the redactor before any call is made), and what a report
 * may show about the assumptions a run made (contract values in force, overrides, paths: never secrets).
 */
import { Contract, Paths, type AnyProfile, type FullProfile } from './schema.ts';

export interface ProfileSecret {
  value: string;
  /** 'client-secret' | 'credentials' (base64 id:secret) | 'private-key' | 'account-id' | 'emirates-id'
   *  (ids are replaced by their mask) */
  kind: string;
  /** whose identifier it is (e.g. "customer alice"), for the marker that replaces a clear id in the evidence */
  whose?: string;
}

export function secretsOf(p: FullProfile): ProfileSecret[] {
  const out: ProfileSecret[] = [];
  const add = (value: string | undefined, kind: string, whose?: string): void => {
    if (value && !out.some((s) => s.value === value)) out.push({ value, kind, ...(whose ? { whose } : {}) });
  };
  // the customers' ids first: an id that is also a client's oauth_metadata is named by its customer
  for (const cu of p.customers) {
    add(cu.accountId, 'account-id', `customer ${cu.name}`);
    add(cu.emiratesId, 'emirates-id', `customer ${cu.name}`);
  }
  const clients = [p.clients.code, p.clients.partner, p.clients.internal];
  for (const c of clients) {
    if (!c) continue;
    add(c.clientSecret, 'client-secret');
    add(c.privateKey, 'private-key');
    // the Basic credentials as they travel, so that an echo of them is caught wherever it appears
    add(Buffer.from(`${c.clientId}:${c.clientSecret}`, 'utf8').toString('base64'), 'credentials');
  }
  for (const c of [p.clients.partner, p.clients.internal]) {
    const m = c?.oauthMetadata;
    if (m && 'account_id' in m) add(m.account_id, 'account-id', `the oauth_metadata of ${c!.clientId}`);
    if (m && 'emirates_id' in m) add(m.emirates_id, 'emirates-id', `the oauth_metadata of ${c!.clientId}`);
  }
  const rs = p.target.oauth.introspection?.client;
  if (rs) {
    add(rs.clientSecret, 'client-secret');
    add(rs.privateKey, 'private-key');
    if (rs.clientSecret)
      add(Buffer.from(`${rs.clientId}:${rs.clientSecret}`, 'utf8').toString('base64'), 'credentials');
  }
  add(p.report.signingKey, 'private-key');
  add(p.bank.apiPrivateKey, 'private-key');
  const neg = p.tls?.negativeCertificates;
  if (neg) {
    for (const n of [neg.weak1024, neg.expired, neg.untrustedCa, neg.unregistered]) {
      add(n?.privateKey, 'private-key');
      add(n?.clientSecret, 'client-secret');
      if (n?.clientId && n.clientSecret)
        add(Buffer.from(`${n.clientId}:${n.clientSecret}`, 'utf8').toString('base64'), 'credentials');
    }
  }
  return out;
}

/** Leaf paths where `actual` differs from `defaults` (arrays compared whole). */
function differences(actual: unknown, defaults: unknown, prefix: string, out: string[]): void {
  const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (isObj(actual) && isObj(defaults)) {
    const keys = new Set([...Object.keys(actual), ...Object.keys(defaults)]);
    for (const k of [...keys].sort()) differences(actual[k], defaults[k], prefix ? `${prefix}.${k}` : k, out);
    return;
  }
  if (JSON.stringify(actual) !== JSON.stringify(defaults)) {
    out.push(
      `${prefix}: ${JSON.stringify(actual)} (contract default ${defaults === undefined ? 'unset' : JSON.stringify(defaults)})`,
    );
  }
}

/** The contract values in force, the settings that differ from the contract defaults, and the paths. */
export function assumptionsOf(p: AnyProfile): Record<string, unknown> {
  const overrides: string[] = [];
  differences(p.contract, Contract.parse({}), 'contract', overrides);
  const out: Record<string, unknown> = {
    environment: p.environment,
    contract: p.contract,
    knownDeviations: p.knownDeviations.map((d) => d.id),
  };
  if ('target' in p) {
    differences(p.target.paths, Paths.parse({}), 'target.paths', overrides);
    out.paths = p.target.paths;
    out.baseUrl = p.target.baseUrl;
    if (p.target.oauthBaseUrl) out.oauthBaseUrl = p.target.oauthBaseUrl;
    out.consent = p.target.consent.mode;
    out.testClock = Boolean(p.target.clock);
    out.tokenEndpoints = { partner: p.clients.partner.tokenEndpoint, internal: p.clients.internal?.tokenEndpoint };
  } else {
    out.embedded = { faults: p.embedded.faults };
  }
  out.overrides = overrides;
  return out;
}
