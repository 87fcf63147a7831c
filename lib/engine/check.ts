/**
 * A check: small, names its requirement id(s), passes or throws. Severity and applicability come from the
 * catalogue and the profile, never from the check's code (docs/design.md, "Severity and applicability are data").
 */
import type { CheckContext } from './session/context.ts';
import type { Environment, FullProfile } from '../profile/schema.ts';
import type { PrerequisiteBoard, PrerequisiteId } from './types.ts';
import { HarnessError } from '../errors.ts';
import { failure, show, type Failure, type FailureDetail } from './failure.ts';
import { exchangeOf } from '../http/record/exchanges.ts';
import type { HttpResponse } from '../http/types.ts';

export { show };

/** What a check needs beyond a target. The runner turns a missing need into a `not-run` verdict with its reason. */
export type Need =
  /** moves the target's clock (a `clock` URL in the profile), or waits when --long allows it */
  | 'clock'
  /** exhausts a quota: always allowed against the embedded mock, else only with --destructive */
  | 'destructive'
  /** a listener of the harness the target can reach (profile run.canaryHost): the embedded mock uses loopback */
  | 'canary';

export interface CheckDefinition {
  /** `<suite>.<name>`, stable across releases (known deviations and compare key on it) */
  id: string;
  suite: string;
  requirements: readonly string[];
  /**
   * ids of `requirements` of which the check judges only a part (e.g. a 422 naming the member, not the message of
   * the same rule): a failure may break them, a pass does not verify them (results.ts requirementVerdict)
   */
  partial?: readonly string[];
  title: string;
  needs?: readonly Need[];
  /**
   * a 'destructive' check whose calls, with a test clock, fit in a fresh quota window less one call (it asks for the
   * window: ctx.clock.window): it needs --destructive only against a target without a test clock
   */
  fitsFreshWindow?: boolean;
  /**
   * Longest real wait (seconds) the check needs when the target has no test clock; the check then runs only
   * with --long and only when this is at most RunOptions.maxWaitSeconds. Undefined: cannot be waited for.
   */
  waitSeconds?: number | ((profile: FullProfile) => number);
  /**
   * prerequisites the check needs before it sends anything (lib/engine/session/prerequisites.ts); default: reach-api (and
   * tls-handshake in UAT). Token prerequisites are also enforced when the check asks for a cached token.
   */
  prerequisites?: readonly PrerequisiteId[];
  /** must run alone: moves the clock, exhausts quotas or otherwise disturbs concurrent checks */
  exclusive?: boolean;
  /**
   * exclusive checks of one clock group run side by side, as one exclusive unit: each moves the clock once with
   * ctx.clock.advanceTogether (one move for all, the largest asked) and, after that move, needs only that enough
   * time has passed (more does not change its verdict) — or moves the clock again itself, which the others must
   * tolerate likewise. With a test clock every exclusive check rides one shared timeline (runner.ts, windows.ts), so
   * the group matters only without one (`--long`, the ad hoc Vitest path)
   */
  clockGroup?: string;
  /**
   * a long chain of dependent round trips (race bursts one after another): among the shared checks it is started
   * first, so that the shared phase does not wait on it at its end (against a distant target)
   */
  startEarly?: boolean;
  /**
   * a property-based check (lib/engine/property/property.ts): many generated inputs, a quota window's worth of calls or more;
   * the fault matrix runs it only in the clean cases and the cases of faults on its own ids (like quota checks)
   */
  property?: boolean;
  /**
   * runs once every other check of the run has ended (after the exclusive ones): a check that judges what the whole
   * run received (the openapi suite judges every answer against the bank's document)
   */
  last?: boolean;
  /** extra applicability beyond the catalogue: return the reason when the check does not apply */
  notApplicable?: (profile: FullProfile) => string | undefined;
  run(ctx: CheckContext): Promise<void>;
}

/** the real wait a check declares for this profile (undefined: it cannot be waited for) */
export function waitOf(def: Pick<CheckDefinition, 'waitSeconds'>, profile: FullProfile): number | undefined {
  return typeof def.waitSeconds === 'function' ? def.waitSeconds(profile) : def.waitSeconds;
}

export interface SuiteDefinition {
  name: string;
  checks: readonly CheckDefinition[];
}

/** A check as written in a suite: its id is `<suite>.<name>`. */
export type CheckSpec = Omit<CheckDefinition, 'suite' | 'id'> & { name: string };

export function defineSuite(name: string, checks: readonly CheckSpec[]): SuiteDefinition {
  const seen = new Set<string>();
  return {
    name,
    checks: checks.map((c) => {
      if (seen.has(c.name)) throw new Error(`suite ${name}: duplicate check name ${c.name}`);
      seen.add(c.name);
      const { name: short, ...rest } = c;
      return { ...rest, suite: name, id: `${name}.${short}` };
    }),
  };
}

// ---- outcomes a check throws ---------------------------------------------------------------------------

/**
 * The target broke a rule. Carries its failure records (failure.ts): the one given, several (each negative case a
 * family's target did not refuse), or, when none is given, a generic one of the message, expected and observed.
 * Its message, the verdict's reason, is the text the check gives.
 */
export class CheckFailed extends HarnessError {
  readonly code = 'CHECK_FAILED';
  readonly expected?: string;
  readonly observed?: string;
  /**
   * the ids the failure breaks, when it breaks fewer than the check names (a property's counterexample breaks one
   * rule): the results mark only these failed, and the verdict's level is theirs; undefined: every id of the check
   */
  readonly requirements?: readonly string[];
  /** what was found wrong, as data (results.json `failures`) */
  readonly failures: readonly Failure[];
  constructor(message: string, detail: FailureDetail & { failures?: readonly Failure[] } = {}) {
    super(message);
    this.name = 'CheckFailed';
    // a value given, even undefined (a member read and found absent), is shown; one not given stays absent
    if ('expected' in detail) this.expected = show(detail.expected);
    if ('observed' in detail) this.observed = show(detail.observed);
    if (detail.requirements && detail.requirements.length > 0) this.requirements = [...detail.requirements];
    this.failures = detail.failures?.length ? [...detail.failures] : [failure('generic', message, {}, detail)];
  }

  /** a failure of one record: its message the record's, expected, observed and requirements its own */
  static of(f: Failure): CheckFailed {
    return new CheckFailed(f.message, {
      ...(f.expected !== undefined ? { expected: f.expected } : {}),
      ...(f.observed !== undefined ? { observed: f.observed } : {}),
      ...(f.requirements ? { requirements: f.requirements } : {}),
      failures: [f],
    });
  }
}
/** The check could not isolate its cause. */
export class Inconclusive extends HarnessError {
  override name = 'Inconclusive';
  readonly code: 'CHECK_INCONCLUSIVE' | 'CHECK_BLOCKED' = 'CHECK_INCONCLUSIVE';
}
/**
 * Inconclusive because the target answered with the contract's quota answer (its window spent, no fresh one to move
 * to: lib/engine/session/quota-windows.ts): the target's own answer, whatever route the call took.
 */
export class QuotaSpent extends Inconclusive {}
/** A prerequisite of the check failed (lib/engine/session/prerequisites.ts): inconclusive at once, naming it. */
export class Blocked extends Inconclusive {
  override name = 'Blocked';
  override readonly code = 'CHECK_BLOCKED';
  constructor(
    readonly prerequisite: string,
    why: string,
  ) {
    super(`blocked by prerequisite ${prerequisite}: ${why}`);
  }
}
/** the prerequisites every check needs unless it says otherwise */
export function defaultPrerequisites(profile: FullProfile): readonly PrerequisiteId[] {
  return profile.environment === 'uat' ? ['tls-handshake', 'reach-api'] : ['reach-api'];
}

/** the prerequisites a check needs */
export function prerequisitesOf(def: CheckDefinition, profile: FullProfile): readonly PrerequisiteId[] {
  return def.prerequisites ?? defaultPrerequisites(profile);
}

/** the first failed prerequisite a check needs, as the error that reports it */
export function blockerOf(def: CheckDefinition, profile: FullProfile, board: PrerequisiteBoard): Blocked | undefined {
  for (const id of prerequisitesOf(def, profile)) {
    const why = board.failed(id);
    // a failure that breaks one rule (e.g. TLS-05) is judged by that rule's checks: they are not blocked by it
    const rule = board.rule?.(id);
    if (why !== undefined && !(rule && def.requirements.includes(rule))) return new Blocked(id, why);
  }
  return undefined;
}
/** The rule applies but was not checked (with the reason). */
export class NotRun extends HarnessError {
  override name = 'NotRun';
  readonly code = 'CHECK_NOT_RUN';
}
/** The rule does not apply to this target (with the reason). */
export class NotApplicable extends HarnessError {
  override name = 'NotApplicable';
  readonly code = 'CHECK_NOT_APPLICABLE';
}

// ---- small assertions with expected vs observed ---------------------------------------------------------

/** expected and observed as the caller gave them: a value not passed is not stated (never the text "undefined") */
type Stated = [expected?: unknown, observed?: unknown];
const stated = (eo: Stated): FailureDetail => ({
  ...(eo.length > 0 ? { expected: eo[0] } : {}),
  ...(eo.length > 1 ? { observed: eo[1] } : {}),
});

export function fail(message: string, ...eo: Stated): never {
  throw new CheckFailed(message, stated(eo));
}

export function ensure(condition: unknown, message: string, ...eo: Stated): asserts condition {
  if (!condition) throw new CheckFailed(message, stated(eo));
}

/** a `value` failure: `name` (what was read: a member, a header, a count) is not as the rule says */
export function failValue(name: string, message: string, ...eo: Stated): never {
  throw CheckFailed.of(failure('value', message, { name }, stated(eo)));
}

/** `condition`, or a `value` failure of `name` (expected and observed as given, like ensure's) */
export function ensureValue(condition: unknown, name: string, message: string, ...eo: Stated): asserts condition {
  if (!condition) failValue(name, message, ...eo);
}

/** a `value` record of `name` (several findings of one check: each its record, the check's message their summary) */
export function valueFailure(name: string, message: string, detail: FailureDetail = {}): Failure {
  return failure('value', message, { name }, detail);
}

/** `what` (e.g. "JWE enc") read as `observed`, the rule's value `expected`: a `value` failure otherwise */
export function ensureEqual<T>(observed: T, expected: T, what: string): void {
  if (!deepEqual(observed, expected))
    throw CheckFailed.of(
      failure(
        'value',
        `${what}: expected ${show(expected)}, observed ${show(observed)}`,
        { name: what },
        {
          expected,
          observed,
        },
      ),
    );
}

/** an answer's status among `expected`: a `status` failure otherwise */
export function ensureStatus(
  res: { status: number; raw?: HttpResponse },
  expected: number | readonly number[],
  what: string,
): void {
  const list = typeof expected === 'number' ? [expected] : expected;
  if (!list.includes(res.status))
    throw CheckFailed.of(
      statusFailure(res, list, `${what}: expected HTTP ${list.join(' or ')}, observed ${res.status}`),
    );
}

/**
 * a `status` record: the target answered `res` (a status, or an answer: then the exchange it came from) where the
 * rule allows `allowed` (expected: their list, unless given)
 */
export function statusFailure(
  res: number | { status: number; raw?: HttpResponse },
  allowed: readonly number[],
  message: string,
  detail: Omit<FailureDetail, 'observed'> = {},
): Failure {
  const status = typeof res === 'number' ? res : res.status;
  const from = typeof res === 'number' || !res.raw ? undefined : exchangeOf(res.raw);
  return failure(
    'status',
    message,
    { statuses: [...allowed], status },
    { expected: allowed.join(' or '), ...(from ? { from } : {}), ...detail, observed: status },
  );
}

/** a `leak` record: each finding in `found` (observed: the findings, unless given) */
export function leakFailure(message: string, found: readonly string[], detail: FailureDetail = {}): Failure {
  return failure('leak', message, { found: [...found] }, { observed: found, ...detail });
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]));
  }
  return false;
}

export type { Environment };
