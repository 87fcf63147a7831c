/**
 * The quota ledger the property searches plan on (lib/engine/session/spend.ts QuotaBudget): it counts what the contract
 * counts (docs/contract.md "Quotas": every call past the API key, token and scope checks, refused or not), a burst's
 * calls and the attempts of a call sent again included, in the contract's windows: a fixed windowSeconds per client
 * and operation, opened by the first call, on the harness's view of the target's clock.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { counting, QuotaBudget, spent, type UrlOf } from '../../lib/engine/session/spend.ts';
import type { HttpClient, HttpRequest, HttpResponse } from '../../lib/http/types.ts';
import type { FullProfile } from '../../lib/profile/schema.ts';

const profile = {
  contract: { quota: { perHour: 10, windowSeconds: 3600, status: 429 } },
  target: { clock: 'http://t/clock' },
} as unknown as FullProfile;
const urlOf: UrlOf = (_, k) => (k === 'transfer' ? 'http://t/transfers/{transfer_id}' : `http://t/${k}`);
const as = (client: string): Record<string, string> => ({ 'X-Gateway-Client-Id': client });

/** a client that answers every call with `res` */
function fakeHttp(res: Partial<HttpResponse>): HttpClient {
  const answer = { status: 200, headers: {}, text: '', json: undefined, ...res };
  return { send: async () => answer, close: async () => {} } as unknown as HttpClient;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the quota ledger', () => {
  it("a window the target opened after the ledger's last fresh one is still open when that one ends", () => {
    expect.hasAssertions();
    const b = new QuotaBudget(profile, false);
    b.take('validate', as('a'))();
    b.moved(3000);
    // the internal client's first call opens its window 3000 s later than the code client's
    b.take('validate', as('b'))();
    b.moved(601);
    expect(b.left('a', 'validate')).toBe(9);
    expect(b.left('b', 'validate')).toBe(8);
    b.moved(3000);
    expect(b.left('b', 'validate')).toBe(9);
  });

  it('counts refused calls as any other: every call sent, whatever the answer', async () => {
    expect.hasAssertions();
    const budget = new QuotaBudget(profile, false);
    const http = counting(fakeHttp({ status: 422 }), profile, urlOf, budget);
    for (let i = 0; i < 3; i++) await http.send({ method: 'POST', url: 'http://t/validate', headers: as('a') });
    expect(budget.left('a', 'validate')).toBe(6);
  });

  it("counts a burst's calls (sent past the client's send)", () => {
    expect.hasAssertions();
    const budget = new QuotaBudget(profile, false);
    const http = counting(fakeHttp({}), profile, urlOf, budget);
    const req: HttpRequest = { method: 'PUT', url: 'http://t/transfers/x1', headers: as('a') };
    for (let i = 0; i < 4; i++) spent(http, req);
    expect(budget.left('a', 'create')).toBe(5);
    expect(budget.left('a', 'validate')).toBe(9);
  });

  it('counts each attempt of a call sent again after a timeout (the target may have counted it)', async () => {
    expect.hasAssertions();
    const budget = new QuotaBudget(profile, false);
    const http = counting(fakeHttp({ resent: 2 }), profile, urlOf, budget);
    await http.send({ method: 'POST', url: 'http://t/validate', headers: as('a') });
    expect(budget.left('a', 'validate')).toBe(6);
  });

  it("a window opens at its first call's answer: a move of a window and one second after it passes it", async () => {
    expect.hasAssertions();
    const budget = new QuotaBudget(profile, false);
    const http = counting(fakeHttp({}), profile, urlOf, budget);
    await http.send({ method: 'POST', url: 'http://t/validate', headers: as('a') });
    await http.send({ method: 'POST', url: 'http://t/clock', body: { advance_seconds: 3599 } });
    expect(budget.left('a', 'validate')).toBe(8);
    await http.send({ method: 'POST', url: 'http://t/clock', body: { advance_seconds: 2 } });
    expect(budget.left('a', 'validate')).toBe(9);
  });

  it('real time ends a window only on a target without a test clock (a test clock may stand still)', () => {
    expect.hasAssertions();
    const noClock = { ...profile, target: {} } as unknown as FullProfile;
    const t = Date.now();
    const now = vi.spyOn(Date, 'now').mockReturnValue(t);
    const withClock = new QuotaBudget(profile, false);
    const without = new QuotaBudget(noClock, false);
    withClock.take('validate', as('a'))();
    without.take('validate', as('a'))();
    now.mockReturnValue(t + 3601_000);
    expect(withClock.left('a', 'validate')).toBe(8);
    expect(without.left('a', 'validate')).toBe(9);
  });
});
