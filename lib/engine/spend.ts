/**
 * What a run spends at the target (issue 19 item 9, issue 18 §2): the calls per operation (the quota is counted per
 * client and operation: validate, create and get), and per target origin the in-flight window the harness adapted
 * to (lib/http/window.ts). Both go to results.json (`traffic` of each profile run) and the log.
 */
import type { HttpClient, HttpRequest, HttpResponse, Recorder } from '../http/types.ts';
import type { FullProfile } from '../profile/schema.ts';
import { NotRun } from './check.ts';
import type { ProfileTraffic } from './results.ts';

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

  add(req: Pick<HttpRequest, 'method' | 'url'>, n = 1): void {
    const op = operationOf(this.profile, this.urlOf, req.method, req.url);
    this.calls.set(op, (this.calls.get(op) ?? 0) + n);
  }

  /** calls per operation, most first */
  summary(): Record<string, number> {
    return Object.fromEntries([...this.calls].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])));
  }
}

const spends = new WeakMap<HttpClient, Spend>();
const budgets = new WeakMap<HttpClient, QuotaBudget>();

/** the operations a quota counts (seed §8: per client and per operation) */
const QUOTA_OPERATIONS = new Set(['validate', 'create', 'get']);

/**
 * The calls each client has sent per operation in the target's current quota window, as far as the harness can tell
 * (every call it sends passes here). A non-destructive run against a real target never exhausts a quota (issue 19
 * item 9; `enforce`): per client and operation, and per client when the profile declares a plan-wide figure, it sends
 * at most the quota less one call in a window; a call past that is not sent, and its check is not run, saying so. A
 * window is over when the test clock has been moved past it (the clock calls go through this client) or when it
 * has passed in real time. Property checks (lib/engine/property.ts) plan their runs on it (`left`, `reserve`):
 * a reserved call is counted at once, and the send that uses it is not counted again.
 */
export class QuotaBudget {
  private readonly used = new Map<string, number>();
  private readonly reserved = new Map<string, number>();
  private windowStart = Date.now();
  private clockMoved = 0;

  constructor(
    private readonly profile: FullProfile,
    private readonly enforce = true,
  ) {}

  private fresh(): void {
    const q = this.profile.contract.quota;
    if (this.clockMoved > q.windowSeconds || Date.now() - this.windowStart > q.windowSeconds * 1000) {
      this.used.clear();
      this.reserved.clear();
      this.windowStart = Date.now();
      this.clockMoved = 0;
    }
  }

  private keys(client: string, op: string): [string, number, string][] {
    const q = this.profile.contract.quota;
    const keys: [string, number, string][] = [[`${client} ${op}`, q.perHour - 1, `${op} calls`]];
    if (q.planPerHour !== undefined) keys.push([`${client} plan`, q.planPerHour - 1, 'calls (plan-wide figure)']);
    return keys;
  }

  /** the call may be sent (and is counted), or NotRun */
  take(op: string, headers: Record<string, string> | undefined): void {
    if (!QUOTA_OPERATIONS.has(op)) return;
    this.fresh();
    const client = Object.entries(headers ?? {}).find(([k]) => k.toLowerCase() === 'x-gateway-client-id')?.[1] ?? '';
    const keys = this.keys(client, op);
    // a call reserved ahead (reserve) was counted then
    if ((this.reserved.get(keys[0]![0]) ?? 0) > 0) {
      for (const [key] of keys) this.reserved.set(key, (this.reserved.get(key) ?? 1) - 1);
      return;
    }
    if (this.enforce)
      for (const [key, budget, what] of keys)
        if ((this.used.get(key) ?? 0) >= budget)
          throw new NotRun(
            `quota budget of a non-destructive run: ${budget} ${what} of this client sent in the quota window, one left of the target's ${budget + 1}; the next would exhaust it (--destructive allows it)`,
          );
    for (const [key] of keys) this.used.set(key, (this.used.get(key) ?? 0) + 1);
  }

  /** calls of `op` the client may still send in the current window, the quota less one (never below 0) */
  left(client: string, op: string): number {
    this.fresh();
    return Math.max(0, Math.min(...this.keys(client, op).map(([key, budget]) => budget - (this.used.get(key) ?? 0))));
  }

  /** counts up to `n` calls of `op` ahead, within what is left; resolves with how many (their sends are not counted again) */
  reserve(client: string, op: string, n: number): number {
    const granted = Math.min(Math.max(0, Math.floor(n)), this.left(client, op));
    for (const [key] of this.keys(client, op)) {
      this.used.set(key, (this.used.get(key) ?? 0) + granted);
      this.reserved.set(key, (this.reserved.get(key) ?? 0) + granted);
    }
    return granted;
  }

  /** gives back reserved calls that were not sent */
  release(client: string, op: string, n: number): void {
    for (const [key] of this.keys(client, op)) {
      const back = Math.min(n, this.reserved.get(key) ?? 0);
      this.reserved.set(key, (this.reserved.get(key) ?? 0) - back);
      this.used.set(key, Math.max(0, (this.used.get(key) ?? 0) - back));
    }
  }

  /** the test clock moved: a window is over once it has moved past one */
  moved(seconds: number): void {
    this.clockMoved += seconds;
  }
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
      budget?.take(op, req.headers);
      try {
        const res = await http.send(req, recorder);
        if (op === 'clock' && res.status < 300) budget?.moved(advanceOf(req.body));
        spend.add(req, 1 + (res.resent ?? 0));
        return res;
      } catch (e) {
        spend.add(req);
        throw e;
      }
    },
  };
  spends.set(counted, spend);
  if (budget) budgets.set(counted, budget);
  return counted;
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
