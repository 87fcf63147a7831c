/**
 * Prerequisites: what many checks need (a TLS handshake, an API that answers, a client-credentials token, a sealed
 * answer that opens, a code grant), established once per run, each with its own result. A check whose prerequisite
 * failed is reported at once as inconclusive naming it (blockedBy), without traffic: a dead or hanging target then
 * costs about one request timeout per prerequisite instead of one per check.
 */
import { Blocked, NotRun, type CheckDefinition } from '../check.ts';
import { Throttled } from './throttle/throttle.ts';
import { interceptedReason } from '../../tls/tunnel.ts';
export { blockerOf, defaultPrerequisites } from '../check.ts';
import type { CheckContext } from './context.ts';
import type { ContextFactory } from '../run/runner.ts';
import type { Evidence, PrerequisiteResult } from '../results.ts';
import type { PrerequisiteBoard, PrerequisiteId } from '../types.ts';
import type { FullProfile } from '../../profile/schema.ts';
import { TransportError } from '../../http/types.ts';
import { PrerequisiteFailed, RuleBroken, ThroughProxy, tlsHandshake, type Shared } from './prerequisite-handshake.ts';

export type { PrerequisiteBoard, PrerequisiteId };

export interface MutableBoard extends PrerequisiteBoard {
  /** `rule`: the requirement the failure breaks (its checks judge it, PrerequisiteBoard.rule) */
  fail(id: PrerequisiteId, why: string, rule?: string): void;
  rule(id: PrerequisiteId): string | undefined;
  /** the run establishes its prerequisites: settled() now waits for them */
  begin(): void;
  settle(id: PrerequisiteId): void;
}

export function createBoard(): MutableBoard {
  const failed = new Map<PrerequisiteId, string>();
  const rules = new Map<PrerequisiteId, string>();
  const done = new Map<PrerequisiteId, { promise: Promise<void>; resolve: () => void }>();
  let establishing = false;
  const deferred = (id: PrerequisiteId): { promise: Promise<void>; resolve: () => void } => {
    let d = done.get(id);
    if (!d) {
      let resolve = (): void => {};
      const promise = new Promise<void>((r) => (resolve = r));
      d = { promise, resolve };
      done.set(id, d);
    }
    return d;
  };
  return {
    failed: (id) => failed.get(id),
    fail: (id, why, rule) => {
      failed.set(id, why);
      if (rule) rules.set(id, rule);
    },
    rule: (id) => rules.get(id),
    begin: () => void (establishing = true),
    settle: (id) => deferred(id).resolve(),
    settled: (id) => (establishing ? deferred(id).promise : Promise.resolve()),
  };
}

interface Step {
  id: PrerequisiteId;
  title: string;
  needs: readonly PrerequisiteId[];
  /** the reason it does not apply to this profile, undefined when it does */
  notApplicable?: (p: FullProfile) => string | undefined;
  /** resolves with a note when it holds; throws PrerequisiteFailed (or Blocked) when it does not */
  run(ctx: CheckContext, evidence: Evidence, shared: Shared): Promise<string>;
}

const STEPS: Step[] = [
  {
    id: 'tls-handshake',
    title: 'a mutual-TLS handshake with the code client certificate',
    needs: [],
    notApplicable: (p) => (p.environment === 'uat' ? undefined : 'sandbox targets speak plain HTTP'),
    run: (ctx, _evidence, shared) => tlsHandshake(ctx, shared),
  },
  {
    id: 'reach-api',
    title: 'the API answers HTTP at its own paths (a known path that answers 404 is a configuration error)',
    needs: ['tls-handshake'],
    notApplicable: (p) => (p.target.api === 'none' ? 'the profile declares no API behind the target' : undefined),
    run: (ctx) => reachApi(ctx),
  },
  {
    id: 'client-credentials-token',
    title: 'a client-credentials token for the partner client',
    needs: ['reach-api'],
    notApplicable: (p) => (p.clients.partner ? undefined : 'the profile has no partner client'),
    run: async (ctx, evidence, shared) => {
      try {
        await attempt(() => ctx.tokens.partnerToken(), evidence);
      } finally {
        shared.tokenAnswer = evidence.exchanges.at(-1);
      }
      return 'partner token issued';
    },
  },
  {
    id: 'sealed-response-opens',
    title: 'the sealed client-credentials answer opens (decrypt, verify)',
    needs: ['reach-api'],
    notApplicable: (p) =>
      p.environment !== 'uat'
        ? 'sandbox answers are plain JSON'
        : p.clients.partner
          ? undefined
          : 'the profile has no partner client',
    run: async (ctx, evidence, shared) => {
      // the partner token answer client-credentials-token got is the sealed answer; asked again only when it failed
      const seen = shared.tokenAnswer;
      if (seen?.jose?.direction === 'response' && seen.jose.opened !== undefined) return 'the token answer opened';
      const r = await transport(() => ctx.tokens.clientCredentials('partner', { fresh: true }));
      evidence.notes.push(`token answer HTTP ${r.response.status}`);
      if (!r.opened) throw new PrerequisiteFailed(`the token answer (HTTP ${r.response.status}) was not sealed`);
      if (!r.opened.ok)
        throw new PrerequisiteFailed(`did not open: ${r.opened.step} ${r.opened.code}: ${r.opened.reason}`);
      return 'opened';
    },
  },
  {
    id: 'code-grant',
    title: 'an authorization-code grant for the first customer',
    needs: ['reach-api'],
    run: async (ctx, evidence) => {
      await attempt(() => ctx.tokens.codeToken(ctx.customer(0)), evidence);
      return 'access token issued';
    },
  },
];

/**
 * The API's own paths exist: a validate call, and when it answers 404 a GET of an unknown transfer, both without a
 * token (a conformant API answers 401). Both answering 404 is a configuration error, named with the URLs tried (e.g. a
 * baseUrl ending in /v1 while the basepath adds /v1 again); any other answer shows the API there. Whether a path
 * demands a token is each check's control (suites/tokens/helpers.ts expectTokenAccepted), not this prerequisite's.
 */
const CONFIGURATION_ERROR = 'configuration error';

async function reachApi(ctx: CheckContext): Promise<string> {
  const label = 'prerequisite: the API answers at its own paths';
  // one call first (a dead target costs one request timeout); the second only when the first found nothing there
  const validate = await transport(() =>
    ctx.api({ op: 'validate', token: null, body: ctx.transferBody(ctx.customer(0)), label: `${label} (validate)` }),
  );
  if (validate.status !== 404) return `POST validate without a token: HTTP ${validate.status}`;
  const get = await transport(() => ctx.api({ op: 'get', token: null, label: `${label} (get)` }));
  const getUrl = ctx.url('transfer').replace('{transfer_id}', '<unknown id>');
  if (get.status === 404)
    throw new PrerequisiteFailed(
      `${CONFIGURATION_ERROR}: the API's own paths answer HTTP 404 (not found): POST ${ctx.url('validate')}, GET ${getUrl}; check target.baseUrl and paths.transfersBasepath (a baseUrl ending in /v1 with the basepath /v1 asks for /v1/v1/...)`,
    );
  return `without a token: POST validate HTTP 404 (paths.validate may be wrong), GET of an unknown transfer HTTP ${get.status}`;
}

/** a transport error is the prerequisite's failure, named by its (budget) message */
async function transport<T>(f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (e) {
    if (e instanceof TransportError) throw new PrerequisiteFailed(e.message);
    throw e;
  }
}

/** any error of a token helper fails the prerequisite (its message says what came back) */
async function attempt(f: () => Promise<unknown>, evidence: Evidence): Promise<void> {
  try {
    await f();
  } catch (e) {
    if (e instanceof Blocked || e instanceof Throttled) throw e;
    const last = evidence.exchanges.at(-1);
    const sealed = typeof last?.jose?.opened === 'string' ? ` (${last.jose.opened})` : '';
    throw new PrerequisiteFailed(`${e instanceof Error ? e.message : String(e)}${sealed}`);
  }
}

export interface Established {
  results: PrerequisiteResult[];
  /** why the target cannot be reached at all (tls-handshake or reach-api failed), undefined when it answers */
  unreachable?: string;
  serverCertificateSha256?: string;
}

/** runs one step into its own result; records a failure on the board */
async function establish(
  step: Step,
  factory: ContextFactory,
  board: MutableBoard,
  shared: Shared,
  stop?: AbortSignal,
): Promise<PrerequisiteResult> {
  const evidence: Evidence = { exchanges: [], notes: [], tls: [] };
  const started = performance.now();
  const result = (verdict: PrerequisiteResult['verdict'], extra: Partial<PrerequisiteResult>): PrerequisiteResult => ({
    id: step.id,
    title: step.title,
    verdict,
    ...extra,
    ...(extra.reason ? { reason: factory.redact(extra.reason) } : {}),
    evidence: { ...evidence, notes: evidence.notes.map((n) => factory.redact(n)) },
    durationMs: Math.round(performance.now() - started),
  });
  const na = step.notApplicable?.(factory.profile);
  if (na) return result('not-applicable', { reason: na });
  for (const need of step.needs) {
    const why = board.failed(need);
    if (why === undefined) continue;
    board.fail(step.id, `blocked by ${need}`, board.rule(need));
    return result('inconclusive', { reason: `blocked by prerequisite ${need}: ${why}`, blockedBy: need });
  }
  const def: CheckDefinition = {
    id: `prerequisite.${step.id}`,
    suite: 'prerequisites',
    requirements: [],
    title: step.title,
    prerequisites: [],
    run: async () => {},
  };
  const ctx = factory.context(def, evidence, stop);
  try {
    const note = await step.run(ctx, evidence, shared);
    return result('pass', { reason: note });
  } catch (e) {
    const why = factory.redact(e instanceof Error ? e.message : String(e));
    board.fail(step.id, why, e instanceof RuleBroken ? e.rule : undefined);
    if (e instanceof Blocked) return result('inconclusive', { reason: e.message, blockedBy: e.prerequisite });
    // a gateway that kept throttling the step's calls (throttle/throttle.ts): not established, not failed by the target
    if (e instanceof Throttled) return result('inconclusive', { reason: why });
    // the run's proxy refused the certificate or broke the handshake (prerequisite-handshake.ts): never the target's
    if (e instanceof ThroughProxy) return result('inconclusive', { reason: why });
    // through a proxy that re-terminates TLS (lib/tls/tunnel.ts) the target sees the proxy's client certificate,
    // not this client's: a refusal past the handshake may be the proxy's doing (reaching the target still counts)
    const proxied = step.id === 'tls-handshake' || step.id === 'reach-api' ? undefined : interceptedReason(ctx.proxy);
    if (proxied) return result('inconclusive', { reason: `${why} (${proxied})` });
    return result('fail', { reason: why });
  } finally {
    ctx.dispose();
  }
}

/**
 * the run deadline (--deadline) for the prerequisites: `reached` resolves then and `stop` aborts (a request in flight
 * ends a second later, lib/engine/clock/clock.ts byDeadline)
 */
function deadlineCut(deadlineAt: number | undefined): {
  stop?: AbortSignal;
  reached: Promise<void>;
  passed(): boolean;
  clear(): void;
} {
  if (deadlineAt === undefined) return { reached: new Promise(() => {}), passed: () => false, clear: () => {} };
  const stop = new AbortController();
  let resolve = (): void => {};
  const reached = new Promise<void>((r) => (resolve = r));
  const timer = setTimeout(
    () => {
      stop.abort(new NotRun(DEADLINE_PASSED));
      resolve();
    },
    Math.max(0, deadlineAt - Date.now()),
  );
  return { stop: stop.signal, reached, passed: () => stop.signal.aborted, clear: () => clearTimeout(timer) };
}

const DEADLINE_PASSED = 'the run deadline (--deadline) passed before it was established';

/**
 * Establishes every prerequisite (independent ones side by side) and records failures on the board. At the run
 * deadline it stops: what was not established by then is inconclusive, saying so (the checks needing it are blocked).
 */
export async function establishPrerequisites(
  factory: ContextFactory,
  board: MutableBoard,
  deadlineAt?: number,
): Promise<Established> {
  const byId = new Map<PrerequisiteId, PrerequisiteResult>();
  const shared: Shared = {};
  const cut = deadlineCut(deadlineAt);
  board.begin(); // before the first await: a check started meanwhile waits for what it needs
  const run = async (ids: readonly PrerequisiteId[]): Promise<void> => {
    await Promise.all(
      ids.map(async (id) => {
        try {
          byId.set(
            id,
            await establish(
              STEPS.find((s) => s.id === id)!,
              factory,
              board,
              shared,
              cut.stop,
            ),
          );
        } finally {
          board.settle(id);
        }
      }),
    );
  };
  const stages: PrerequisiteId[][] = [
    ['tls-handshake'],
    ['reach-api'],
    // the token prerequisites need only the API: side by side (one round trip for both), and the checks that need
    // no token already run meanwhile (certify starts them once reach-api is settled)
    ['client-credentials-token', 'code-grant'],
    ['sealed-response-opens'],
  ];
  try {
    for (const stage of stages) {
      if (cut.passed()) break;
      await Promise.race([run(stage), cut.reached]);
    }
    for (const s of STEPS) {
      if (byId.has(s.id) || !cut.passed()) continue;
      board.fail(s.id, DEADLINE_PASSED);
      const evidence = { exchanges: [], notes: [], tls: [] };
      byId.set(s.id, {
        id: s.id,
        title: s.title,
        verdict: 'inconclusive',
        reason: DEADLINE_PASSED,
        evidence,
        durationMs: 0,
      });
    }
  } finally {
    cut.clear();
    for (const s of STEPS) board.settle(s.id);
  }
  const results = STEPS.map((s) => byId.get(s.id)!);
  // a handshake the target answered with a certificate that breaks TLS-05, or a configuration error (the API's
  // paths not where the profile says), is a failure, not an unreachable target
  const down = results.find(
    (r) =>
      (r.id === 'tls-handshake' || r.id === 'reach-api') &&
      r.verdict === 'fail' &&
      !board.rule(r.id) &&
      !r.reason?.startsWith(CONFIGURATION_ERROR),
  );
  return {
    results,
    ...(down ? { unreachable: `${down.id}: ${down.reason ?? ''}` } : {}),
    ...(shared.serverCertificateSha256 ? { serverCertificateSha256: shared.serverCertificateSha256 } : {}),
  };
}
