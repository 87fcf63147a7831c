/**
 * The results model: one stream of check results feeds JUnit, HTML and results.json.
 * Everything here is already redacted: nothing that enters a CheckResult may hold a secret.
 */
import type { CoverageTable } from '../openapi/coverage.ts';
import type { WindowStats } from '../http/connections/window.ts';
import type { Level } from '../catalogue/index.ts';
import type { Environment } from '../profile/schema.ts';
import type { RecordedExchange } from '../http/types.ts';
import type { TlsEvidence } from '../tls/types.ts';
import type { Failure } from './failure.ts';

// recorded exchanges and TLS evidence are defined where they are made (transport, primitives)
export type { RecordedExchange, RecordedMessage } from '../http/types.ts';
export type { TlsEvidence } from '../tls/types.ts';
export type { Failure, FailureKind } from './failure.ts';

/**
 * semver of results.json: a minor bump adds optional fields or verdicts (a reader of 1.x reads every 1.y with y no
 * newer than its own); a major bump changes or removes one. 1.1.0: the INTERRUPTED verdict, `traffic`,
 * sealed evidence, `evidence.property`. 1.2.0: `evidence.property.roundTrips` and `chain`. 1.5.0: a failure's records
 * (`failures`, lib/engine/failure.ts).
 */
export const RESULTS_SCHEMA_VERSION = '1.5.0';

/**
 * pass            the rule held
 * fail            a MUST rule was broken (fails the run)
 * warn            a SHOULD rule was broken (reported, does not fail the run unless --fail-on should)
 * not-applicable  the rule does not apply to this profile (reason says why)
 * not-run         the rule applies but was not checked (needs a test clock, --long, --destructive, a certificate...)
 * inconclusive    the check could not isolate its cause (a refusal that may come from another rule)
 * expected-fail   broke, and the profile lists it as a known deviation
 * unexpected-pass listed as a known deviation but held: the deviation file is stale (fails the run)
 * error           the harness itself failed while checking (fails the run)
 */
export type Verdict =
  | 'pass'
  | 'fail'
  | 'warn'
  | 'not-applicable'
  | 'not-run'
  | 'inconclusive'
  | 'expected-fail'
  | 'unexpected-pass'
  | 'error';

export interface Evidence {
  exchanges: RecordedExchange[];
  notes: string[];
  tls: TlsEvidence[];
  /** one line per negative case of a check that sends several (e.g. the JOSE families), in the order sent */
  cases?: CaseOutcome[];
  /** a property-based check's run: what it searched, how to replay it (lib/engine/property/property.ts) */
  property?: PropertyEvidence;
}

/**
 * What a property-based check searched (lib/engine/property/property.ts). Passing runs are counted, not stored; a failing
 * one is shrunk to the smallest input found, which the evidence shows with its exchange (redacted).
 */
export interface PropertyEvidence {
  /** in words, e.g. "refused 200/200 near-miss masks (seed 123456)" */
  summary: string;
  /** fast-check seed of the check's inputs: derived from the run's data seed and the check id */
  seed: number;
  /** the run's data seed (dataSeed of the profile run): `--seed <dataSeed>` replays these inputs */
  dataSeed: number;
  /** inputs planned (run.properties.runs) */
  planned: number;
  /** distinct inputs among those generated (an input generated twice is sent once) */
  distinct?: number;
  /** inputs sent (fewer than planned when the quota stopped the run, or once a failure was found) */
  runs: number;
  /** inputs the target got right / wrong / that were no evidence (429, transport error, a refusal of another cause) */
  held: number;
  broken: number;
  unclear: number;
  /** fresh quota windows the search went on in (the test clock moved past the one it spent) */
  windowMoves: number;
  /**
   * the search's round trips one after another (its passing inputs' exchanges are counted, not kept): the longest
   * chain of its calls that did not overlap, and those calls' times (lib/engine/property/depth.ts); the bench's critical path
   * counts them. Since 1.2.0; absent when the search sent nothing
   */
  roundTrips?: number;
  chain?: { startedAt: string; durationMs: number }[];
  /** why fewer inputs than planned were sent */
  stopped?: string;
  /** the coverage phase (PropertySpec.coverage): its classes, and those sent and judged */
  coverage?: { classes: number; covered: number };
  /** random inputs judged (held or broken) */
  randomJudged?: number;
  /** inputs or positive controls answered with the contract's quota answer (each sent again in a fresh window) */
  quotaAnswers?: number;
  /** the smallest failing input found (redacted), and how to find it again */
  counterexample?: {
    input: string;
    observed: string;
    /** fast-check path of the counterexample: fc.check(property, { seed, path }) replays it */
    path: string;
    /** the first failing input found, before shrinking */
    firstFound: string;
    /** calls spent shrinking (bounded by run.properties.shrinkCalls) */
    shrinkCalls: number;
  };
}

/**
 * A negative case's own outcome: `fail` when the target did not refuse it (accepted, or answered something
 * else than the refusal), `inconclusive` when the cause was not isolated, `not-run` when it could not be sent.
 */
export interface CaseOutcome {
  /** the case id within the check, e.g. "A12" */
  id: string;
  verdict: 'pass' | 'fail' | 'inconclusive' | 'not-run';
  /** what was observed, e.g. "refused", "accepted", "no-answer" */
  outcome: string;
  detail: string;
}

export interface CheckResult {
  /** stable check id: `<suite>.<name>` */
  checkId: string;
  suite: string;
  title: string;
  requirements: string[];
  /** the ids of `requirements` the check judges only in part (CheckDefinition.partial): a pass does not verify them */
  partial?: string[];
  /**
   * the ids a failure broke (verdict fail, warn or expected-fail), when fewer than `requirements`
   * (CheckFailed.requirements); absent: every id
   */
  failed?: string[];
  level: Level;
  verdict: Verdict;
  /** why: the reason for not-applicable/not-run/inconclusive/expected-fail, the failure message otherwise */
  reason?: string;
  expected?: string;
  observed?: string;
  /**
   * (1.5.0) what a fail, warn or expected-fail found wrong, as data (lib/engine/failure.ts): one record, or one per
   * negative case not refused; the reports, the HAR comments and the fault matrix read these fields
   */
  failures?: Failure[];
  evidence: Evidence;
  durationMs: number;
  /** the profile waives this id (its reason): a not-run or inconclusive MUST does not make the run INCOMPLETE */
  waived?: string;
  /** the failed prerequisite that kept this check from running (verdict inconclusive, no traffic sent) */
  blockedBy?: string;
}

/** A prerequisite (lib/engine/session/prerequisites.ts): established once per run, with its own result. */
export interface PrerequisiteResult {
  /** tls-handshake, reach-api, client-credentials-token, sealed-response-opens, code-grant */
  id: string;
  title: string;
  /** inconclusive: blocked by another prerequisite (blockedBy) */
  verdict: 'pass' | 'fail' | 'not-applicable' | 'inconclusive';
  reason?: string;
  blockedBy?: string;
  evidence: Evidence;
  durationMs: number;
}

export interface TargetFingerprint {
  baseUrl: string;
  oauthBaseUrl?: string;
  serverCertificateSha256?: string;
  embeddedMock: boolean;
  /** mock faults switched on for this run (embedded mock only) */
  faults: string[];
}

export interface ProfileRun {
  profile: string;
  environment: Environment;
  target: TargetFingerprint;
  /** contract defaults and profile overrides in force (redacted) */
  assumptions: Record<string, unknown>;
  startedAt: string;
  durationMs: number;
  results: CheckResult[];
  /** configuration or harness errors that stopped part of the run */
  errors: string[];
  /** the prerequisites established before the checks ran (certify runs) */
  prerequisites?: PrerequisiteResult[];
  /** why the target could not be reached at all (exit 4); absent when it answered */
  unreachable?: string;
  /** seed of the generated test data (lib/data): profile run.dataSeed replays the run's bodies */
  dataSeed?: number;
  /** the run was interrupted (SIGINT, SIGTERM) while this profile ran: its results are those reported before */
  interrupted?: string;
  /** what the run spent at the target: calls per operation, the adapted concurrency (lib/engine/session/spend.ts) */
  traffic?: ProfileTraffic;
  /** the bank's OpenAPI document and its coverage by the run's answers (docs/openapi.md), when the profile names one */
  openapi?: OpenApiRun;
}

/** results.json `openapi`: the document, what the loader noted, each operation × documented status as seen */
export interface OpenApiRun {
  /** the file as the profile names it */
  source: string;
  /** its `openapi` version */
  version: string;
  notes: string[];
  coverage: CoverageTable;
}

/** a gateway's throttling as a profile run met it (lib/engine/session/throttle/throttle.ts) */
export interface ThrottleStats {
  /** answers that were a gateway's throttle */
  throttled: number;
  /** calls sent again after one */
  retries: number;
  /** time waited before those (ms, all calls together) */
  waitedMs: number;
  /** calls whose tries were used up: inconclusive */
  gaveUp: number;
  /** burst replies a gateway answered (no part in the race) */
  burstReplies?: number;
  /** the widest spacing of calls to one origin (ms) */
  spacingMs?: number;
  /** the statuses seen, e.g. {"429": 40} */
  statuses: Record<string, number>;
}

export interface ProfileTraffic {
  /** per target origin, the calls in flight at once as the harness adapted them (lib/http/connections/window.ts) */
  concurrency: Record<string, WindowStats>;
  /** attempts per operation (validate, create, get, token, authorize, clock, other): the quota each spent */
  calls: Record<string, number>;
  /** a gateway's throttle answers, the calls sent again after them and the time waited (session/throttle/); absent: none */
  throttle?: ThrottleStats;
}

export interface RunResults {
  /** RESULTS_SCHEMA_VERSION of the harness that wrote it */
  schemaVersion: string;
  harness: { name: string; version: string; commit?: string; node: string };
  catalogueVersion: string;
  startedAt: string;
  finishedAt: string;
  options: { long: boolean; destructive: boolean; failOn: 'must' | 'should'; filters: Record<string, string[]> };
  profiles: ProfileRun[];
  /** the run was stopped by a signal before it ended: what was verified until then */
  interrupted?: { signal: string; at: string };
}

/** Verdicts that fail a run. `warn` counts when failOn is 'should'. */
export function isFailing(v: Verdict, failOn: 'must' | 'should'): boolean {
  return v === 'fail' || v === 'error' || v === 'unexpected-pass' || (failOn === 'should' && v === 'warn');
}

/**
 * The check's verdict for one of its ids, undefined when it says nothing of that id: a failure that broke other ids
 * (`failed`: the search stopped at its counterexample, the rest not judged to the end), a pass of an id it judges only
 * in part (`partial`). The traceability matrix reads a requirement's verdicts through this.
 */
export function requirementVerdict(
  r: Pick<CheckResult, 'requirements' | 'partial' | 'failed' | 'verdict'>,
  id: string,
): Verdict | undefined {
  if (!r.requirements.includes(id)) return undefined;
  const failing = r.verdict === 'fail' || r.verdict === 'warn' || r.verdict === 'expected-fail';
  if (failing) return r.failed === undefined || r.failed.includes(id) ? r.verdict : undefined;
  if (r.partial?.includes(id) && (r.verdict === 'pass' || r.verdict === 'unexpected-pass')) return undefined;
  return r.verdict;
}
