/**
 * A session is one profile's target as the checks see it: the redactor (every secret of the profile registered
 * before the first call), one HTTP client (one agent per identity), token caches, and the target clock. Each
 * check gets its own CheckContext from it, with its own evidence.
 */
import { mask } from '../../mask/index.ts';
import { clearIdMarker, createHttpClient, createRedactor } from '../../http/index.ts';
import type { TestData } from '../../data/index.ts';
import { runSeed } from '../../data/seed.ts';
import type { Redactor } from '../../http/types.ts';
import { secretsOf } from '../../profile/secrets.ts';
import type { Customer, FullProfile } from '../../profile/schema.ts';
import { Blocked, NotApplicable, type CheckDefinition } from '../check.ts';
import type { CheckContext, ClientRole, QuotaLedger, Tokens } from './context.ts';
import type { AnswersView } from './openapi-answers.ts';
import { apiFor, identityOf, joseFor, newTransferId, urlOf } from './api-call.ts';
import { createBoard, type MutableBoard } from './prerequisites.ts';
import type { PrerequisiteBoard, PrerequisiteId } from '../types.ts';
import type { Evidence, ProfileTraffic } from '../results.ts';
import { budgetOf, counting, QuotaBudget, spendOf, spent, trafficOf } from './spend.ts';
import { inFreshWindows } from './quota-windows.ts';
import type { ContextFactory } from '../run/runner.ts';
import type { HarnessRuntime } from '../run/runtime.ts';
import { createTokens, type SessionParts, type TokenState } from './tokens.ts';
import { ClockLeases } from '../clock/leases.ts';
import { allSettled, clockFor, type ClockShare, type Send } from '../clock/clock.ts';
import { refuseWithoutApi } from './no-api.ts';
import { openBurstAhead } from '../../http/connections/burst-ahead.ts';
import { burstFor, sendFor, tokenFingerprint } from './send.ts';
import { shareAnswersSeen } from '../run/answers-seen.ts';
import { Throttle } from './throttle/throttle.ts';
import { bindThrottle, throttling } from './throttle/throttled-calls.ts';
import { activeIn, SessionActivity } from './activity.ts';
import type { WireTap } from '../../http/record/tap.ts';
import type { Transport } from '../../http/transport.ts';
import type { ProxyRoute } from '../../tls/tunnel.ts';

export type { SessionParts };
export { identityOf, tokenFingerprint, urlOf };

export interface Session extends ContextFactory {
  readonly redactor: Redactor;
  /** the run's prerequisites (lib/engine/session/prerequisites.ts records failures on it) */
  readonly prerequisites: MutableBoard;
  /** every answer to the API judged against the profile's OpenAPI document, when it names one */
  readonly answers?: AnswersView;
  /** seed of the run's generated test data (lib/data), for the report */
  readonly dataSeed: number;
  /** /authorize requests so far that a person or script would have consented to (lib/engine/run/consents.ts) */
  consentsAsked(): number;
  /** what the run spent at the target so far: calls per operation, the adapted concurrency (spend.ts) */
  traffic(): ProfileTraffic;
  close(): Promise<void>;
}

export async function createSession(runtime: HarnessRuntime): Promise<Session> {
  const { profile, options } = runtime;
  const redactor = createRedactor();
  for (const s of secretsOf(profile))
    redactor.add(s.value, s.kind, s.whose ? clearIdMarker(s.kind, s.whose) : undefined);
  const run = profile.run;
  const dataSeed = runSeed(profile.run.dataSeed);
  // a gateway's throttle answers sent again after a wait (throttle/throttle.ts), under the counting (its resends: onSent below)
  const throttle = new Throttle(profile.contract.quota.status, dataSeed, options.waits);
  // the session's exchanges in flight and when the last ended: a check's time limit counts its quiet time (activity.ts)
  const activity = new SessionActivity();
  // every attempt counted by operation (spend.ts), the target's in-flight window adapted (lib/http/connections/window.ts)
  const http = bindThrottle(
    counting(
      throttling(
        activeIn(
          activity,
          createHttpClient({
            redactor,
            // --har's wire tap and --proxy's route, when the run has them (the run's transport)
            ...wiredTo(runtime.transport),
            defaultTimeoutMs: run.requestTimeoutMs,
            maxResponseBytes: run.maxResponseBytes,
            ...(run.connectTimeoutMs ? { connectTimeoutMs: run.connectTimeoutMs } : {}),
            ...(run.firstByteTimeoutMs ? { firstByteTimeoutMs: run.firstByteTimeoutMs } : {}),
            ...(run.responseTimeoutMs ? { responseTimeoutMs: run.responseTimeoutMs } : {}),
          }),
        ),
        throttle,
      ),
      profile,
      urlOf,
      // a non-destructive run against a real target never exhausts a quota (spend.ts); every run counts its windows
      new QuotaBudget(profile, !(options.destructive || options.embedded)),
    ),
    throttle,
  );
  // the throttle's own sends past the counting: a try sent again counts in the quota ledger as any call (the target
  // may have counted the refused one: it is told from a gateway's only by what it does), a control in the spend only
  throttle.onSent = (req, kind) => (kind === 'resend' ? spent(http, req) : spendOf(http)?.add(req));
  const state: TokenState = { clockOffsetSeconds: 0, caches: new Map() };
  const prerequisites = createBoard();
  // the clock is shared: no move before the prerequisites settled, none under another holder's lease (leases.ts)
  const leases = new ClockLeases(() => allSettled(prerequisites));
  // the generator (faker, ~20 ms to load) is loaded by the first check that asks for data, once per session
  let generated: Promise<TestData> | undefined;
  const data = (): Promise<TestData> =>
    (generated ??= import('../../data/index.ts').then(({ createTestData }) => createTestData(dataSeed)));
  // every answer judged against the bank's document, when the profile names one (loaded only then: it loads Ajv)
  const answers =
    runtime.openapi && new (await import('./openapi-answers.ts')).SessionAnswers(runtime.openapi, profile);
  // what every check's context is made of (one object: a context never changes it)
  const parts: SessionParts = {
    ...{ profile, options, redactor, http, state },
    ...wiredTo(runtime.transport),
    ...(answers ? { openapi: runtime.openapi, answers } : {}),
  };
  return {
    profile,
    redactor,
    prerequisites,
    ...(answers ? { answers } : {}),
    dataSeed,
    consentsAsked: () => state.authorizations ?? 0,
    throttled: () => throttle.stats.throttled,
    traffic: () => {
      const throttled = throttle.summary();
      return { ...trafficOf(http), ...(throttled ? { throttle: throttled } : {}) };
    },
    redact: (text) => redactor.redact(text),
    lastActive: () => activity.lastActive(),
    freshWindows: async () => {
      const budget = budgetOf(http);
      if (!budget?.nearlySpent(TIMELINE_CALLS)) return;
      const evidence: Evidence = { exchanges: [], notes: [], tls: [] };
      const ctx = createContext(FRESH_WINDOWS, evidence, parts, {
        board: prerequisites,
        data,
        dataSeed,
        leases,
        activity,
      });
      await ctx.clock.advance(profile.contract.quota.windowSeconds + 1);
    },
    inQuotaWindows: (ctx, def) =>
      inFreshWindows(ctx, def, budgetOf(http), (req) => spendOf(http)?.operation(req) ?? 'other'),
    context: (def, evidence, stop) =>
      createContext(def, evidence, parts, { board: prerequisites, data, dataSeed, leases, activity }, stop),
    close: () => http.close(),
  };
}

/**
 * the calls of an operation the timeline's checks that only call it may make in a window before a fresh one (a few
 * each: the token expiry checks' validate calls): fewer left after the checks before, and the clock moves first
 */
const TIMELINE_CALLS = 10;

/** the run's transport (lib/http/transport.ts) as the HTTP client and the session's parts take it */
const wiredTo = (t: Transport | undefined): { tap?: WireTap; proxy?: ProxyRoute } => ({
  ...(t?.har ? { tap: t.har } : {}),
  ...(t?.proxy ? { proxy: t.proxy } : {}),
});

/** ctx.burstAhead: a burst's connections opened ahead into the session's pool (lib/http/connections/burst-ahead.ts) */
const burstAheadOf =
  (parts: SessionParts): NonNullable<CheckContext['burstAhead']> =>
  (req, count) => {
    const { window, bursts } = parts.http;
    const run = parts.profile.run;
    // nothing opened to an API the profile says is not there (the burst itself says why it is not run)
    if (!window || !bursts || parts.profile.target.api === 'none') return Promise.resolve(0);
    const budgetMs = run.connectTimeoutMs ?? run.requestTimeoutMs;
    const route = parts.proxy ? { proxy: parts.proxy } : {};
    return openBurstAhead(req, count, { pool: bursts, window: window(req.url), budgetMs, ...route });
  };

/** what a check's context shows of the session's parts: the bank's document, its answers, the run's proxy route */
const shown = (p: SessionParts): Pick<CheckContext, 'openapi' | 'answers' | 'proxy'> => ({
  ...(p.openapi ? { openapi: p.openapi } : {}),
  ...(p.answers ? { answers: p.answers } : {}),
  ...(p.proxy ? { proxy: p.proxy } : {}),
});

/** the move to fresh windows before the timeline, as the clock's holder (a check of the run's, run by none) */
const FRESH_WINDOWS: CheckDefinition = {
  id: 'run.fresh-quota-windows',
  suite: 'run',
  requirements: [],
  title: 'fresh quota windows before the run timeline',
  run: () => Promise.resolve(),
};

function customerOf(profile: FullProfile, which: number | { workflow: boolean }): Customer {
  if (typeof which === 'number') {
    const c = profile.customers[which];
    if (!c) throw new NotApplicable(`the profile has no customer #${which + 1}`);
    return c;
  }
  const c = profile.customers.find((x) => x.workflow === which.workflow);
  if (!c) throw new NotApplicable(`the profile has no customer ${which.workflow ? 'with' : 'without'} a workflow`);
  return c;
}

/** cached tokens are prerequisites: when theirs failed, asking for one blocks the check (no traffic) */
function guardTokens(tokens: Tokens, board: PrerequisiteBoard): Tokens {
  const guard = async (id: PrerequisiteId): Promise<void> => {
    await board.settled(id);
    const why = board.failed(id);
    if (why !== undefined) throw new Blocked(id, why);
  };
  return {
    ...tokens,
    partnerToken: async () => {
      await guard('client-credentials-token');
      return tokens.partnerToken();
    },
    codeToken: async (c) => {
      await guard('code-grant');
      return tokens.codeToken(c);
    },
    codeGrant: async (c, o) => {
      await guard('code-grant');
      return tokens.codeGrant(c, o);
    },
  };
}

/** the prerequisites' own steps ask for tokens unguarded (they establish them) */
function tokensFor(def: CheckDefinition, tokens: Tokens, board: PrerequisiteBoard): Tokens {
  return def.suite === 'prerequisites' ? tokens : guardTokens(tokens, board);
}

/** ctx.holding: something that opens its own connection, as one place among the calls in flight to the target */
function holdingFor(parts: SessionParts, activity: SessionActivity): NonNullable<CheckContext['holding']> {
  return async (url, run, o) => {
    const w = parts.http.window?.(url);
    const slot = await (o?.alone ? w?.acquireAlone() : w?.acquire());
    try {
      return await activity.during(run);
    } finally {
      slot?.done([]);
    }
  };
}

/** the session's quota windows (spend.ts QuotaBudget) by client role, for property checks' plans */
function ledgerOf(parts: SessionParts): QuotaLedger {
  const budget = budgetOf(parts.http);
  const clientOf = (as: ClientRole): string => parts.profile.clients[as]?.clientId ?? '';
  return {
    left: (as, op) => budget?.left(clientOf(as), op) ?? Number.POSITIVE_INFINITY,
    reserve: (as, op, n) => budget?.reserve(clientOf(as), op, n) ?? n,
    release: (as, op, n) => budget?.release(clientOf(as), op, n),
  };
}

/** what the contexts of one session share */
interface SharedParts {
  board: PrerequisiteBoard;
  data: () => Promise<TestData>;
  dataSeed: number;
  leases: ClockLeases;
  activity: SessionActivity;
}

function createContext(
  def: CheckDefinition,
  evidence: Evidence,
  parts: SessionParts,
  shared: SharedParts,
  stop?: AbortSignal,
): CheckContext {
  const { profile, options, redactor } = parts;
  const { board, data, dataSeed } = shared;
  const sendAny = sendFor(def, evidence, parts, stop);
  // an authorization server alone (target.api: none): a request to the API's paths makes the check not run
  const send: Send = async (req) => {
    refuseWithoutApi(profile, [req]);
    const res = await sendAny(req);
    parts.answers?.sent(req, res);
    return res;
  };
  const burstAny = burstFor(def, evidence, parts, stop);
  const share: ClockShare = { leases: shared.leases, holder: { name: def.id } };
  const hold = <T>(why: string, f: () => Promise<T>): Promise<T> => share.leases.hold(share.holder, why, f);
  const jose = joseFor(profile);
  return {
    checkId: def.id,
    profile,
    env: profile.environment,
    options,
    ...shown(parts),
    customer: (which) => customerOf(profile, which),
    url: (path, base) => urlOf(profile, path, base),
    identity: (who) => identityOf(profile, who),
    send,
    burst: async (requests) => {
      refuseWithoutApi(profile, requests);
      return shared.activity.during(() => burstAny(requests));
    },
    burstSize: (url, n) => parts.http.window?.(url).burstSize(n) ?? n,
    burstAhead: burstAheadOf(parts),
    holding: holdingFor(parts, shared.activity),
    api: apiFor(parts, send, jose),
    transferBody: (c, overrides = {}) => ({
      ...{ beneficiary_id: c.beneficiaryId, account_id: mask(c.accountId) },
      ...{ amount: { value: '150.00', currency: profile.contract.currency } },
      ...{ purpose_code: 'FAM', remarks: 'conformance harness', ...overrides },
    }),
    newTransferId,
    data,
    dataSeed,
    tokens: tokensFor(
      def,
      createTokens({
        ...parts,
        send,
        identity: (who) => identityOf(profile, who),
        checkId: def.id,
        note: (t) => evidence.notes.push(redactor.redact(t)),
        hold,
      }),
      board,
    ),
    jose,
    clock: clockFor(def, parts, send, evidence, share, stop),
    note: (t) => evidence.notes.push(redactor.redact(t)),
    recordCase: (c) => (evidence.cases ??= []).push({ ...c, detail: redactor.redact(c.detail) }),
    recordProperty: (p) => {
      evidence.property = JSON.parse(redactor.redact(JSON.stringify(p))) as typeof p;
    },
    quota: ledgerOf(parts),
    scratch: () => {
      const own: Evidence = { exchanges: [], notes: [], tls: [] };
      shareAnswersSeen(own, evidence);
      return { ctx: createContext(def, own, parts, shared, stop), evidence: own };
    },
    adopt: (e) => {
      evidence.exchanges.push(...e.exchanges);
      evidence.notes.push(...e.notes.map((n) => redactor.redact(n)));
    },
    tls: (e) => evidence.tls.push(e),
    redact: (t) => redactor.redact(t),
    dispose: () => {},
  };
}
