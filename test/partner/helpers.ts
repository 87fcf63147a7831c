/** Partner certification tests: a partner certificate made at run time, the reference client bundled once. */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll } from 'vitest';
import { judgedResults } from '../../lib/partner/report.ts';
import { runPartner, type PartnerOptions } from '../../lib/partner/run.ts';
import { generateRsaKeyPair } from '../../lib/pki/index.ts';
import { issueCertificate } from '../../lib/pki/issue.ts';
import { worstVerdict } from '../../lib/report/summary.ts';
import { ROOT } from '../../lib/root.ts';
import { ddmmyyUtc } from '../../lib/tls/onboarding.ts';
import type { RunResults, Verdict } from '../../lib/engine/results.ts';

export interface PartnerFiles {
  dir: string;
  cert: string;
  key: string;
  certPem: string;
}

/** a self-signed 2048-bit client certificate, named as TLS-07 wants it */
export async function partnerFiles(cn = 'acme-pay-001'): Promise<PartnerFiles> {
  const dir = mkdtempSync(join(tmpdir(), 'partner-test-'));
  const keys = await generateRsaKeyPair();
  const now = Date.now();
  const c = issueCertificate({
    cn,
    keys,
    role: 'client',
    notBefore: new Date(now - 86_400_000),
    notAfter: new Date(now + 30 * 86_400_000),
  });
  const cert = join(dir, `${cn}_PublicKey_${ddmmyyUtc(c.notAfter)}.cer`);
  const key = join(dir, 'client.key');
  writeFileSync(cert, c.certPem);
  writeFileSync(key, c.privateKeyPem, { mode: 0o600 });
  return { dir, cert, key, certPem: c.certPem };
}

/**
 * The reference client as one ES module (a node process starts in ~0.1 s, tsx in seconds); under
 * node_modules/.cache so that its packages (undici, jose) resolve.
 */
export async function bundledClient(): Promise<string> {
  const dir = join(ROOT, 'node_modules', '.cache', 'partner-client');
  mkdirSync(dir, { recursive: true });
  const outfile = join(dir, `client-${process.pid}-${randomBytes(4).toString('hex')}.mjs`);
  await build({
    entryPoints: [join(ROOT, 'examples', 'partner-client', 'client.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    outfile,
    logLevel: 'silent',
  });
  return outfile;
}

export type Verdicts = Record<string, string>;

export async function certify(
  files: PartnerFiles,
  command: string[],
  o: Partial<PartnerOptions> = {},
): Promise<{ results: RunResults; verdicts: Verdicts; checks: Verdicts; clearIds: string[] }> {
  const run = await runPartner({
    certFile: files.cert,
    run: command,
    mode: 'uat',
    flow: 'code',
    clientKeyFile: files.key,
    clientCertFile: files.cert,
    timeoutMs: 60_000,
    concurrency: 4,
    ...o,
  });
  const results = await judgedResults(run, 'should');
  const verdicts: Verdicts = {};
  const checks: Verdicts = {};
  for (const c of results.profiles[0]!.results) {
    const id = c.requirements[0]!;
    // per requirement, the worst of its checks (CLI-02 has one check per variant)
    verdicts[id] = worstVerdict([verdicts[id] as Verdict | undefined, c.verdict].filter((v) => v !== undefined))!;
    checks[c.checkId] = c.verdict;
  }
  return { results, verdicts, checks, clearIds: run.clearIds };
}

/**
 * A test file's fixture: the partner's certificate files and the bundled reference client, made before the file's
 * tests and removed after them.
 */
export function useReferenceClient(cn?: string): { files: () => PartnerFiles; client: () => string[] } {
  let files: PartnerFiles | undefined;
  let bundlePath: string | undefined;
  beforeAll(async () => {
    const [f, bundle] = await Promise.all([partnerFiles(cn), bundledClient()]);
    files = f;
    bundlePath = bundle;
  }, 60_000);
  afterAll(() => {
    if (files) rmSync(files.dir, { recursive: true, force: true });
    if (bundlePath) rmSync(bundlePath, { force: true });
  });
  return { files: () => files!, client: () => [process.execPath, bundlePath!] };
}

const FAILING = new Set(['fail', 'warn', 'error', 'unexpected-pass']);
/** the ids whose verdict breaks a rule */
export const failing = (v: Verdicts): string[] => Object.keys(v).filter((id) => FAILING.has(v[id]!));
