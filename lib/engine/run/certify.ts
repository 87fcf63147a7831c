/**
 * A certification run: every profile is loaded and validated first (a broken profile stops the run before any
 * traffic, exit 2), then each target is prepared and the selected checks run against it through the engine
 * (runChecks: the same verdict logic as the Vitest suites and the fault matrix), their results collected into
 * one RunResults that feeds every report.
 *
 * Profiles of the embedded mock run side by side (each has a mock of its own); profiles of one real target (API host
 * and port) run one after another, since a check may move its clock or quota; distinct targets side by side.
 */
import { execFile, execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ROOT } from '../../root.ts';
import { catalogueVersion } from '../../catalogue/index.ts';
import type { AnyProfile } from '../../profile/schema.ts';
import { loadRunnableProfiles, type LoadedProfile } from './preflight.ts';
import { isEmbedded, prepare } from './prepare.ts';
import { createSession, type Session } from '../session/session.ts';
import type { HarnessRuntime } from './runtime.ts';
import { runSessionChecks } from './schedule.ts';
import type { Established } from '../session/prerequisites.ts';
import { startMockThread, type MockThread } from '../../mock/server/thread.ts';
import { applyWaivers, exitCodeOf, type ExitCode } from '../verdict.ts';
import {
  RESULTS_SCHEMA_VERSION,
  type CheckResult,
  type ProfileRun,
  type ProfileTraffic,
  type OpenApiRun,
  type RunResults,
} from '../results.ts';
import { assumptionsOf } from '../../profile/secrets.ts';
import { identificationNotes } from '../../openapi/identify.ts';
import './runtime.ts';
import type { CheckDefinition } from '../check.ts';
import { selects, type Selection } from './select.ts';
import type { Transport } from '../../http/transport.ts';
import type { Waits } from '../../waits.ts';

export interface CertifyRequest {
  /** every check the suites define (suites/index.ts): the selection is checked against them before any traffic */
  checks: readonly CheckDefinition[];
  profiles: string[];
  suites: string[];
  only: string[];
  grep?: string;
  long: boolean;
  destructive: boolean;
  failOn: 'must' | 'should';
  /** overall run deadline (--deadline), seconds from the start of the run */
  deadlineSeconds?: number;
  /** --seed: every profile's run.dataSeed (the generated data and the property checks' inputs replay) */
  seed?: number;
  onProfileStart?: (name: string) => void;
  onResult?: (profile: string, r: CheckResult) => void;
  onProfileDone?: (run: ProfileRun) => void;
  /**
   * the worker thread that hosts the embedded mocks, when the caller started it early (it loads while the PKI is
   * generated; the caller shuts it down); otherwise certify starts one when a profile needs it and shuts it down
   */
  mockThread?: MockThread;
  /** a person is at a terminal (manual consent is possible); default false */
  interactive?: boolean;
  /** the profiles, when the caller already loaded them (loadRunnableProfiles) (scripts/certify.ts does, before the PKI) */
  loaded?: LoadedProfile[];
  /**
   * aborted (its reason the signal's name, e.g. 'SIGTERM') to stop the run: certify returns at once with what was
   * verified so far, the profiles still running marked interrupted (the caller ends the process, which stops sending)
   */
  interrupt?: AbortSignal;
  /** told when a check starts a real wait (--long, no test clock): what it waits for and how long */
  onWait?: (what: string) => void;
  /** the run's transport (lib/http/transport.ts: --har's wire tap), handed to every profile's session */
  transport?: Transport;
  /**
   * in-process only (tests): the clock of the run's deliberate waits (RunOptions.waits), handed to every profile's
   * session and to the embedded mocks' gateways, which then run on this thread (a worker thread cannot share it)
   */
  waits?: Waits;
}

export type { ExitCode } from '../verdict.ts';
export interface CertifyOutcome {
  results?: RunResults;
  /** the operator key of the first profile that names one (signs results.json) */
  signingKey?: { pem: string; kid?: string };
  exitCode: ExitCode;
  /** configuration errors (exit 2), each naming the file and field */
  configErrors: string[];
}

export function harnessInfo(): RunResults['harness'] {
  let commit: string | undefined;
  try {
    commit = execFileSync('git', GIT_COMMIT, { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    commit = undefined;
  }
  return harnessWith(commit);
}

/**
 * harnessInfo, with git asked while the run goes on: certify starts it before its profiles and awaits it at the end
 * (the synchronous call held the main thread for the few milliseconds git takes, after the checks)
 */
export function harnessInfoLater(): Promise<RunResults['harness']> {
  return new Promise((done) => {
    execFile('git', GIT_COMMIT, { cwd: ROOT }, (error, stdout) =>
      done(harnessWith(error ? undefined : stdout.toString().trim())),
    );
  });
}

const GIT_COMMIT = ['rev-parse', '--short=12', 'HEAD'];

function harnessWith(commit: string | undefined): RunResults['harness'] {
  const pkg = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
  return { name: pkg.name, version: pkg.version, ...(commit ? { commit } : {}), node: process.version };
}

export async function certify(req: CertifyRequest): Promise<CertifyOutcome> {
  const startedAt = new Date();
  // 1. every profile loads, validates and passes the checks that need no traffic, before any traffic
  const checked = req.loaded
    ? { loaded: req.loaded, errors: [] }
    : await loadRunnableProfiles(req.profiles, { interactive: req.interactive ?? false });
  if (checked.errors.length) return { exitCode: 2, configErrors: checked.errors };
  const loaded = checked.loaded;
  const deadlineAt = req.deadlineSeconds === undefined ? undefined : startedAt.getTime() + req.deadlineSeconds * 1000;
  const selection: Selection = { suites: req.suites, only: req.only, ...(req.grep ? { grep: req.grep } : {}) };
  if (!req.checks.some((c) => selects(selection, c))) {
    return { exitCode: 3, configErrors: ['the filters select no check (see --list)'] };
  }

  const selected = req.checks.filter((c) => selects(selection, c));
  const harness = harnessInfoLater();
  const indexes = loaded.map((_, i) => i);
  const embedded = indexes.filter((i) => isEmbedded(loaded[i]!.profile));
  // a test's clock (req.waits) is shared with the mocks: they run on this thread then
  const mockThread = req.waits ? undefined : (req.mockThread ?? (embedded.length > 0 ? startMockThread() : undefined));
  const runs = new Array<ProfileRun>(loaded.length);
  const partial = loaded.map(() => ({ results: [] as CheckResult[], startedAt: '', started: 0 }));
  const run = async (i: number): Promise<void> => {
    const { profile } = loaded[i]!;
    if (req.interrupt?.aborted) return;
    req.onProfileStart?.(profile.name);
    Object.assign(partial[i]!, { startedAt: new Date().toISOString(), started: performance.now() });
    const onResult = (name: string, r: CheckResult): void => {
      partial[i]!.results.push(r);
      req.onResult?.(name, r);
    };
    const r = await runProfile(
      profile,
      { ...req, onResult, ...(deadlineAt ? { deadlineAt } : {}) },
      selected,
      mockThread,
    );
    if (!req.interrupt?.aborted) runs[i] = r;
  };
  const all = Promise.all([
    ...embedded.map(run),
    // real targets: profiles naming one target (host and port) one after another, distinct targets side by side
    ...[...groupByTarget(loaded, indexes).values()].map(async (group) => {
      for (const i of group) await run(i);
    }),
  ]);
  const signal = await untilDoneOrInterrupted(all, req.interrupt);
  if (signal === undefined && mockThread !== req.mockThread) await mockThread?.shutdown();
  // interrupted: the profiles still running report what they verified until then (the caller ends the process)
  if (signal !== undefined)
    for (const i of indexes)
      if (!runs[i]) runs[i] = interruptedRun(loaded[i]!.profile, partial[i]!, signal, selected.length);

  const results: RunResults = {
    schemaVersion: RESULTS_SCHEMA_VERSION,
    harness: await harness,
    catalogueVersion,
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    options: {
      long: req.long,
      destructive: req.destructive,
      failOn: req.failOn,
      filters: { profile: req.profiles, suite: req.suites, only: req.only, grep: req.grep ? [req.grep] : [] },
    },
    profiles: runs,
    ...(signal !== undefined ? { interrupted: { signal, at: new Date().toISOString() } } : {}),
  };
  const keyed = loaded.find(({ profile }) => profile.report.signingKey);
  const signingKey = keyed?.profile.report.signingKey
    ? {
        pem: keyed.profile.report.signingKey,
        ...(keyed.profile.report.signingKid ? { kid: keyed.profile.report.signingKid } : {}),
      }
    : undefined;
  return { results, exitCode: exitCodeOf(results), configErrors: [], ...(signingKey ? { signingKey } : {}) };
}

export { exitCodeOf } from '../verdict.ts';
/** real targets by API host and port (an embedded profile is left out) */
function groupByTarget(loaded: { profile: AnyProfile }[], indexes: number[]): Map<string, number[]> {
  const groups = new Map<string, number[]>();
  for (const i of indexes) {
    const p = loaded[i]!.profile;
    if (isEmbedded(p) || !('target' in p)) continue;
    let key: string;
    try {
      key = new URL(p.target.baseUrl).host;
    } catch {
      key = p.target.baseUrl;
    }
    groups.set(key, [...(groups.get(key) ?? []), i]);
  }
  return groups;
}

/**
 * errors nobody handled (a check's stray promise, an error event without a listener): they go to the runs in
 * flight, never crash the run (the reports are still written)
 */
const inFlight = new Set<string[]>();
function onStray(e: unknown): void {
  const message = `unhandled error: ${messageOf(e)}`;
  for (const errors of inFlight) errors.push(message);
}

/** the run's end, or the signal's name as soon as `interrupt` is aborted */
async function untilDoneOrInterrupted(all: Promise<unknown>, interrupt?: AbortSignal): Promise<string | undefined> {
  if (!interrupt) return void (await all);
  const aborted = new Promise<string>((done) => {
    const say = (): void => done(String(interrupt.reason ?? 'SIGINT'));
    if (interrupt.aborted) say();
    else interrupt.addEventListener('abort', say, { once: true });
  });
  // a profile that throws after the interruption is of no consequence any more
  all.catch(() => {});
  return Promise.race([all.then(() => (interrupt.aborted ? String(interrupt.reason) : undefined)), aborted]);
}

/** a profile stopped by a signal: the checks that reported before it, and what was left undone */
function interruptedRun(
  profile: AnyProfile,
  partial: { results: CheckResult[]; startedAt: string; started: number },
  signal: string,
  selected: number,
): ProfileRun {
  const started = partial.startedAt !== '';
  const reported = partial.results.filter(Boolean);
  const note = started
    ? `interrupted by ${signal}: ${reported.length} of ${selected} ${selected === 1 ? 'check' : 'checks'} had reported; the others were not run`
    : `interrupted by ${signal} before this profile started: no check was run`;
  const run = unprepared(
    profile,
    started ? partial.startedAt : new Date().toISOString(),
    started ? Math.round(performance.now() - partial.started) : 0,
    [note],
  );
  const waivers = 'waivers' in profile ? profile.waivers : undefined;
  return { ...run, results: applyWaivers(reported, waivers).sort(byRequirement), interrupted: signal };
}

/** the run of a profile whose target could not be prepared (its mock did not start, its profile did not parse) */
function unprepared(profile: AnyProfile, startedAt: string, durationMs: number, errors: string[]): ProfileRun {
  return {
    profile: profile.name,
    environment: profile.environment,
    target: {
      baseUrl: 'target' in profile ? profile.target.baseUrl : 'embedded mock',
      embeddedMock: 'embedded' in profile,
      faults: [],
    },
    assumptions: {},
    startedAt,
    durationMs,
    results: [],
    errors,
  };
}

async function runProfile(
  profile: AnyProfile,
  req: CertifyRequest & { deadlineAt?: number },
  checks: readonly CheckDefinition[],
  mockThread: MockThread | undefined,
): Promise<ProfileRun> {
  const started = performance.now();
  const startedAt = new Date().toISOString();
  const errors: string[] = [];
  // --seed replays a run: the same data and property inputs for every profile
  if (req.seed !== undefined) profile = { ...profile, run: { ...profile.run, dataSeed: req.seed } };
  let prepared;
  try {
    prepared = await prepare(
      profile,
      {
        long: req.long,
        destructive: req.destructive,
        ...(req.deadlineAt ? { deadlineAt: req.deadlineAt } : {}),
        ...(req.onWait ? { onWait: (what: string) => req.onWait?.(`${profile.name}: ${what}`) } : {}),
      },
      { ...(mockThread ? { mockThread } : {}), ...(req.waits ? { waits: req.waits } : {}) },
    );
  } catch (e) {
    errors.push(`could not prepare the target: ${messageOf(e)}`);
    return unprepared(profile, startedAt, Math.round(performance.now() - started), errors);
  }
  let results: CheckResult[] = [];
  let established: Established | undefined;
  let dataSeed: number | undefined;
  let traffic: (() => ProfileTraffic) | undefined;
  let openapi: (() => OpenApiRun) | undefined;
  if (inFlight.size === 0) process.on('unhandledRejection', onStray).on('uncaughtException', onStray);
  inFlight.add(errors);
  try {
    const session = await createSession(
      req.transport ? { ...prepared.runtime, transport: req.transport } : prepared.runtime,
    );
    dataSeed = session.dataSeed;
    traffic = (): ProfileTraffic => session.traffic();
    openapi = openApiRunOf(session, prepared.runtime);
    try {
      // the checks start once the API answers; those that need a token wait for its prerequisite (pipelined)
      ({ results, established } = await runSessionChecks(session, checks, prepared.runtime.options, (r) =>
        req.onResult?.(profile.name, r),
      ));
    } finally {
      inFlight.delete(errors);
      // an error's message may quote what the target sent back: it passes the redactor like every result
      errors.splice(0, errors.length, ...errors.map((e) => session.redact(e)));
      await session.close();
    }
  } catch (e) {
    // session setup or the scheduler itself failed (a check's own failure is a verdict, never an exception here)
    errors.push(`the conformance run failed: ${messageOf(e)}`);
  } finally {
    inFlight.delete(errors);
    errors.push(...prepared.problems());
    if (inFlight.size === 0) process.off('unhandledRejection', onStray).off('uncaughtException', onStray);
    await prepared.close();
  }
  const run: ProfileRun = {
    profile: profile.name,
    environment: profile.environment,
    target: {
      ...prepared.fingerprint,
      ...(established?.serverCertificateSha256 && !prepared.fingerprint.serverCertificateSha256
        ? { serverCertificateSha256: established.serverCertificateSha256 }
        : {}),
    },
    assumptions: assumptionsOf(prepared.runtime.profile),
    startedAt,
    durationMs: Math.round(performance.now() - started),
    results: applyWaivers(results.filter(Boolean), prepared.runtime.profile.waivers).sort(byRequirement),
    errors,
    ...(established ? { prerequisites: established.results } : {}),
    ...(established?.unreachable !== undefined ? { unreachable: established.unreachable } : {}),
    ...(dataSeed !== undefined ? { dataSeed } : {}),
    ...(traffic ? { traffic: traffic() } : {}),
    ...(openapi ? { openapi: openapi() } : {}),
  };
  req.onProfileDone?.(run);
  return run;
}

/** the profile's OpenAPI document and its coverage by the session's answers, once the run ends (none without one) */
function openApiRunOf(session: Session, runtime: HarnessRuntime): (() => OpenApiRun) | undefined {
  const { answers } = session;
  const model = runtime.openapi;
  if (!answers || !model) return undefined;
  return () => ({
    source: model.source,
    version: model.openapi,
    notes: [...identificationNotes(model), ...model.notes],
    coverage: answers.table(),
  });
}

/** stable order: by first requirement id (numerically: QUOTA-2 before QUOTA-10), then check id */
export function byRequirement(a: CheckResult, b: CheckResult): number {
  const ra = a.requirements[0] ?? '';
  const rb = b.requirements[0] ?? '';
  return ra.localeCompare(rb, 'en', { numeric: true }) || a.checkId.localeCompare(b.checkId);
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
