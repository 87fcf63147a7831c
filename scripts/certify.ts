/**
 * npm run certify -- [options]   (see --help)
 * Exit codes: 0 PASS, 1 FAIL, 2 configuration error (nothing sent), 3 nothing ran, 4 target unreachable,
 * 5 INCOMPLETE (a MUST not verified), 130 / 143 INTERRUPTED (SIGINT / SIGTERM: reports written with what was verified).
 */
import { appendFileSync, existsSync, readdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ROOT } from '../lib/root.ts';
import type { CertifyArgs } from '../lib/cli/args.ts';
import { callersPath } from '../lib/cli/cwd.ts';
import { CliError } from '../lib/cli/errors.ts';
import { DEFAULT_OUT, DEFAULT_PROFILES } from '../lib/cli/options.ts';
import { ensureOutDir, OutDirError } from '../lib/report/outdir.ts';
import type { LoadedProfile } from '../lib/engine/run/preflight.ts';
import type { CheckDefinition } from '../lib/engine/check.ts';
import type { MockThread } from '../lib/mock/server/thread.ts';
import type { RunResults } from '../lib/engine/results.ts';
import { trafficLine } from '../lib/report/traffic.ts';
import { onSignals } from '../lib/engine/run/interrupt.ts';
import { beginStartup, type ListModules, type RunModules } from './startup.ts';

/** suite names are the folders of suites/ (read without loading the suites, so a usage error answers at once) */
const SUITES_DIR = resolve(ROOT, 'suites');
const suiteNames = readdirSync(SUITES_DIR, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

type Args = CertifyArgs & { typedProfiles: string[] };

/** parse the command line, load the profiles, certify, write the reports (the start-up: scripts/startup.ts) */
async function main(argv: string[]): Promise<number> {
  const startup = await beginStartup(argv);
  try {
    const args = await parseCommandLine(argv);
    if (typeof args === 'number') return args;
    if (args.list) return await listChecks(await startup.forListing(), args);
    // an earlier run's reports never stay in --out looking like this run's
    const { clearReports } = await import('../lib/report/write.ts');
    clearReports(resolve(args.out));
    const loaded = await checkBeforeTraffic(args.out, args.profiles);
    if (typeof loaded === 'number') return loaded;
    // --har's folder exists (the file is written after the run)
    if (args.har && !existsSync(dirname(args.har))) {
      process.stderr.write(`certify: --har: the folder ${dirname(args.har)} does not exist\n`);
      return 2;
    }
    // --proxy: every connection to the targets through it (lib/tls/tunnel.ts), once it accepts one (or exit 2)
    if ((await throughProxy(args)) === 2) return 2;
    // --har: every exchange tapped as it crosses the wire (lib/http/record/tap.ts), written after the run
    if (args.har) (await import('../lib/http/record/tap.ts')).startWireTap();
    return await certifyAndReport(await startup.forRun(loaded), args, loaded, startup.mockThread);
  } finally {
    await startup.shutdown();
  }
}

/** the command line, its paths read from the caller's folder; or the exit code of --help (0) or a usage error (2) */
async function parseCommandLine(argv: string[]): Promise<Args | number> {
  const { parseCertifyArgs } = await import('../lib/cli/args.ts');
  let args;
  try {
    args = parseCertifyArgs(argv, { knownSuites: suiteNames });
  } catch (e) {
    if (!(e instanceof CliError)) throw e;
    process.stderr.write(`certify: ${e.message}\n`);
    return 2;
  }
  if ('help' in args) {
    process.stdout.write(args.help);
    return 0;
  }
  if (args.freshKeys) process.env.HARNESS_FRESH_KEYS = '1';
  return fromCallersFolder(args);
}

/**
 * Paths the user typed are relative to the folder they typed them in: `npm run` moves to the package root and
 * says where it was called from in INIT_CWD. The defaults (the embedded mocks' profiles, reports/) stay at the root.
 */
function fromCallersFolder(args: CertifyArgs): Args {
  return {
    ...args,
    profiles: args.profiles.map((p) => callersPath('certify', p, DEFAULT_PROFILES)),
    out: callersPath('certify', args.out, [DEFAULT_OUT]),
    ...(args.proxyCa !== undefined ? { proxyCa: callersPath('certify', args.proxyCa, []) } : {}),
    ...(args.har !== undefined ? { har: callersPath('certify', args.har, []) } : {}),
    // as typed, for the results' filters (compare keys on them; a machine's folders are not part of a run)
    typedProfiles: args.profiles,
  };
}

/** routes the run through --proxy (nothing without it); 2 after one line when the proxy or its CA cannot be used */
async function throughProxy(args: CertifyArgs): Promise<void | 2> {
  const { useProxy } = await import('../lib/cli/proxy-args.ts');
  const { ProxyConfigError } = await import('../lib/tls/tunnel.ts');
  try {
    const route = await useProxy(args, (p) => p);
    if (route)
      process.stderr.write(
        `certify: through the proxy ${route.url.origin}${route.intercepting ? ' (re-terminating TLS: its CA trusted; the TLS handshake checks are not judged)' : ''}\n`,
      );
  } catch (e) {
    if (!(e instanceof ProxyConfigError)) throw e;
    process.stderr.write(`certify: ${e.message}\n`);
    return 2;
  }
}

/**
 * --har: every exchange of the run as HAR 1.2 (lib/report/har.ts writeWireHar), from the wire tap; a file that cannot be
 * written is said, not fatal
 */
async function writeHarFile(
  file: string,
  results: RunResults,
  keepTokens: boolean,
  loaded: LoadedProfile[],
): Promise<void> {
  const { envelopeOpener, writeWireHar } = await import('../lib/report/har.ts');
  const { startWireTap, stopWireTap, wireTap } = await import('../lib/http/record/tap.ts');
  // the sealed answers the run did not open (bursts, raw calls) are opened with the profiles' client keys (an
  // embedded mock's keys are made at run time: its answers stay as the run left them)
  const open = envelopeOpener(
    loaded.flatMap(({ profile }) =>
      'clients' in profile && profile.bank.apiPublicKey
        ? [
            {
              decryptionKeys: Object.values(profile.clients).flatMap((c) => (c?.privateKey ? [c.privateKey] : [])),
              verificationKey: profile.bank.apiPublicKey,
            },
          ]
        : [],
    ),
  );
  try {
    const n = await writeWireHar(file, (wireTap() ?? startWireTap()).exchanges, results, { keepTokens, open });
    stopWireTap();
    process.stdout.write(`har: ${file} (${n} exchanges${keepTokens ? '; tokens kept, --har-keep-tokens' : ''})\n`);
  } catch (e) {
    process.stderr.write(
      `certify: --har ${file}: could not write it (${(e as NodeJS.ErrnoException).code ?? String(e)})\n`,
    );
  }
}

function selectionOf(args: CertifyArgs): { suites: string[]; only: string[]; grep?: string } {
  return { suites: args.suites, only: args.only, ...(args.grep ? { grep: args.grep } : {}) };
}

/** --list: what would run against each profile, and why not, without traffic */
async function listChecks(m: ListModules, args: CertifyArgs): Promise<number> {
  try {
    process.stdout.write(
      await m.listRun(m.allChecks, args.profiles, selectionOf(args), {
        long: args.long,
        destructive: args.destructive,
      }),
    );
    return 0;
  } catch (e) {
    if (e instanceof m.ProfileError) {
      process.stderr.write(`certify: ${e.message}\n${e.issues.map((i) => `  ${i}\n`).join('')}`);
      return 2;
    }
    throw e;
  }
}

/** the run: consents announced, every profile certified (progress as it goes), the reports written */
async function certifyAndReport(
  m: RunModules,
  args: Args,
  loaded: LoadedProfile[],
  mockThread: MockThread | undefined,
): Promise<number> {
  const selected = m.allChecks.filter((c) => m.selects(selectionOf(args), c));
  await announceConsents(loaded, selected, { long: args.long, destructive: args.destructive }, mockThread);
  const progress = m.createProgress(process.stdout, { tty: Boolean(process.stdout.isTTY) });
  const perSuite: Record<string, number> = {};
  for (const c of selected) perSuite[c.suite] = (perSuite[c.suite] ?? 0) + 1;
  const interrupt = onSignals('certify');
  const outcome = await m.certify({
    interrupt: interrupt.signal,
    // --long without a test clock: a real wait is said as it starts, so that a quiet console is not a hang
    onWait: (what) => process.stderr.write(`certify: ${what}\n`),
    checks: m.allChecks,
    profiles: args.typedProfiles,
    suites: args.suites,
    only: args.only,
    ...(args.grep ? { grep: args.grep } : {}),
    long: args.long,
    destructive: args.destructive,
    failOn: args.failOn,
    ...(args.deadlineSeconds !== undefined ? { deadlineSeconds: args.deadlineSeconds } : {}),
    ...(args.seed !== undefined ? { seed: args.seed } : {}),
    ...(mockThread ? { mockThread } : {}),
    loaded,
    onProfileStart: (profile) => progress.profileStarted(profile, perSuite),
    onResult: (profile, r) => progress.checkDone(profile, r),
    onProfileDone: (run) => {
      progress.profileDone(run.profile, m.summaryLine(run, args.failOn));
      // what the run spent at the target: calls per operation, the concurrency it adapted to (docs/design.md)
      const spent = trafficLine(run);
      if (spent) process.stdout.write(`${spent}\n`);
    },
  });
  // interrupted: the reports are written with what was verified, then the process ends (which stops sending)
  const ended = outcome.results?.interrupted ? undefined : mockThread?.shutdown();
  if (!outcome.results) {
    interrupt.done();
    for (const e of outcome.configErrors) process.stderr.write(`certify: ${e}\n`);
    return outcome.exitCode;
  }
  const key = outcome.signingKey;
  // the end of the log: what failed, what was not verified, what broke in the run (nothing when all is well)
  const overall = m.overallLine(outcome.results);
  const failures = [...m.failureLines(outcome.results), ...(overall ? [overall] : [])];
  if (failures.length) process.stdout.write(`${failures.join('\n')}\n`);
  let written;
  try {
    written = await m.writeReports(
      outcome.results,
      resolve(args.out),
      key ? { signingKeyPem: key.pem, ...(key.kid ? { signingKid: key.kid } : {}) } : {},
    );
  } catch (e) {
    // results that fail their own schema are never written as results.json (kept as results.invalid.json): a harness
    // error, said loudly, and the run fails
    if (!(e instanceof m.ResultsError)) throw e;
    process.stderr.write(`certify: ${e.message}\n`);
    if (outcome.results.interrupted) process.exit(1);
    interrupt.done();
    await ended;
    return 1;
  }
  process.stdout.write(
    `reports: ${written.junit}, ${written.html}, ${written.json} (sha256 ${written.sha256})${written.jws ? `, ${written.jws}` : ''}\n`,
  );
  if (args.har) await writeHarFile(args.har, outcome.results, args.harKeepTokens === true, loaded);
  if (outcome.exitCode === 3) process.stderr.write('certify: no check ran\n');
  await toCi(outcome.results);
  if (outcome.results.interrupted) {
    process.stderr.write(
      `certify: INTERRUPTED by ${outcome.results.interrupted.signal}: the reports hold what was verified until then\n`,
    );
    process.exit(outcome.exitCode);
  }
  // a signal while the reports were written (the run had ended) no longer stops anything: the handler goes
  interrupt.done();
  await ended;
  return outcome.exitCode;
}

/** in GitHub Actions: the step summary (GITHUB_STEP_SUMMARY) and one annotation per broken rule */
async function toCi(results: RunResults): Promise<void> {
  const summaryFile = process.env.GITHUB_STEP_SUMMARY;
  if (!summaryFile && process.env.GITHUB_ACTIONS !== 'true') return;
  const ci = await import('../lib/report/ci.ts');
  if (process.env.GITHUB_ACTIONS === 'true') {
    const lines = ci.annotations(results);
    if (lines.length) process.stdout.write(`${lines.join('\n')}\n`);
  }
  if (!summaryFile) return;
  try {
    appendFileSync(summaryFile, ci.stepSummary(results), 'utf8');
  } catch (e) {
    process.stderr.write(`certify: GITHUB_STEP_SUMMARY ${summaryFile}: could not append the summary (${String(e)})\n`);
  }
}

/** the output folder (created, writable) and every profile (valid, keys readable, consent possible): or exit 2 */
async function checkBeforeTraffic(out: string, profiles: string[]): Promise<LoadedProfile[] | 2> {
  const { loadRunnableProfiles } = await import('../lib/engine/run/preflight.ts');
  const interactive = Boolean(process.stdin.isTTY && process.stderr.isTTY);
  const checked = await loadRunnableProfiles(profiles, { interactive });
  if (checked.errors.length) {
    for (const e of checked.errors) process.stderr.write(`certify: ${e}\n`);
    return 2;
  }
  // the reports, the console and compare key on the profile's name: two profiles may not share one
  const byName = new Map<string, string[]>();
  checked.loaded.forEach(({ profile }, i) =>
    byName.set(profile.name, [...(byName.get(profile.name) ?? []), profiles[i]!]),
  );
  const twice = [...byName].filter(([, paths]) => paths.length > 1);
  for (const [name, paths] of twice)
    process.stderr.write(
      `certify: profile name "${name}" is used by ${paths.join(' and ')}: each profile needs its own name (its reports and results are named by it)\n`,
    );
  if (twice.length) return 2;
  // the reports' folder last: a broken profile leaves no empty folder behind
  try {
    ensureOutDir(resolve(out));
  } catch (e) {
    if (!(e instanceof OutDirError)) throw e;
    process.stderr.write(`certify: --out: ${e.message}\n`);
    return 2;
  }
  for (const { profile } of checked.loaded)
    if ('target' in profile && profile.target.consent.mode !== 'auto')
      process.stderr.write(
        `certify: ${profile.name}: ${profile.target.consent.mode} consent: consents are asked one at a time; each of the ${profile.customers.length} customers consents once for the checks that only need a token, and the checks of the code flow itself ask again each time\n`,
      );
  return checked.loaded;
}

/**
 * Before a run with manual or script consent: how many consents it will ask for (counted against the embedded mock
 * of each environment with the same checks), so that a person knows what is coming
 */
async function announceConsents(
  loaded: LoadedProfile[],
  checks: readonly CheckDefinition[],
  options: { long: boolean; destructive: boolean },
  mockThread: MockThread | undefined,
): Promise<void> {
  const asking = loaded.filter(({ profile }) => 'target' in profile && profile.target.consent.mode !== 'auto');
  if (asking.length === 0) return;
  const { countConsents } = await import('../lib/engine/run/consents.ts');
  for (const { profile } of asking) {
    try {
      const n = await countConsents(profile.environment, checks, options, mockThread ? { mockThread } : {});
      process.stderr.write(
        `certify: ${profile.name}: this run will ask for about ${n} consent${n === 1 ? '' : 's'}, one at a time (counted against the embedded mock with the same checks)\n`,
      );
    } catch (e) {
      process.stderr.write(`certify: ${profile.name}: the consents could not be counted up front: ${String(e)}\n`);
    }
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`certify: internal error: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 1;
  },
);
