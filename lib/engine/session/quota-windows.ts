/**
 * A check's calls in the target's quota windows as the contract counts them (docs/contract.md "Quotas"): a window per
 * client id and operation, whichever grant the client id's token came from (a bank that registers one client id for
 * the code, partner and client-credentials grants counts them all in one window), every call past the API key, token
 * and scope checks counted. The session's ledger (spend.ts QuotaBudget) counts every call it sends; here each call of a
 * check (not of the quota checks, which fill windows on purpose) is planned on it:
 *  - with a test clock the last call of a window is never sent: the call that would send it moves the clock to a
 *    fresh window first (the calls that find the same window spent make one move), saying so in a note;
 *  - a call answered with the contract's quota answer (the target counted more than the ledger) is sent again in a
 *    fresh window (MOVES at most), saying so; without a test clock the check is inconclusive, naming the window;
 *  - a token a move expired is renewed before a call is sent again (and a call it made fail 401 sent again once).
 * A property check's positive control in its quota window (under a lease: it cannot move the clock there) that would
 * send a window's last call throws QuotaAnswered instead: the property search moves to a fresh window and sends the
 * control again, as it does when the control meets the quota's answer (which it reads itself: property.ts).
 */
import { QuotaSpent, type CheckDefinition } from '../check.ts';
import { isQuotaAnswer, QuotaAnswered } from '../property/property-gate.ts';
import type { HttpRequest, HttpResponse } from '../../http/types.ts';
import type { Customer } from '../../profile/schema.ts';
import type { ApiCall, ApiResponse, CheckContext, Tokens } from './context.ts';
import type { QuotaBudget } from './spend.ts';

/** fresh windows one call is sent again in at most after the contract's quota answer (a bound on the loop) */
const MOVES = 2;

/**
 * the checks whose rule is the quota itself, or that fill a window on purpose: they plan their own windows and expect
 * its answer (the quota suite, the race suite's bursts)
 */
function fillsWindows(def: CheckDefinition): boolean {
  return def.suite === 'quota' || def.suite === 'race' || def.needs?.includes('destructive') === true;
}

/** the quota operation a call of the API makes (validate, create, get), undefined for any other method or path */
function operationOfCall(call: ApiCall): 'validate' | 'create' | 'get' | undefined {
  if (call.path !== undefined) return undefined;
  const m = (call.method ?? (call.op === 'validate' ? 'POST' : call.op === 'create' ? 'PUT' : 'GET')).toUpperCase();
  if (call.op === 'validate') return m === 'POST' ? 'validate' : undefined;
  return m === 'PUT' ? 'create' : m === 'GET' ? 'get' : undefined;
}

function header(headers: Record<string, string> | undefined, name: string): string | undefined {
  return Object.entries(headers ?? {}).find(([k]) => k.toLowerCase() === name)?.[1];
}

/** a token the check was given, and how to get one like it after a move expired it */
interface Kept {
  renew: () => Promise<string | undefined>;
  /** the ledger's clockMoved before it was asked for */
  at: number;
}

/** what `planned` reads of an answer */
interface Answer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/**
 * the tokens a check is given to call the API with (the session's cached code and partner tokens, a plain
 * client-credentials token), each kept with the clock as it was before it was asked for (a move meanwhile may
 * expire it)
 */
class KeptTokens {
  private readonly kept = new Map<string, Kept>();
  constructor(private readonly budget: QuotaBudget) {}

  private keep(token: string | undefined, renew: Kept['renew'], at: number): void {
    if (token) this.kept.set(token, { renew, at });
  }

  /** `tokens` with every token it gives kept */
  wrap(tokens: Tokens): Tokens {
    const asked = async <R>(get: () => Promise<R>, access: (r: R) => unknown, renew: Kept['renew']): Promise<R> => {
      const at = this.budget.clockMoved;
      const r = await get();
      const a = access(r);
      if (typeof a === 'string') this.keep(a, renew, at);
      return r;
    };
    const cc = (role: Parameters<Tokens['clientCredentials']>[0], opts: Parameters<Tokens['clientCredentials']>[1]) =>
      tokens.clientCredentials(role, opts);
    return {
      ...tokens,
      codeToken: (c: Customer) =>
        asked(
          () => tokens.codeToken(c),
          (t) => t,
          () => tokens.codeToken(c),
        ),
      partnerToken: () =>
        asked(
          () => tokens.partnerToken(),
          (t) => t,
          () => tokens.partnerToken(),
        ),
      // a fresh grant's tokens are what the token checks judge (revoked, expired): never renewed behind them
      clientCredentials: (role, opts) =>
        asked(
          () => cc(role, opts),
          (r) => (opts === undefined ? r.token?.access_token : undefined),
          // a request of its own: the kept answer may be the very token the move expired
          async () => {
            const again = (await cc(role, { ...opts, fresh: true })).token?.access_token;
            return typeof again === 'string' ? again : undefined;
          },
        ),
    };
  }

  /** a token the clock passed since it was asked for, renewed (undefined when it is not one the check was given) */
  async renewed(token: string | null | undefined): Promise<string | undefined> {
    const k = token ? this.kept.get(token) : undefined;
    if (!k || k.at === this.budget.clockMoved) return undefined;
    const fresh = await k.renew();
    if (!fresh || fresh === token) return undefined;
    this.keep(fresh, k.renew, this.budget.clockMoved);
    return fresh;
  }
}

/** one check's calls planned on the session's quota windows (see the top of this file) */
class Planner {
  private readonly quotaStatus: number;
  private readonly passWindow: number;
  constructor(
    private readonly ctx: CheckContext,
    private readonly def: CheckDefinition,
    private readonly budget: QuotaBudget,
    readonly tokens: KeptTokens,
  ) {
    this.quotaStatus = ctx.profile.contract.quota.status;
    this.passWindow = ctx.profile.contract.quota.windowSeconds + 1;
  }

  /** a move here would wait for the check's own lease, or ride the timeline's group moves (an exclusive check) */
  private canMove(): boolean {
    const { ctx, def } = this;
    return ctx.clock.available && !ctx.clock.holding() && (!def.exclusive || def.property === true);
  }

  /** a property's positive control in its quota window: the search moves (QuotaAnswered) */
  private searchMoves(): boolean {
    return this.ctx.clock.holding() && this.def.property === true;
  }

  private async move(why: string, since: number): Promise<void> {
    const moved = await this.budget.freshWindows(since, async () => {
      await this.ctx.clock.waitFor(this.passWindow);
    });
    this.ctx.note(
      moved
        ? `${why}: the clock moved ${this.passWindow} s to a fresh quota window, and the call was sent there`
        : `${why}: sent in the fresh quota window another call's clock move opened`,
    );
  }

  /**
   * one call of `op` as `client`: `send` sends it (again after a move), `answer` reads its answer; `label` names it
   */
  async call<R>(
    client: string,
    op: string,
    label: string,
    send: (afterMove: boolean) => Promise<R>,
    answer: (r: R) => Answer,
  ): Promise<R> {
    const { ctx, budget } = this;
    for (let moves = 0; ; moves++) {
      const since = budget.clockMoved;
      // never the last call of a window: a fresh one first (with a test clock; without one the ledger decides)
      if (ctx.clock.available && budget.reserve(client, op, 1) === 0) {
        const why = `${label}: ${budget.describe(client, op)} has only its last call left, never sent`;
        if (this.canMove() && moves < MOVES) {
          await this.move(why, since);
          continue;
        }
        if (this.searchMoves()) throw new QuotaAnswered(why);
      }
      const r = await send(moves > 0);
      const a = answer(r);
      // a property check reads the quota's answer to its control itself (property.ts controlOnce)
      if (this.def.property === true || !isQuotaAnswer(a, this.quotaStatus)) return r;
      const retryAfter = header(a.headers, 'retry-after') ?? '?';
      const seen = `${label} was answered with the contract's quota answer (HTTP ${a.status}, Retry-After ${retryAfter}): ${budget.describe(client, op)} is spent at the target`;
      if (this.canMove() && moves < MOVES) {
        await this.move(seen, since);
        continue;
      }
      throw new QuotaSpent(
        !ctx.clock.available
          ? `${seen}, and the target has no test clock to move to a fresh window: nothing judged`
          : moves > 0
            ? `${seen}, still after ${moves} moves to a fresh window`
            : `${seen}, and this check cannot move the clock here (it holds the clock, or rides the run's timeline)`,
      );
    }
  }

  /** a call answered 401 after a move expired its token, sent again once with it renewed (not an exclusive check's) */
  async renewing<R extends { status: number }>(
    token: string | null | undefined,
    send: (token: string) => Promise<R>,
    first: R,
  ): Promise<R> {
    if (first.status !== 401 || this.def.exclusive) return first;
    const fresh = await this.tokens.renewed(token);
    if (!fresh) return first;
    this.ctx.note(
      'the call was answered 401 after a clock move to a fresh quota window expired its token: renewed, sent again',
    );
    return send(fresh);
  }
}

const bearerOf = (req: HttpRequest): string | undefined =>
  /^Bearer (.+)$/i.exec(header(req.headers, 'authorization') ?? '')?.[1];

const withBearer = (req: HttpRequest, token: string): HttpRequest => ({
  ...req,
  headers: {
    ...Object.fromEntries(Object.entries(req.headers ?? {}).filter(([k]) => k.toLowerCase() !== 'authorization')),
    authorization: `Bearer ${token}`,
  },
});

/** ctx.api planned: a call of validate, create or get naming a client id */
function plannedApi(ctx: CheckContext, p: Planner): CheckContext['api'] {
  return async (call) => {
    const op = operationOfCall(call);
    const client = call.clientId === undefined ? ctx.profile.clients[call.as ?? 'code']?.clientId : call.clientId;
    if (op === undefined || !client) return ctx.api(call);
    let current = call;
    const sendOnce = async (afterMove: boolean): Promise<ApiResponse> => {
      const fresh = afterMove ? await p.tokens.renewed(current.token) : undefined;
      if (fresh) current = { ...current, token: fresh };
      const r = await ctx.api(current);
      return p.renewing(current.token, (t) => ctx.api((current = { ...current, token: t })), r);
    };
    const label = call.label ?? `${op} ${call.method ?? ''}`.trim();
    return p.call(client, op, label, sendOnce, (r) => ({
      status: r.status,
      headers: r.headers,
      body: r.opened ? {} : r.body,
    }));
  };
}

/** ctx.send planned: a request of validate, create or get naming a client id (the same request sent again) */
function plannedSend(
  ctx: CheckContext,
  p: Planner,
  operation: (req: Pick<HttpRequest, 'method' | 'url'>) => string,
): CheckContext['send'] {
  return async (req) => {
    const op = operation(req);
    const client = header(req.headers, 'x-gateway-client-id');
    if (!['validate', 'create', 'get'].includes(op) || !client) return ctx.send(req);
    let current = req;
    const sendOnce = async (afterMove: boolean): Promise<HttpResponse> => {
      const fresh = afterMove ? await p.tokens.renewed(bearerOf(current)) : undefined;
      if (fresh) current = withBearer(current, fresh);
      const r = await ctx.send(current);
      return p.renewing(bearerOf(current), (t) => ctx.send((current = withBearer(current, t))), r);
    };
    return p.call(client, op, req.label ?? `${req.method} ${op}`, sendOnce, (r) => ({
      status: r.status,
      headers: r.headers,
      body: r.json ?? r.text,
    }));
  };
}

/**
 * the check's context with its calls planned on the session's quota windows (see the top of this file); `operation`
 * names the operation of a raw request (spend.ts operationOf)
 */
export function inFreshWindows(
  ctx: CheckContext,
  def: CheckDefinition,
  budget: QuotaBudget | undefined,
  operation: (req: Pick<HttpRequest, 'method' | 'url'>) => string,
): CheckContext {
  if (!budget || fillsWindows(def)) return ctx;
  const kept = new KeptTokens(budget);
  const withTokens = { ...ctx, tokens: kept.wrap(ctx.tokens) };
  const p = new Planner(withTokens, def, budget, kept);
  return { ...withTokens, api: plannedApi(withTokens, p), send: plannedSend(withTokens, p, operation) };
}
