/**
 * certify's load step (scripts/certify.ts, step 2), everything checked before any traffic: the profiles (valid, keys
 * readable, consent possible, each its own name), the reports' folder (created, writable, an earlier run's reports
 * gone), --har's folder, --proxy (it accepts a connection). Each failure is one line naming its cause, exit 2.
 * The modules are loaded as the step needs them, not with the command line (docs/performance.md "Start-up").
 */
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { LoadedProfile } from '../engine/run/preflight.ts';
import type { Transport } from '../http/transport.ts';
import type { ProxyRoute } from '../tls/tunnel.ts';
import { ensureOutDir, OutDirError } from '../report/outdir.ts';
import type { CertifyCommand } from './certify-command.ts';

/** what the load step hands on: the profiles, and the run's transport (lib/http/transport.ts) */
export interface LoadedRun {
  loaded: LoadedProfile[];
  transport: Transport;
}

/** the run's profiles, loaded and checked, its reports' folder ready, its transport set up; or exit 2 */
export async function loadForRun(args: CertifyCommand): Promise<LoadedRun | 2> {
  // an earlier run's reports never stay in --out looking like this run's
  await clearEarlierReports(args.out);
  const loaded = await checkBeforeTraffic(args.out, args.profiles);
  if (typeof loaded === 'number') return loaded;
  // --har's folder exists (the file is written after the run)
  if (args.har && !existsSync(dirname(args.har))) {
    process.stderr.write(`certify: --har: the folder ${dirname(args.har)} does not exist\n`);
    return 2;
  }
  // --proxy: every connection to the targets through it (lib/tls/tunnel.ts), once it accepts one (or exit 2)
  const proxy = await throughProxy(args);
  if (proxy === 2) return 2;
  // --har: every exchange tapped as it crosses the wire (lib/http/record/tap.ts), written after the run
  const har = args.har ? (await import('../http/record/tap.ts')).createWireTap() : undefined;
  return { loaded, transport: { ...(har ? { har } : {}), ...(proxy ? { proxy } : {}) } };
}

async function clearEarlierReports(out: string): Promise<void> {
  const { clearReports } = await import('../report/write.ts');
  clearReports(resolve(out));
}

/** the output folder (created, writable) and every profile (valid, keys readable, consent possible): or exit 2 */
async function checkBeforeTraffic(out: string, profiles: string[]): Promise<LoadedProfile[] | 2> {
  const { loadRunnableProfiles } = await import('../engine/run/preflight.ts');
  const interactive = Boolean(process.stdin.isTTY && process.stderr.isTTY);
  const checked = await loadRunnableProfiles(profiles, { interactive });
  if (checked.errors.length) {
    for (const e of checked.errors) process.stderr.write(`certify: ${e}\n`);
    return 2;
  }
  if (sharedNames(checked.loaded, profiles)) return 2;
  // the reports' folder last: a broken profile leaves no empty folder behind
  try {
    ensureOutDir(resolve(out));
  } catch (e) {
    if (!(e instanceof OutDirError)) throw e;
    process.stderr.write(`certify: --out: ${e.message}\n`);
    return 2;
  }
  noticeConsents(checked.loaded);
  return checked.loaded;
}

/** the reports, the console and compare key on the profile's name: two profiles may not share one (said; true) */
function sharedNames(loaded: readonly LoadedProfile[], paths: readonly string[]): boolean {
  const byName = new Map<string, string[]>();
  loaded.forEach(({ profile }, i) => byName.set(profile.name, [...(byName.get(profile.name) ?? []), paths[i]!]));
  const twice = [...byName].filter(([, named]) => named.length > 1);
  for (const [name, named] of twice)
    process.stderr.write(
      `certify: profile name "${name}" is used by ${named.join(' and ')}: each profile needs its own name (its reports and results are named by it)\n`,
    );
  return twice.length > 0;
}

/** a profile with manual or script consent: how its consents will be asked */
function noticeConsents(loaded: readonly LoadedProfile[]): void {
  for (const { profile } of loaded)
    if ('target' in profile && profile.target.consent.mode !== 'auto')
      process.stderr.write(
        `certify: ${profile.name}: ${profile.target.consent.mode} consent: consents are asked one at a time; each of the ${profile.customers.length} customers consents once for the checks that only need a token, and the checks of the code flow itself ask again each time\n`,
      );
}

/** the route through --proxy (undefined without it); 2 after one line when the proxy or its CA cannot be used */
async function throughProxy(args: CertifyCommand): Promise<ProxyRoute | undefined | 2> {
  const { useProxy } = await import('./proxy-args.ts');
  const { ProxyConfigError } = await import('../tls/tunnel.ts');
  try {
    const route = await useProxy(args, (p) => p);
    if (route)
      process.stderr.write(
        `certify: through the proxy ${route.url.origin}${route.intercepting ? ' (re-terminating TLS: its CA trusted; the TLS handshake checks are not judged)' : ''}\n`,
      );
    return route;
  } catch (e) {
    if (!(e instanceof ProxyConfigError)) throw e;
    process.stderr.write(`certify: ${e.message}\n`);
    return 2;
  }
}
