/**
 * What a run spends at the target (issue 19 item 9, issue 18 §2): the calls per operation (the quota is counted per
 * client and operation: validate, create and get), and per target origin the in-flight window the harness adapted
 * to (lib/http/window.ts). Both go to results.json (`traffic` of each profile run) and the log.
 */
import type { HttpClient, HttpRequest, HttpResponse, Recorder } from '../http/types.ts';
import type { FullProfile } from '../profile/schema.ts';
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

/** the spend of a client made by `counting` */
export function spendOf(http: HttpClient): Spend | undefined {
  return spends.get(http);
}

/** the client, every attempt of every call counted by operation (a call sent again counts each time) */
export function counting(http: HttpClient, profile: FullProfile, urlOf: UrlOf): HttpClient {
  const spend = new Spend(profile, urlOf);
  const counted: HttpClient = {
    ...http,
    send: async (req: HttpRequest, recorder?: Recorder): Promise<HttpResponse> => {
      try {
        const res = await http.send(req, recorder);
        spend.add(req, 1 + (res.resent ?? 0));
        return res;
      } catch (e) {
        spend.add(req);
        throw e;
      }
    },
  };
  spends.set(counted, spend);
  return counted;
}

/** what the run spent at the target, for the report */
export function trafficOf(http: HttpClient): ProfileTraffic {
  return { concurrency: http.traffic?.() ?? {}, calls: spendOf(http)?.summary() ?? {} };
}
