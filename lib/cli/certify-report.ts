/**
 * certify's report step (scripts/certify.ts, step 4): the end of the log (what failed, what was not verified), the
 * reports (JUnit, HTML, results.json, signed when a key is named), --har, the CI's summary and annotations; the
 * exit code, and whether the process must end at once (interrupted: ending it stops what is still sending).
 */
import { appendFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { LoadedProfile } from '../engine/run/preflight.ts';
import type { RunResults } from '../engine/results.ts';
import type * as Json from '../report/json.ts';
import type * as Write from '../report/write.ts';
import type { WireTap } from '../http/record/tap.ts';
import type { CertifyCommand } from './certify-command.ts';
import type { LoadedRun } from './certify-load.ts';
import type { CertifiedRun } from './certify-run.ts';
import type * as Progress from './progress.ts';

/** what the report step uses of a run's modules */
export type ReportModules = Pick<typeof Write, 'writeReports'> &
  Pick<typeof Json, 'ResultsError'> &
  Pick<typeof Progress, 'overallLine' | 'failureLines'>;

/** how certify ends: its exit code, and `now` when the process must end at once (an interrupted run) */
export interface Ending {
  code: number;
  now?: boolean;
}

/** the reports of a certified run written and said; how the process ends */
export async function reportRun(
  m: ReportModules,
  args: CertifyCommand,
  { loaded, transport }: LoadedRun,
  { outcome, interrupt, mocksEnded }: CertifiedRun,
): Promise<Ending> {
  const results = outcome.results;
  if (!results) {
    interrupt.done();
    for (const e of outcome.configErrors) process.stderr.write(`certify: ${e}\n`);
    return { code: outcome.exitCode };
  }
  // the end of the log: what failed, what was not verified, what broke in the run (nothing when all is well)
  const overall = m.overallLine(results);
  const failures = [...m.failureLines(results), ...(overall ? [overall] : [])];
  if (failures.length) process.stdout.write(`${failures.join('\n')}\n`);
  const key = outcome.signingKey;
  let written;
  try {
    written = await m.writeReports(
      results,
      resolve(args.out),
      key ? { signingKeyPem: key.pem, ...(key.kid ? { signingKid: key.kid } : {}) } : {},
    );
  } catch (e) {
    // results that fail their own schema are never written as results.json (kept as results.invalid.json): a harness
    // error, said loudly, and the run fails
    if (!(e instanceof m.ResultsError)) throw e;
    process.stderr.write(`certify: ${e.message}\n`);
    if (results.interrupted) return { code: 1, now: true };
    interrupt.done();
    await mocksEnded;
    return { code: 1 };
  }
  process.stdout.write(
    `reports: ${written.junit}, ${written.html}, ${written.json} (sha256 ${written.sha256})${written.jws ? `, ${written.jws}` : ''}\n`,
  );
  if (args.har && transport.har)
    await writeHarFile(args.har, transport.har, results, args.harKeepTokens === true, loaded);
  if (outcome.exitCode === 3) process.stderr.write('certify: no check ran\n');
  await toCi(results);
  if (results.interrupted) {
    process.stderr.write(
      `certify: INTERRUPTED by ${results.interrupted.signal}: the reports hold what was verified until then\n`,
    );
    return { code: outcome.exitCode, now: true };
  }
  // a signal while the reports were written (the run had ended) no longer stops anything: the handler goes
  interrupt.done();
  await mocksEnded;
  return { code: outcome.exitCode };
}

/**
 * --har: every exchange of the run as HAR 1.2 (lib/report/har-wire.ts writeWireHar), from the wire tap; a file that cannot be
 * written is said, not fatal
 */
async function writeHarFile(
  file: string,
  tap: WireTap,
  results: RunResults,
  keepTokens: boolean,
  loaded: LoadedProfile[],
): Promise<void> {
  const { envelopeOpener, writeWireHar } = await import('../report/har-wire.ts');
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
    const n = await writeWireHar(file, tap.exchanges, results, { keepTokens, open });
    process.stdout.write(`har: ${file} (${n} exchanges${keepTokens ? '; tokens kept, --har-keep-tokens' : ''})\n`);
  } catch (e) {
    process.stderr.write(
      `certify: --har ${file}: could not write it (${(e as NodeJS.ErrnoException).code ?? String(e)})\n`,
    );
  }
}

/** in GitHub Actions: the step summary (GITHUB_STEP_SUMMARY) and one annotation per broken rule */
async function toCi(results: RunResults): Promise<void> {
  const summaryFile = process.env.GITHUB_STEP_SUMMARY;
  if (!summaryFile && process.env.GITHUB_ACTIONS !== 'true') return;
  const ci = await import('../report/ci.ts');
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
