/**
 * certify's certify step (scripts/certify.ts, step 3), and --list: the consents announced, every profile certified
 * with its progress on the console. The modules come from the caller (scripts/startup.ts loads them together, once
 * the command line and the profiles are good: docs/performance.md "Start-up").
 */
import type { CheckDefinition } from '../engine/check.ts';
import type * as Certify from '../engine/run/certify.ts';
import type * as List from '../engine/run/list.ts';
import type * as Select from '../engine/run/select.ts';
import type { LoadedProfile } from '../engine/run/preflight.ts';
import { onSignals, type Interrupt } from '../engine/run/interrupt.ts';
import type { MockThread } from '../mock/server/thread.ts';
import type * as ProfileErrors from '../profile/errors.ts';
import type * as Summary from '../report/summary.ts';
import { trafficLine } from '../report/traffic.ts';
import type { CertifyCommand } from './certify-command.ts';
import type { LoadedRun } from './certify-load.ts';
import { selectionOf } from './certify-command.ts';
import type * as Progress from './progress.ts';

/** the checks of every suite (suites/index.ts: handed down, lib/ never imports suites/) */
interface Checks {
  allChecks: readonly CheckDefinition[];
}
/** what --list uses of the listing's modules */
export type ListModules = Checks & Pick<typeof List, 'listRun'> & Pick<typeof ProfileErrors, 'ProfileError'>;
/** what the certify step uses of a run's modules */
export type CertifyModules = Checks &
  Pick<typeof Certify, 'certify'> &
  Pick<typeof Select, 'selects'> &
  Pick<typeof Progress, 'createProgress'> &
  Pick<typeof Summary, 'summaryLine'>;

/** --list: what would run against each profile, and why not, without traffic */
export async function listChecks(m: ListModules, args: CertifyCommand): Promise<number> {
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

/** a certified run: its outcome, the signal handler still listening, the mocks' thread ending meanwhile */
export interface CertifiedRun {
  outcome: Certify.CertifyOutcome;
  interrupt: Interrupt;
  /** the embedded mocks' thread shutting down (not when interrupted: the process then ends, which stops sending) */
  mocksEnded: Promise<void> | undefined;
}

/** the run: consents announced, every profile certified (progress as it goes) */
export async function certifyProfiles(
  m: CertifyModules,
  args: CertifyCommand,
  { loaded, transport }: LoadedRun,
  mockThread: MockThread | undefined,
): Promise<CertifiedRun> {
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
    ...selectionOf(args),
    long: args.long,
    destructive: args.destructive,
    failOn: args.failOn,
    ...(args.deadlineSeconds !== undefined ? { deadlineSeconds: args.deadlineSeconds } : {}),
    ...(args.seed !== undefined ? { seed: args.seed } : {}),
    ...(mockThread ? { mockThread } : {}),
    loaded,
    transport,
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
  const mocksEnded = outcome.results?.interrupted ? undefined : mockThread?.shutdown();
  return { outcome, interrupt, mocksEnded };
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
  const { countConsents } = await import('../engine/run/consents.ts');
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
