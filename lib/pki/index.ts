/**
 * Test PKI generated at run time (never committed): CAs, the TLS server certificate, the bank's API key,
 * registered and negative client certificates. Keys come from node:crypto (native, generated in parallel) through
 * a per-machine cache (key-cache.ts, keygen.ts); certificates are built at every run and signed with node-forge
 * (issue.ts, loaded when a PKI is made here: issueCertificate and selfSignedCertificate are imported from there).
 */
import { mkdir, writeFile, chmod } from 'node:fs/promises';
import { join } from 'node:path';
import type { Issued, KeyPair, TestPki } from './types.ts';
import type { KeyCacheOptions } from './key-cache.ts';

export type { Issued, KeyPair, TestPki } from './types.ts';
export { certSha256, generateRsaKeyPair } from './keygen.ts';

/**
 * Generates a PKI: 10 RSA keys (from the per-machine key cache, key-cache.ts, unless `cache` is false; generated on
 * the thread pool when the cache has none or `fresh` asks for new ones), then certificates built by forge, signed
 * natively (issue.ts). `bits` is the size of its keys but the weak client's (1024 always); only a run that sends
 * nothing asks for less than 2048 (testPkiForListing).
 */
export async function generateTestPki(
  bits = 2048,
  options: KeyCacheOptions & { cache?: boolean } = {},
): Promise<TestPki> {
  return (await import('./issue.ts')).generateTestPki(bits, options);
}

let memo: Promise<TestPki> | undefined;

/** The process-wide test PKI: generated once per process, then shared. */
export function testPki(): Promise<TestPki> {
  return processPki(2048);
}

/** the process-wide PKI, generated at the first call with its `bits` */
function processPki(bits: number): Promise<TestPki> {
  return memo ?? remember(generateTestPki(bits));
}

function remember(pki: Promise<TestPki>): Promise<TestPki> {
  memo = pki;
  // a failed generation must not poison later callers
  pki.catch(() => {
    if (memo === pki) memo = undefined;
  });
  return pki;
}

/**
 * Makes `pki` (2048-bit keys, as testPki's) the process-wide test PKI, unless the process already has one: certify's
 * is made on the mocks' worker thread (lib/mock/server/thread.ts), which would otherwise wait idle while this thread loads
 * its modules. Should it fail, the next testPki() generates one here.
 */
export function adoptTestPki(pki: Promise<TestPki>): void {
  if (!memo) remember(pki);
  // one not adopted is dropped, and its failure with it
  else pki.catch(() => {});
}

/**
 * The process-wide test PKI of a process that sends nothing (`certify --list` describes the embedded mocks without
 * traffic): the same certificates and roles with 1024-bit keys, generated in a tenth of the time; later testPki()
 * calls share it. Never for a run: 1024-bit keys are what the weak-client checks refuse.
 */
export function testPkiForListing(): Promise<TestPki> {
  return processPki(1024);
}

/**
 * Writes every PEM of the PKI into `dir` (mode 0o600; dir created 0o700).
 * Returns name → path, names like `server.cert`, `server.key`, `server.pub`, `clients.code.cert`, `attacker.key`.
 */
export async function writePkiFiles(pki: TestPki, dir: string): Promise<Record<string, string>> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const entries: [string, string][] = [];
  const add = (name: string, kp: KeyPair | Issued) => {
    if ('certPem' in kp) entries.push([`${name}.cert`, kp.certPem]);
    entries.push([`${name}.key`, kp.privateKeyPem], [`${name}.pub`, kp.publicKeyPem]);
  };
  add('bankCa', pki.bankCa);
  add('server', pki.server);
  add('bankApi', pki.bankApi);
  add('partnerCa', pki.partnerCa);
  add('untrustedCa', pki.untrustedCa);
  for (const [k, v] of Object.entries(pki.clients)) add(`clients.${k}`, v);
  for (const [k, v] of Object.entries(pki.negative)) add(`negative.${k}`, v);
  add('attacker', pki.attacker);

  const out: Record<string, string> = {};
  await Promise.all(
    entries.map(async ([name, pem]) => {
      const path = join(dir, `${name}.pem`);
      await writeFile(path, pem, { mode: 0o600 });
      await chmod(path, 0o600); // writeFile's mode only applies on creation
      out[name] = path;
    }),
  );
  return out;
}
