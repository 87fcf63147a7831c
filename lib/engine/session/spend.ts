/**
 * What a run spends at the target (QUOTA-01..04 count it; a small target limits it): the calls per operation (the quota
 * is counted per client and operation: validate, create and get), and per target origin the in-flight window the
 * harness adapted to (lib/http/connections/window.ts). Both go to results.json (`traffic` of each profile run) and the log.
 */
import type { HttpClient, HttpRequest, HttpResponse, Recorder } from '../../http/types.ts';
import type { FullProfile } from '../../profile/schema.ts';
import { NotRun } from '../check.ts';
import type { ProfileTraffic } from '../results.ts';

/** the profile's URL of a path key (session.ts urlOf, passed in: no import cycle) */
export type UrlOf = (profile: FullProfile, path: string) => string;

/** the operation a request calls: a transfers API operation, a token or authorize call, the clock, or "other" */
export function operationOf(profile: FullProfile, urlOf: UrlOf, method: string, url: string): string {
  const m = method.toUpperCase();
  const path = url.split('?')[0]!;
  if (path === profile.target.clock) return 'clock';
  if (path === urlOf(profile, 'validate')) return m === 'POST' ? 'validate' : `${m} validate`;
  const transfer = urlOf(profile, 'transfer').split('{transfer_id}')[0]!;
  if (path.startsWith(transfer) && !path.slice(transfer.length).includes('/'))
    return m === 'PUT' ? 'create' : m === 'GET' ? 'get' : `${m} transfer`;
  for (const k of ['token', 'partnerToken', 'internalToken', 'authorize'] as const)
    if (path === urlOf(profile, k)) return k;
  return 'other';
}

export class Spend {
  private readonly calls = new Map<string, number>();
  constructor(
    private readonly profile: FullProfile,
    private readonly urlOf: UrlOf,
  ) {}

  /** the operation a request calls */
  operation(req: Pick<HttpRequest, 'method' | 'url'>): string {
    return operationOf(this.profile, this.urlOf, req.method, req.url);
  }

  add(req: Pick<HttpRequest, 'method' | 'url'>, n = 1): void {
    const op = this.operation(req);
    this.calls.set(op, (this.calls.get(op) ?? 0) + n);
  }

  /** calls per operation, most first */
  summary(): Record<string, number> {
    return Object.fromEntries([...this.calls].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])));
  }
}

const spends = new WeakMap<HttpClient, Spend>();
const budgets = new WeakMap<HttpClient, QuotaBudget>();

/** the operations a quota counts (specification §8: per client and per operation) */
const QUOTA_OPERATIONS = new Set(['validate', 'create', 'get']);

/** one quota window of a client's operation (or of the client's plan) as the harness counted it */
interface CountedWindow {
  /** when it opened, on the harness's view of the target's clock (seconds): the first answer counted in it */
  start: number;
  /** no call counted in it has come back yet: its start is not known, the window is live whatever the clock */
  opening: boolean;
  count: number;
  /** calls counted ahead (reserve) whose sends are not counted again */
  reserved: number;
  /** calls counted in it and not yet back: a clock move meanwhile may see them counted in the next window */
  inFlight: number;
}

/** the end of a call counted in a window (its answer, or its transport error) */
export type Sent = () => void;

/**
 * The calls each client has sent per operation in the target's quota windows, as far as the harness can tell: every
 * call it sends passes here (a burst's too, spent), refused or not, and each attempt of a call sent again (the
 * target may have counted it): the contract counts a call once it has passed the API key, token and scope checks
 * (docs/contract.md "Quotas"), so the harness counts every call it sends. A window is the contract's: a fixed
 * contract.quota.windowSeconds per client and operation (and per client for a plan-wide figure), opened by the first
 * call; the harness sets its opening at the first answer of a call counted in it (the target received that call
 * earlier: the window never ends here before it ends at the target) on its view of the target's clock (`now`). A non-destructive run against a real target never exhausts a quota (`enforce`): per
 * key it sends at most the quota less one call in a window; a call past that is not sent, and its check is not run,
 * saying so. Property checks (lib/engine/property/property.ts) plan their runs on it (`left`, `reserve`):
 * a reserved call is counted at once, and the send that uses it is not counted again. Every other check's calls are
 * planned on it too (quota-windows.ts: with a test clock a fresh window before a window's last call, `freshWindows`).
 * A window is keyed by the client id a call names, whichever grant its token came from.
 */
export class QuotaBudget {
  private readonly windows = new Map<string, CountedWindow>();
  private readonly t0 = Date.now();
  private movedSeconds = 0;
  /** a move to fresh windows in progress (freshWindows): the calls that found the same windows spent wait for it */
  private moving: Promise<void> | undefined;

  constructor(
    private readonly profile: FullProfile,
    private readonly enforce = true,
  ) {}

  /**
   * the harness's view of the target's clock, in seconds since this budget began: the test clock's moves, and real
   * time only for a target without one (a test clock may stand still between moves: the ledger's windows never end
   * before the target's)
   */
  private now(): number {
    const real = this.profile.target?.clock === undefined ? (Date.now() - this.t0) / 1000 : 0;
    return real + this.movedSeconds;
  }

  /** the live window of `key`, or one opening now */
  private window(key: string): CountedWindow {
    const w = this.windows.get(key);
    if (w && (w.opening || this.now() - w.start < this.profile.contract.quota.windowSeconds)) return w;
    // the calls of the window before still in flight when the clock passed it: the target may count them in this one
    const carried = w?.inFlight ?? 0;
    const fresh = { start: this.now(), opening: true, count: carried, reserved: 0, inFlight: 0 };
    this.windows.set(key, fresh);
    return fresh;
  }

  private keys(client: string, op: string): [string, number, string][] {
    const q = this.profile.contract.quota;
    const keys: [string, number, string][] = [[`${client} ${op}`, q.perHour - 1, `${op} calls`]];
    if (q.planPerHour !== undefined) keys.push([`${client} plan`, q.planPerHour - 1, 'calls (plan-wide figure)']);
    return keys;
  }

  /** the windows a call counts in; its end (`Sent`) sets the opening of those it opened */
  private counted(windows: CountedWindow[], n = 1): Sent {
    for (const w of windows) w.inFlight += n;
    let back = false;
    return () => {
      if (back) return;
      back = true;
      const at = this.now();
      for (const w of windows) {
        w.inFlight = Math.max(0, w.inFlight - n);
        if (w.opening) {
          w.opening = false;
          w.start = at;
        }
      }
    };
  }

  private windowsOf(op: string, headers: Record<string, string> | undefined) {
    const keys = this.keys(client(headers), op);
    return { keys, windows: keys.map(([key]) => this.window(key)) };
  }

  /** the call may be sent (and is counted), or NotRun; resolves with its end, to call once it came back (or failed) */
  take(op: string, headers: Record<string, string> | undefined): Sent {
    if (!QUOTA_OPERATIONS.has(op)) return () => {};
    const { keys, windows } = this.windowsOf(op, headers);
    // a call reserved ahead (reserve) was counted then
    if (windows[0]!.reserved > 0) {
      for (const w of windows) w.reserved = Math.max(0, w.reserved - 1);
      return this.counted(windows);
    }
    if (this.enforce)
      for (const [i, [, budget, what]] of keys.entries())
        if (windows[i]!.count >= budget)
          throw new NotRun(
            `quota budget of a non-destructive run: ${budget} ${what} of client ${client(headers) || '(none)'} sent in the quota window, one left of the target's ${budget + 1}; the next would exhaust it (--destructive allows it${this.profile.target?.clock === undefined ? '; a test clock, target.clock, would move to a fresh window' : ''})`,
          );
    for (const w of windows) w.count++;
    return this.counted(windows);
  }

  /**
   * `n` calls already sent (a burst's, the attempts of a call that timed out before it was sent again): counted,
   * never refused; resolves with their end
   */
  count(op: string, headers: Record<string, string> | undefined, n: number): Sent {
    if (!QUOTA_OPERATIONS.has(op) || n <= 0) return () => {};
    const { windows } = this.windowsOf(op, headers);
    for (const w of windows) w.count += n;
    return this.counted(windows, n);
  }

  /** calls of `op` the client may still send in the current window, the quota less one (never below 0) */
  left(client: string, op: string): number {
    return Math.max(0, Math.min(...this.keys(client, op).map(([key, budget]) => budget - this.window(key).count)));
  }

  /** counts up to `n` calls of `op` ahead, within what is left; resolves with how many (their sends are not counted again) */
  reserve(client: string, op: string, n: number): number {
    const granted = Math.min(Math.max(0, Math.floor(n)), this.left(client, op));
    for (const [key] of this.keys(client, op)) {
      const w = this.window(key);
      w.count += granted;
      w.reserved += granted;
    }
    return granted;
  }

  /** gives back reserved calls that were not sent */
  release(client: string, op: string, n: number): void {
    for (const [key] of this.keys(client, op)) {
      const w = this.window(key);
      const back = Math.min(n, w.reserved);
      w.reserved -= back;
      w.count = Math.max(0, w.count - back);
      // a window only reservations opened, none sent: never opened at the target
      if (w.count === 0 && w.opening) this.windows.delete(key);
    }
  }

  /** the test clock moved `seconds` forward: windows end on the target's clock */
  moved(seconds: number): void {
    this.movedSeconds += seconds;
  }

  /** whether a live window has fewer than `n` calls left before the quota less one */
  nearlySpent(n: number): boolean {
    const q = this.profile.contract.quota;
    return [...this.windows.keys()].some((key) => {
      const limit = key.endsWith(' plan') ? (q.planPerHour ?? q.perHour) : q.perHour;
      return limit - 1 - this.window(key).count < n;
    });
  }

  /** the seconds the test clock has moved so far: a window counted before a later value may be over */
  get clockMoved(): number {
    return this.movedSeconds;
  }

  /**
   * the window of `client`'s `op` in words, for a note or a verdict: "the validate window of client X (99 calls
   * counted, the quota is 100)"
   */
  describe(client: string, op: string): string {
    const q = this.profile.contract.quota;
    const counted = this.keys(client, op).map(([key, budget, what]) => {
      const w = this.window(key);
      return `${w.count} ${what} counted, the target's quota ${budget + 1}`;
    });
    return `the ${op} quota window of client ${client || '(none)'} (${counted.join('; ')}; a window of ${q.windowSeconds} s)`;
  }

  /**
   * passes the quota windows counted when the clock had moved `since` seconds (clockMoved): `move` moves the clock
   * past them, unless it has moved since, or a move of the same windows is in progress (then that one is waited for):
   * the calls that find one window spent make one move, not one each. Resolves true when this call moved it.
   */
  async freshWindows(since: number, move: () => Promise<void>): Promise<boolean> {
    if (this.movedSeconds !== since) return false;
    if (this.moving) {
      await this.moving;
      return false;
    }
    const moving = move().finally(() => {
      if (this.moving === moving) this.moving = undefined;
    });
    this.moving = moving;
    await moving;
    return true;
  }
}

/** the client id a request names (its X-Gateway-Client-Id API key), '' when none */
function client(headers: Record<string, string> | undefined): string {
  return Object.entries(headers ?? {}).find(([k]) => k.toLowerCase() === 'x-gateway-client-id')?.[1] ?? '';
}

/** the quota budget of a client made by `counting` */
export function budgetOf(http: HttpClient): QuotaBudget | undefined {
  return budgets.get(http);
}

/** the spend of a client made by `counting` */
export function spendOf(http: HttpClient): Spend | undefined {
  return spends.get(http);
}

/** the client, every attempt of every call counted by operation (a call sent again counts each time) */
export function counting(http: HttpClient, profile: FullProfile, urlOf: UrlOf, budget?: QuotaBudget): HttpClient {
  const spend = new Spend(profile, urlOf);
  const counted: HttpClient = {
    ...http,
    send: async (req: HttpRequest, recorder?: Recorder): Promise<HttpResponse> => {
      const op = operationOf(profile, urlOf, req.method, req.url);
      const sent = budget?.take(op, req.headers);
      try {
        const res = await http.send(req, recorder);
        if (op === 'clock' && res.status < 300) budget?.moved(advanceOf(req.body));
        spend.add(req, 1 + (res.resent ?? 0));
        // the attempts that timed out before this answer: the target may have counted them too
        if (res.resent) budget?.count(op, req.headers, res.resent)();
        return res;
      } catch (e) {
        spend.add(req);
        throw e;
      } finally {
        sent?.();
      }
    },
  };
  spends.set(counted, spend);
  if (budget) budgets.set(counted, budget);
  return counted;
}

/**
 * a call sent past the client's `send` (a burst's, lib/http/burst/burst.ts): in the spend and in the quota windows (never
 * refused: it was sent)
 */
export function spent(http: HttpClient, req: Pick<HttpRequest, 'method' | 'url' | 'headers'>): void {
  const spend = spends.get(http);
  spend?.add(req);
  if (spend) budgets.get(http)?.count(spend.operation(req), req.headers, 1)();
}

/** the seconds a test clock call moves the clock ({"advance_seconds": N}) */
function advanceOf(body: HttpRequest['body']): number {
  let b: unknown = body;
  try {
    if (typeof body === 'string') b = JSON.parse(body);
  } catch {
    return 0;
  }
  const n = (b as { advance_seconds?: unknown } | undefined)?.advance_seconds;
  return typeof n === 'number' ? n : 0;
}

/** what the run spent at the target, for the report */
export function trafficOf(http: HttpClient): ProfileTraffic {
  return { concurrency: http.traffic?.() ?? {}, calls: spendOf(http)?.summary() ?? {} };
}
