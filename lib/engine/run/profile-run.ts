/**
 * One profile's run: its target prepared, its session's checks run into verdicts, its ProfileRun made. certify
 * (certify.ts) calls it on its own thread, or a profile's harness thread (harness-thread-main.ts) calls it there.
 */
import type { AnyProfile } from '../../profile/schema.ts';
import { prepare } from './prepare.ts';
import { createSession, type Session } from '../session/session.ts';
import type { HarnessRuntime } from './runtime.ts';
import { runSessionChecks } from './schedule.ts';
import type { Established } from '../session/prerequisites.ts';
import type { MockThread } from '../../mock/server/thread.ts';
import { applyWaivers } from '../verdict.ts';
import type { CheckResult, ProfileRun, ProfileTraffic, OpenApiRun } from '../results.ts';
import { assumptionsOf } from '../../profile/secrets.ts';
import { identificationNotes } from '../../openapi/identify.ts';
import type { CheckDefinition } from '../check.ts';
import type { Transport } from '../../http/transport.ts';

/** what a profile's run takes of the certify request */
export interface ProfileRunOptions {
  long: boolean;
  destructive: boolean;
  /** --seed: the profile's run.dataSeed */
  seed?: number;
  /** the run's deadline (epoch milliseconds: every thread's clock) */
  deadlineAt?: number;
  onWait?: (what: string) => void;
  onResult?: (profile: string, r: CheckResult) => void;
  onProfileDone?: (run: ProfileRun) => void;
  transport?: Transport;
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

/** the run of a profile whose target could not be prepared (its mock did not start, its profile did not parse) */
export function unprepared(profile: AnyProfile, startedAt: string, durationMs: number, errors: string[]): ProfileRun {
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

export async function runProfile(
  profile: AnyProfile,
  req: ProfileRunOptions,
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
      mockThread ? { mockThread } : {},
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

export function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
