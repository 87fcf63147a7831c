/**
 * `certify` command line (node:util parseArgs, strict). A bad command line throws CliError('CLI_USAGE')
 * naming the option; the caller maps it to exit code 2, before any traffic.
 */
import { parseArgs } from 'node:util';
import { isRequirementId, requirement } from '../catalogue/index.ts';
import { usage } from './errors.ts';
import { CERTIFY_OPTIONS, DEFAULT_OUT, DEFAULT_PROFILES } from './options.ts';
import { PROXY_HELP, proxyArgsOf, type ProxyArgs } from './proxy-args.ts';

export { CliError } from './errors.ts';
export { DEFAULT_OUT, DEFAULT_PROFILES } from './options.ts';

export interface CertifyArgs extends ProxyArgs {
  /** --har <file>: the run's exchanges as HAR 1.2 (lib/report/har-wire.ts) */
  har?: string;
  /** --har-keep-tokens: the HAR keeps access/refresh tokens and codes, for a replay in a test environment */
  harKeepTokens?: boolean;
  profiles: string[];
  /** suite names; empty = all */
  suites: string[];
  /** requirement ids, upper-cased and validated against the catalogue; empty = all */
  only: string[];
  /** a case-insensitive regular expression over check id and title (validated as one) */
  grep?: string;
  out: string;
  long: boolean;
  destructive: boolean;
  failOn: 'must' | 'should';
  list: boolean;
  /** new test keys for the embedded mocks' test PKI, replacing the per-machine key cache (--fresh-keys) */
  freshKeys: boolean;
  /** overall run deadline in seconds (--deadline): checks not started by then are not run */
  deadlineSeconds?: number;
  /** --seed: the run's data seed for every profile (run.dataSeed), which the property checks' seeds derive from */
  seed?: number;
}

export const CERTIFY_HELP = `Usage: npm run certify -- [options]

Runs the conformance and security checks against one or more target profiles and writes
junit.xml, report.html and results.json (+ results.json.jws when the profile has an operator key).

Options:
  --profile <file>     target profile (repeatable; default: ${DEFAULT_PROFILES.join(' and ')})
  --suite <name>       run only this suite (repeatable)
  --only <id>          run only checks naming this requirement id, e.g. JOSE-01 (repeatable)
  --grep <pattern>     run only checks whose id or title matches this regular expression
  --out <dir>          where to write the reports (default: ${DEFAULT_OUT})
  --long               allow checks that wait (token expiry, quota windows) when there is no test clock
  --destructive        allow checks that exhaust quotas on a real target
  --fail-on <level>    must (default): only MUST rules fail the run; should: SHOULD rules fail it too
  --deadline <s>       overall run deadline in seconds: checks not started by then are reported not run
  --seed <n>           the run's seed (every profile's run.dataSeed): replays the generated test data and
                       the property checks' inputs of a run whose results.json gave that dataSeed
${PROXY_HELP}  --har <file>         also write every exchange of the run as HAR 1.2, bodies as on the wire (each entry
                       names its check; sealed payloads and answers opened in its comment; redacted like the reports)
  --har-keep-tokens    the HAR keeps access and refresh tokens and codes (a test environment's replay; never
                       client secrets or private keys), and says so
  --list               print the requirement matrix and what would run, without sending traffic
  --fresh-keys         generate new RSA keys for the embedded mocks' test PKI and replace the cached ones
                       (node_modules/.cache/openbank-conformance/test-keys; also HARNESS_FRESH_KEYS=1)
  --help               print this help

Exit codes:
  0  PASS        every MUST rule that applies was verified and held (waived ids are listed in the report)
  1  FAIL        a MUST rule (with --fail-on should, any rule) was broken, or a known deviation now holds
  2  configuration error: bad option, profile, key, --out folder or consent mode (nothing was sent)
  3  NOTHING RAN the selected checks all do not apply here or were not run
  4  UNREACHABLE a target did not answer (and nothing failed)
  5  INCOMPLETE  nothing failed, but a MUST rule that applies was not verified (not run, inconclusive,
                 harness error) and the profile does not waive it
  130 / 143  INTERRUPTED  stopped by SIGINT / SIGTERM: the reports hold what was verified until then
`;

/** Split "A,B" and drop empties, so that `--only JOSE-01,JOSE-02` works as well as repeating the option. */
const many = (v: string[] | undefined): string[] =>
  (v ?? [])
    .flatMap((x) => x.split(','))
    .map((x) => x.trim())
    .filter((x) => x.length > 0);

/** --only, --suite and --grep, each checked (an unknown id or suite, a bad pattern: a usage error) */
function filtersOf(
  list: (k: string) => string[],
  grep: string | undefined,
  knownSuites: readonly string[] | undefined,
): { only: string[]; suites: string[] } {
  const only = list('only').map((id) => id.toUpperCase());
  const unknownIds = only.filter((id) => !isRequirementId(id));
  if (unknownIds.length)
    throw usage(`--only: unknown requirement id ${unknownIds.join(', ')} (see --list for the catalogue)`);
  // a rule of the partner's client: certify checks the bank; a client is certified by npm run partner
  const clientSide = only.filter((id) => requirement(id).applies.every((a) => a === 'client'));
  if (clientSide.length)
    throw usage(
      `--only: ${clientSide.join(', ')} ${clientSide.length === 1 ? 'is a rule' : 'are rules'} of a partner's client, not of the bank: certify a client with \`npm run partner\` (docs/partner.md)`,
    );
  const suites = list('suite');
  for (const s of suites) {
    if (!/^[a-z0-9][a-z0-9-]*$/i.test(s)) throw usage(`--suite: ${JSON.stringify(s)} is not a suite name`);
    if (knownSuites && !knownSuites.includes(s))
      throw usage(`--suite: unknown suite ${JSON.stringify(s)} (known: ${knownSuites.join(', ')})`);
  }
  if (grep !== undefined) {
    if (grep.length === 0) throw usage('--grep needs a non-empty pattern');
    try {
      new RegExp(grep, 'i');
    } catch {
      throw usage(`--grep: ${JSON.stringify(grep)} is not a valid regular expression`);
    }
  }
  return { only, suites };
}

export function parseCertifyArgs(
  argv: string[],
  opts: { knownSuites?: readonly string[] } = {},
): CertifyArgs | { help: string } {
  let values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: CERTIFY_OPTIONS,
    }));
  } catch (e) {
    // parseArgs messages name the option ("Unknown option '--x'", "Option '--out <value>' argument missing")
    const msg = (e as Error).message.split('\n')[0] ?? 'invalid arguments';
    throw usage(`${msg.replace(/\.+$/, '')}. Run with --help for the options.`);
  }
  if (values.help) return { help: CERTIFY_HELP };

  const str = (k: string): string | undefined => (typeof values[k] === 'string' ? (values[k] as string) : undefined);
  const list = (k: string): string[] => many(values[k] as string[] | undefined);

  const failOnRaw = str('fail-on') ?? 'must';
  if (failOnRaw !== 'must' && failOnRaw !== 'should')
    throw usage(`--fail-on must be "must" or "should", not ${JSON.stringify(failOnRaw)}`);

  const grep = str('grep');
  const { only, suites } = filtersOf(list, grep, opts.knownSuites);

  const out = str('out') ?? DEFAULT_OUT;
  if (out.trim().length === 0) throw usage('--out needs a directory');
  // profile paths are not split on commas: a file name may hold one
  const profiles = ((values.profile as string[] | undefined) ?? []).filter((x) => x.length > 0);
  for (const p of profiles)
    if (p.startsWith('-')) throw usage(`--profile: ${JSON.stringify(p)} looks like an option, not a file`);

  const args: CertifyArgs = {
    profiles: profiles.length ? profiles : [...DEFAULT_PROFILES],
    suites,
    only,
    out,
    long: values.long === true,
    destructive: values.destructive === true,
    failOn: failOnRaw,
    list: values.list === true,
    freshKeys: values['fresh-keys'] === true,
  };
  if (grep !== undefined) args.grep = grep;
  const deadline = str('deadline');
  if (deadline !== undefined) {
    const n = Number(deadline);
    if (!/^\d+(\.\d+)?$/.test(deadline) || !(n > 0) || n > 7 * 24 * 3600)
      throw usage(`--deadline: ${JSON.stringify(deadline)} is not a number of seconds (0 < s <= 604800)`);
    args.deadlineSeconds = n;
  }
  const seed = str('seed');
  if (seed !== undefined) {
    if (!/^\d+$/.test(seed) || Number(seed) > Number.MAX_SAFE_INTEGER)
      throw usage(`--seed: ${JSON.stringify(seed)} is not a whole number (a dataSeed from results.json)`);
    args.seed = Number(seed);
  }
  const har = str('har');
  if (har !== undefined && har.trim() === '') throw usage('--har needs a file');
  const keep = values['har-keep-tokens'] === true;
  if (keep && har === undefined) throw usage('--har-keep-tokens needs --har <file>');
  return {
    ...args,
    ...proxyArgsOf(str),
    ...(har !== undefined ? { har } : {}),
    ...(keep ? { harKeepTokens: true } : {}),
  };
}
