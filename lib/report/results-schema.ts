/**
 * The zod schema of results.json (RunResults, lib/engine/results.ts), versioned with
 * RESULTS_SCHEMA_VERSION. readResults() validates with it, so an archived file that does not match
 * the model is refused rather than half-rendered. Documented in docs/results-schema.md.
 *
 * The compile-time assertions at the bottom keep this schema and the TypeScript model in step.
 */
import { z } from 'zod';
import { Level } from '../catalogue/index.ts';
import { Environment } from '../profile/schema.ts';
import { RESULTS_SCHEMA_VERSION } from '../engine/results.ts';
import type { Failure, RunResults as RunResultsModel } from '../engine/results.ts';

export { RESULTS_SCHEMA_VERSION };

/**
 * A version this harness reads: the same major as RESULTS_SCHEMA_VERSION and a minor no newer than its own (a minor
 * version only adds optional fields or verdicts, so an older file is read as it was written).
 */
export function readableVersion(version: unknown): boolean {
  const m = typeof version === 'string' ? /^(\d+)\.(\d+)\.(\d+)$/.exec(version) : null;
  const [major, minor] = RESULTS_SCHEMA_VERSION.split('.').map(Number);
  return m !== null && Number(m[1]) === major && Number(m[2]) <= (minor ?? 0);
}

export const VerdictSchema = z.enum([
  'pass',
  'fail',
  'warn',
  'not-applicable',
  'not-run',
  'inconclusive',
  'expected-fail',
  'unexpected-pass',
  'error',
]);

const Headers = z.record(z.string(), z.string());
const RecordedMessage = z.object({ headers: Headers, body: z.string().optional() });

export const RecordedExchangeSchema = z.object({
  label: z.string().optional(),
  method: z.string(),
  url: z.string(),
  startedAt: z.string(),
  durationMs: z.number().nonnegative(),
  request: RecordedMessage,
  response: RecordedMessage.extend({ status: z.number().int() }).optional(),
  error: z.string().optional(),
  jose: z
    .object({
      direction: z.enum(['request', 'response']),
      form: z.string(),
      headers: z.array(z.record(z.string(), z.unknown())),
      opened: z.unknown().optional(),
      innerHeader: z.record(z.string(), z.unknown()).optional(),
      verifiedWith: z.string().optional(),
    })
    .optional(),
  sealedPlaintext: z.string().optional(),
});

export const TlsEvidenceSchema = z.object({
  label: z.string(),
  protocol: z.string().nullable().optional(),
  cipher: z.string().nullable().optional(),
  authorized: z.boolean().optional(),
  authorizationError: z.string().nullable().optional(),
  peerCertificate: z
    .object({
      subject: z.string(),
      issuer: z.string(),
      validFrom: z.string(),
      validTo: z.string(),
      sha256: z.string(),
      keyBits: z.number().int().optional(),
      subjectAltName: z.string().optional(),
      keyType: z.string().optional(),
      chain: z
        .array(
          z.object({
            subject: z.string(),
            issuer: z.string(),
            validFrom: z.string(),
            validTo: z.string(),
            sha256: z.string(),
          }),
        )
        .optional(),
    })
    .optional(),
  outcome: z.string(),
});

export const CaseOutcomeSchema = z.object({
  id: z.string().min(1),
  verdict: z.enum(['pass', 'fail', 'inconclusive', 'not-run']),
  outcome: z.string(),
  detail: z.string(),
});

const count = z.number().int().nonnegative();

export const PropertyEvidenceSchema = z.object({
  summary: z.string(),
  seed: count,
  dataSeed: count,
  planned: count,
  distinct: count.optional(),
  runs: count,
  held: count,
  broken: count,
  unclear: count,
  windowMoves: count,
  roundTrips: count.optional(),
  chain: z.array(z.object({ startedAt: z.string(), durationMs: z.number().nonnegative() })).optional(),
  stopped: z.string().optional(),
  coverage: z.object({ classes: count, covered: count }).optional(),
  randomJudged: count.optional(),
  quotaAnswers: count.optional(),
  counterexample: z
    .object({ input: z.string(), observed: z.string(), path: z.string(), firstFound: z.string(), shrinkCalls: count })
    .optional(),
});

export const EvidenceSchema = z.object({
  exchanges: z.array(RecordedExchangeSchema),
  notes: z.array(z.string()),
  tls: z.array(TlsEvidenceSchema),
  cases: z.array(CaseOutcomeSchema).optional(),
  property: PropertyEvidenceSchema.optional(),
});

const FailureCommon = {
  title: z.string(),
  message: z.string(),
  requirements: z.array(z.string()).optional(),
  operation: z.string().optional(),
  expected: z.string().optional(),
  observed: z.string().optional(),
  label: z.string().optional(),
  exchange: count.optional(),
};

/** (1.5.0) a failure record (lib/engine/failure.ts) */
export const FailureSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('status'),
    ...FailureCommon,
    statuses: z.array(z.number().int()),
    status: z.number().int(),
  }),
  z.object({ kind: z.literal('value'), ...FailureCommon, name: z.string() }),
  z.object({
    kind: z.literal('negative-accepted'),
    ...FailureCommon,
    case: z.string(),
    caseTitle: z.string(),
    outcome: z.string(),
    status: z.number().int().optional(),
  }),
  z.object({ kind: z.literal('counterexample'), ...FailureCommon, input: z.string() }),
  z.object({
    kind: z.literal('document'),
    ...FailureCommon,
    status: z.number().int(),
    documented: z.string(),
    schemaPath: z.string(),
  }),
  z.object({ kind: z.literal('leak'), ...FailureCommon, found: z.array(z.string()) }),
  z.object({ kind: z.literal('generic'), ...FailureCommon }),
]);

export const CheckResultSchema = z.object({
  checkId: z.string().min(1),
  suite: z.string().min(1),
  title: z.string(),
  requirements: z.array(z.string()),
  partial: z.array(z.string()).optional(),
  failed: z.array(z.string()).optional(),
  level: Level,
  verdict: VerdictSchema,
  reason: z.string().optional(),
  expected: z.string().optional(),
  observed: z.string().optional(),
  failures: z.array(FailureSchema).optional(),
  evidence: EvidenceSchema,
  durationMs: z.number().nonnegative(),
  waived: z.string().optional(),
  blockedBy: z.string().optional(),
});

export const PrerequisiteResultSchema = z.object({
  id: z.string().min(1),
  title: z.string(),
  verdict: z.enum(['pass', 'fail', 'not-applicable', 'inconclusive']),
  reason: z.string().optional(),
  blockedBy: z.string().optional(),
  evidence: EvidenceSchema,
  durationMs: z.number().nonnegative(),
});

export const TargetFingerprintSchema = z.object({
  baseUrl: z.string(),
  oauthBaseUrl: z.string().optional(),
  serverCertificateSha256: z.string().optional(),
  embeddedMock: z.boolean(),
  faults: z.array(z.string()),
});

export const ProfileRunSchema = z.object({
  profile: z.string().min(1),
  environment: Environment,
  target: TargetFingerprintSchema,
  assumptions: z.record(z.string(), z.unknown()),
  startedAt: z.string(),
  durationMs: z.number().nonnegative(),
  results: z.array(CheckResultSchema),
  errors: z.array(z.string()),
  prerequisites: z.array(PrerequisiteResultSchema).optional(),
  unreachable: z.string().optional(),
  dataSeed: z.number().int().nonnegative().optional(),
  interrupted: z.string().optional(),
  traffic: z
    .object({
      concurrency: z.record(
        z.string(),
        z.object({
          initial: z.number().int().positive(),
          final: z.number().int().positive(),
          largest: z.number().int().nonnegative(),
          smallest: z.number().int().positive(),
          lateAnswers: z.number().int().nonnegative(),
          timeouts: z.number().int().nonnegative(),
          burstLimit: z.number().int().positive().optional(),
          connectRetries: z.number().int().positive().optional(),
          closedByTarget: z.number().int().positive().optional(),
          resets: z.number().int().positive().optional(),
          idleFreed: z.number().int().positive().optional(),
          connects: z.number().int().positive().optional(),
          connectsAhead: z.number().int().positive().optional(),
        }),
      ),
      calls: z.record(z.string(), z.number().int().nonnegative()),
      throttle: z
        .object({
          throttled: z.number().int().positive(),
          retries: z.number().int().nonnegative(),
          waitedMs: z.number().int().nonnegative(),
          gaveUp: z.number().int().nonnegative(),
          burstReplies: z.number().int().positive().optional(),
          spacingMs: z.number().int().nonnegative().optional(),
          statuses: z.record(z.string(), z.number().int().positive()),
        })
        .optional(),
    })
    .optional(),
  /** (1.4.0) the bank's OpenAPI document and its coverage (docs/openapi.md) */
  openapi: z
    .object({
      source: z.string(),
      version: z.string(),
      notes: z.array(z.string()),
      coverage: z.object({
        source: z.string(),
        rows: z.array(
          z.object({
            operation: z.string(),
            key: z.string().optional(),
            status: z.string(),
            documented: z.boolean(),
            valid: z.number().int().nonnegative(),
            invalid: z.number().int().nonnegative(),
            state: z.enum(['valid', 'invalid', 'never']),
          }),
        ),
        notCalled: z.array(z.string()),
        unmatched: z.number().int().nonnegative(),
      }),
    })
    .optional(),
});

export const RunResultsSchema = z.object({
  schemaVersion: z
    .string()
    .refine(readableVersion, `a results schema version this harness reads (1.0.0 to ${RESULTS_SCHEMA_VERSION})`),
  harness: z.object({ name: z.string(), version: z.string(), commit: z.string().optional(), node: z.string() }),
  catalogueVersion: z.string(),
  startedAt: z.string(),
  finishedAt: z.string(),
  options: z.object({
    long: z.boolean(),
    destructive: z.boolean(),
    failOn: z.enum(['must', 'should']),
    filters: z.record(z.string(), z.array(z.string())),
  }),
  profiles: z.array(ProfileRunSchema),
  interrupted: z.object({ signal: z.string(), at: z.string() }).optional(),
});

// Compile-time: the schema's output is a RunResults and a RunResults passes the schema's input type.
type Parsed = z.infer<typeof RunResultsSchema>;
type Assert<T extends true> = T;
export type SchemaMatchesModel = Assert<
  Parsed extends RunResultsModel ? (RunResultsModel extends Parsed ? true : false) : false
>;
// and a failure record both ways (an optional member the schema lacks would pass the assertion above)
type ParsedFailure = z.infer<typeof FailureSchema>;
export type FailureSchemaMatchesModel = Assert<
  ParsedFailure extends Failure ? (Failure extends ParsedFailure ? true : false) : false
>;
export type FailuresKept = Assert<
  'failures' extends keyof Parsed['profiles'][number]['results'][number] ? true : false
>;
