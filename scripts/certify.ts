/**
 * npm run certify -- [options]   (see --help)
 * Exit codes: 0 PASS, 1 FAIL, 2 configuration error (nothing sent), 3 nothing ran, 4 target unreachable,
 * 5 INCOMPLETE (a MUST not verified), 130 / 143 INTERRUPTED (SIGINT / SIGTERM: reports written with what was verified).
 *
 * The story: parse the command line, load the profiles, certify, report. Each step is a function of lib/cli
 * (certify-command, certify-load, certify-run, certify-report); scripts/startup.ts loads the modules a step needs
 * only once the step before it succeeded (docs/performance.md "Start-up").
 */
import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { ROOT } from '../lib/root.ts';
import { parseCommandLine } from '../lib/cli/certify-command.ts';
import { loadForRun } from '../lib/cli/certify-load.ts';
import { certifyProfiles, listChecks } from '../lib/cli/certify-run.ts';
import { reportRun, type Ending } from '../lib/cli/certify-report.ts';
import { beginStartup } from './startup.ts';

/** suite names are the folders of suites/ (read without loading the suites, so a usage error answers at once) */
const suiteNames = readdirSync(resolve(ROOT, 'suites'), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

async function main(argv: string[]): Promise<Ending> {
  // the embedded mocks' thread starts at once when the command line names them (scripts/startup.ts)
  const startup = await beginStartup(argv);
  let ending: Ending = { code: 1 };
  try {
    // 1. parse: --help (0) and usage errors (2) end here
    const args = await parseCommandLine(argv, suiteNames);
    if (typeof args === 'number') return (ending = { code: args });
    if (args.list) return (ending = { code: await listChecks(await startup.forListing(), args) });
    // 2. load: profiles, --out, --har's folder, --proxy, all checked before any traffic (or 2)
    const loaded = await loadForRun(args);
    if (typeof loaded === 'number') return (ending = { code: loaded });
    const modules = await startup.forRun(loaded.loaded);
    // 3. certify: every profile, through the run's transport (--har's tap), progress on the console
    const run = await certifyProfiles(modules, args, loaded, startup.mockThread);
    // 4. report: the log's end, the reports, --har, CI; the exit code
    return (ending = await reportRun(modules, args, loaded, run));
  } finally {
    // an interrupted run ends the process at once (which stops sending): the mocks' thread goes with it
    if (!ending.now) await startup.shutdown();
  }
}

main(process.argv.slice(2)).then(
  ({ code, now }) => {
    if (now) process.exit(code);
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`certify: internal error: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 1;
  },
);
