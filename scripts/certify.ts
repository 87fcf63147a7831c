/**
 * npm run certify -- [options]   (see --help)
 * Exit codes: 0 PASS, 1 FAIL, 2 configuration error (nothing sent), 3 nothing ran, 4 target unreachable,
 * 5 INCOMPLETE (a MUST not verified).
 */
import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { ROOT } from '../lib/root.ts';
import { CliError, parseCertifyArgs, type CertifyArgs } from '../lib/cli/args.ts';
import { ensureOutDir, OutDirError } from '../lib/report/outdir.ts';
import type { LoadedProfile } from '../lib/engine/preflight.ts';
import type { CheckDefinition } from '../lib/engine/check.ts';
import type { MockThread } from '../lib/mock/thread.ts';
import { trafficLine } from '../lib/report/traffic.ts';

/** suite names are the folders of suites/ (read without loading the suites, so a usage error answers at once) */
const SUITES_DIR = resolve(ROOT, 'suites');
const suiteNames = readdirSync(SUITES_DIR, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

async function main(argv: string[]): Promise<number> {
  let args;
  try {
    args = parseCertifyArgs(argv, { knownSuites: suiteNames });
  } catch (e) {
    if (e instanceof CliError) {
      process.stderr.write(`certify: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
  if ('help' in args) {
    process.stdout.write(args.help);
    return 0;
  }
  // everything that needs no traffic is checked first (exit 2): the reports' folder, then the profiles
  let loaded: LoadedProfile[] | undefined;
  if (!args.list) {
    const checked = await checkBeforeTraffic(args.out, args.profiles);
    if (typeof checked === 'number') return checked;
    loaded = checked;
  }
  // the run-time test PKI (for embedded profiles) is generated on the thread pool while the modules load, and the
  // embedded mocks' worker thread loads its own modules meanwhile
  const needsMock = args.list || (loaded ?? []).some((l) => 'embedded' in l.profile);
  if (needsMock) import('../lib/pki/index.ts').then((m) => m.testPki()).catch(() => {});
  const mockThread = args.list || !needsMock ? undefined : (await import('../lib/mock/thread.ts')).startMockThread();
  try {
    const m = await loadModules();
    return args.list ? await listChecks(m, args) : await runAndReport(m, args, loaded ?? [], mockThread);
  } finally {
    // the worker thread would keep the process alive: it ends whatever happened above
    await mockThread?.shutdown();
  }
}

/** the heavy modules (the engine, the suites, the report writers), loaded once the command line is known to be good */
async function loadModules() {
  const [certify, list, errors, summary, write, progress, suites, select] = await Promise.all([
    import('../lib/engine/certify.ts'),
    import('../lib/engine/list.ts'),
    import('../lib/profile/errors.ts'),
    import('../lib/report/summary.ts'),
    import('../lib/report/write.ts'),
    import('../lib/cli/progress.ts'),
    import('../suites/index.ts'),
    import('../lib/engine/select.ts'),
  ]);
  return { ...certify, ...list, ...errors, ...summary, ...write, ...progress, ...suites, ...select };
}
type Modules = Awaited<ReturnType<typeof loadModules>>;

function selectionOf(args: CertifyArgs): { suites: string[]; only: string[]; grep?: string } {
  return { suites: args.suites, only: args.only, ...(args.grep ? { grep: args.grep } : {}) };
}

/** --list: what would run against each profile, and why not, without traffic */
async function listChecks(m: Modules, args: CertifyArgs): Promise<number> {
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
async function runAndReport(
  m: Modules,
  args: CertifyArgs,
  loaded: LoadedProfile[],
  mockThread: MockThread | undefined,
): Promise<number> {
  const selected = m.allChecks.filter((c) => m.selects(selectionOf(args), c));
  await announceConsents(loaded, selected, { long: args.long, destructive: args.destructive }, mockThread);
  const progress = m.createProgress(process.stdout, { tty: Boolean(process.stdout.isTTY) });
  const perSuite: Record<string, number> = {};
  for (const c of selected) perSuite[c.suite] = (perSuite[c.suite] ?? 0) + 1;
  const outcome = await m.certify({
    checks: m.allChecks,
    profiles: args.profiles,
    suites: args.suites,
    only: args.only,
    ...(args.grep ? { grep: args.grep } : {}),
    long: args.long,
    destructive: args.destructive,
    failOn: args.failOn,
    ...(args.deadlineSeconds !== undefined ? { deadlineSeconds: args.deadlineSeconds } : {}),
    ...(mockThread ? { mockThread } : {}),
    loaded,
    onProfileStart: (profile) => progress.profileStarted(profile, perSuite),
    onResult: (profile, r) => progress.checkDone(profile, r),
    onProfileDone: (run) => {
      progress.profileDone(run.profile, m.summaryLine(run, args.failOn));
      // what the run spent at the target: calls per operation, the concurrency it adapted to (issues 18, 19)
      const spent = trafficLine(run);
      if (spent) process.stdout.write(`${spent}\n`);
    },
  });
  const ended = mockThread?.shutdown(); // the mocks' thread ends while the reports are written
  if (!outcome.results) {
    for (const e of outcome.configErrors) process.stderr.write(`certify: ${e}\n`);
    return outcome.exitCode;
  }
  const key = outcome.signingKey;
  const written = await m.writeReports(
    outcome.results,
    resolve(args.out),
    key ? { signingKeyPem: key.pem, ...(key.kid ? { signingKid: key.kid } : {}) } : {},
  );
  // the end of the log: what failed, what was not verified, what broke in the run (nothing when all is well)
  const failures = m.failureLines(outcome.results);
  if (failures.length) process.stdout.write(`${failures.join('\n')}\n`);
  process.stdout.write(
    `reports: ${written.junit}, ${written.html}, ${written.json} (sha256 ${written.sha256})${written.jws ? `, ${written.jws}` : ''}\n`,
  );
  if (outcome.exitCode === 3) process.stderr.write('certify: no check ran\n');
  await ended;
  return outcome.exitCode;
}

/** the output folder (created, writable) and every profile (valid, keys readable, consent possible): or exit 2 */
async function checkBeforeTraffic(out: string, profiles: string[]): Promise<LoadedProfile[] | 2> {
  const { preflight } = await import('../lib/engine/preflight.ts');
  const interactive = Boolean(process.stdin.isTTY && process.stderr.isTTY);
  const checked = await preflight(profiles, { interactive });
  if (checked.errors.length) {
    for (const e of checked.errors) process.stderr.write(`certify: ${e}\n`);
    return 2;
  }
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
  const { countConsents } = await import('../lib/engine/consents.ts');
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
