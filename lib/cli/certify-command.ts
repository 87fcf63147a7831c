/**
 * certify's command line (scripts/certify.ts, step 1): parsed, its paths read from the caller's folder; --help and a
 * usage error answer here (exit 0, exit 2 after one line), before anything else is loaded.
 */
import type { CertifyArgs } from './args.ts';
import { callersPath } from './cwd.ts';
import { CliError } from './errors.ts';
import { DEFAULT_OUT, DEFAULT_PROFILES } from './options.ts';

/** the command line as certify runs it: its paths resolved, the profiles also as typed */
export type CertifyCommand = CertifyArgs & { typedProfiles: string[] };

/** the command line, its paths read from the caller's folder; or the exit code of --help (0) or a usage error (2) */
export async function parseCommandLine(argv: string[], knownSuites: string[]): Promise<CertifyCommand | number> {
  // loaded here, not with this module: the bundle's first chunk stays small (docs/performance.md "Start-up")
  const { parseCertifyArgs } = await import('./args.ts');
  let args;
  try {
    args = parseCertifyArgs(argv, { knownSuites });
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
function fromCallersFolder(args: CertifyArgs): CertifyCommand {
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

/** which checks the command line selects (--suite, --only, --grep) */
export function selectionOf(args: CertifyArgs): { suites: string[]; only: string[]; grep?: string } {
  return { suites: args.suites, only: args.only, ...(args.grep ? { grep: args.grep } : {}) };
}
