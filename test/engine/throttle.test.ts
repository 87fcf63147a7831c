/**
 * lib/engine/session/throttle/: what a gateway's throttle answer is (and what is the API's own), how a call is sent again
 * after one, bounded, and inconclusive when the tries are spent; the mock gateway's token bucket and page. The
 * throttle's waits (its back-off, its spacing) are asked of the test's clock (TestWaits, handed to the Throttle): each is
 * recorded and the clock moved, none spent, so that nothing here depends on the machine's speed.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { Inconclusive } from '../../lib/engine/check.ts';
import {
  apiBody,
  asksLongWait,
  controlOf,
  isGatewayAnswer,
  isThrottle,
  MAX_TRIES,
  THROTTLE_RETRY_AFTER_MAX_S,
  MAX_WAIT_MS,
  Throttle,
} from '../../lib/engine/session/throttle/throttle.ts';
import { withoutThrottled } from '../../lib/engine/session/throttle/throttled-calls.ts';
import type { HttpResponse } from '../../lib/http/types.ts';
import { Gateway, gatewayPage } from '../../lib/mock/server/gateway.ts';
import { TestWaits } from '../fixtures/waits.ts';

const page = gatewayPage(429);

/** the test's clock of the throttle's waits, a new one for each test */
let waits = new TestWaits();
beforeEach(() => {
  waits = new TestWaits();
});

const res = (status: number, text: string, headers: Record<string, string> = {}): HttpResponse => {
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status, headers, text, json };
};
const quotaBody = JSON.stringify({
  status: '429',
  response_code: '429001',
  property: 'quota',
  response_message: 'Quota exceeded',
  description: 'The hourly quota for this operation is exhausted; retry later.',
});

describe('isThrottle', () => {
  it("a 429 or 503 with a gateway's body is a throttle", () => {
    expect(isThrottle(res(429, page, { 'content-type': 'text/html' }), 429)).toBe(true);
    expect(isThrottle(res(503, page), 429)).toBe(true);
    expect(isThrottle(res(429, ''), 429)).toBe(true);
    // AWS API Gateway's throttle answer: JSON, but no shape the API writes
    expect(isThrottle(res(429, '{"message":"Too Many Requests"}'), 429)).toBe(true);
    // the profile's quota status decides
    expect(isThrottle(res(420, page), 420)).toBe(true);
    expect(isThrottle(res(420, page), 429)).toBe(false);
  });
  it("the contract's quota answer is the API's, with or without its Retry-After (QUOTA-01 judges that header)", () => {
    expect(isThrottle(res(429, quotaBody, { 'retry-after': '3600' }), 429)).toBe(false);
    expect(isThrottle(res(429, quotaBody), 429)).toBe(false);
    // the spike arrest of property-gate.ts (the API's body, Retry-After: 1) is the API's answer too
    expect(isThrottle(res(429, quotaBody, { 'retry-after': '1' }), 429)).toBe(false);
  });
  it("sealed answers and OAuth errors are the API's", () => {
    expect(apiBody(res(429, '"eyJhbGciOiJSU0EtT0FFUC0yNTYifQ.a.b.c.d"'))).toBe(true);
    expect(apiBody(res(429, '{"protected":"x","ciphertext":"y","iv":"z","tag":"t"}'))).toBe(true);
    expect(isThrottle(res(503, '{"error":"temporarily_unavailable"}'), 429)).toBe(false);
  });
  it('other statuses are never throttles; 502/504 pages are gateway answers', () => {
    expect(isThrottle(res(401, page), 429)).toBe(false);
    expect(isThrottle(res(200, page), 429)).toBe(false);
    expect(isGatewayAnswer(res(502, page), 429)).toBe(true);
    expect(isGatewayAnswer(res(500, page), 429)).toBe(false);
  });
});

describe('Throttle.send', () => {
  it('sends again after a throttle until an answer that is none; counts it', async () => {
    const t = new Throttle(429, 1, waits);
    const answers = [res(429, page), res(429, page), res(200, '{}')];
    const notes: string[] = [];
    let sent = 0;
    const began = waits.now();
    const got = await t.send({
      url: 'http://127.0.0.1:1/x',
      send: async () => answers[sent++]!,
      note: (n) => notes.push(n),
      label: 'validate POST',
    });
    expect(got.status).toBe(200);
    expect(sent).toBe(3);
    const s = t.summary()!;
    expect([s.throttled, s.retries, s.gaveUp, s.statuses]).toEqual([2, 2, 0, { '429': 2 }]);
    // equal jitter: 100-200 ms, then 200-400 ms
    expect(s.waitedMs).toBeGreaterThanOrEqual(300);
    expect(s.waitedMs).toBeLessThanOrEqual(600);
    // and waited (on the test's clock), not only counted
    expect(waits.now() - began).toBeGreaterThanOrEqual(s.waitedMs);
    expect(notes.join('\n')).toMatch(/validate POST: throttled by a gateway 2 times \(HTTP 429, no Retry-After/);
  });

  it("never hands a throttle to the check: tries used up, inconclusive (and the quota's answer passes at once)", async () => {
    const t = new Throttle(429, 2, waits);
    let sent = 0;
    const e = await t
      .send({ url: 'http://127.0.0.1:1/x', send: async () => (sent++, res(429, page)), label: 'token' })
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(Inconclusive);
    expect((e as Error).message).toMatch(/^throttled by the gateway: \d tries over [\d.]+ s \(token: HTTP 429/);
    expect(sent).toBeLessThanOrEqual(MAX_TRIES);
    // the waits it planned (not the clock: the machine may be slow) stay within the bound
    expect(t.stats.waitedMs).toBeLessThanOrEqual(MAX_WAIT_MS);
    expect(t.summary()!.gaveUp).toBe(1);
    let once = 0;
    const quota = await t.send({ url: 'http://127.0.0.1:1/x', send: async () => (once++, res(429, quotaBody)) });
    expect([quota.status, once]).toEqual([429, 1]);
  });

  it("a check's stop ends the wait at once", async () => {
    const t = new Throttle(429, 3, waits);
    const stop = new AbortController();
    let sent = 0;
    // the stop comes while the first back-off's wait (100 ms at least) runs: the test's time stands still, so only the
    // stop can end that wait
    const send = async (): Promise<HttpResponse> => {
      sent++;
      setImmediate(() => stop.abort(new Inconclusive('stopped: time limit')));
      return res(429, page);
    };
    const e = await t.send({ url: 'http://127.0.0.1:1/x', send, stop: stop.signal }).catch((x: unknown) => x);
    expect((e as Error).message).toBe('stopped: time limit');
    expect(sent).toBe(1);
  });

  it('nothing throttled: no summary, no wait', async () => {
    const t = new Throttle(429, 4, waits);
    await t.send({ url: 'http://127.0.0.1:1/x', send: async () => res(401, page) });
    expect(t.summary()).toBeUndefined();
  });
});

describe('withoutThrottled', () => {
  it('a throttled burst reply took no part: neither ready nor answered', () => {
    const reply = (status: number) => ({ response: res(status, status === 429 ? page : '{}'), ready: true });
    const r = withoutThrottled(
      { replies: [reply(200), reply(429), reply(429)], ready: 3, releaseSpreadMs: 0.1 },
      (i) => i > 0,
    );
    expect(r.ready).toBe(1);
    expect(r.replies.map((x) => x.response?.status ?? x.error)).toEqual([
      200,
      'THROTTLED (answered by a gateway, not the bank)',
      'THROTTLED (answered by a gateway, not the bank)',
    ]);
  });
});

describe('the mock gateway', () => {
  it('a token bucket per source: perSecond, burst + 1 at once', () => {
    const g = new Gateway({ perSecond: 100, burst: 2 });
    const at = [0, 0, 0, 0].map(() => g.admit('a', 1000));
    expect(at).toEqual([true, true, true, false]);
    expect(g.admit('b', 1000)).toBe(true);
    expect(g.admit('a', 1005)).toBe(false);
    expect(g.admit('a', 1010)).toBe(true);
  });
  it("nginx's page: no Retry-After, HTML, its version", () => {
    expect(page).toContain('<title>429 Too Many Requests</title>');
    expect(page).toContain('nginx/1.22.1');
    expect(gatewayPage(503)).toContain('503 Service Temporarily Unavailable');
  });
});

const apiRefusal = JSON.stringify({
  status: '401',
  response_code: '401001',
  property: 'X-Gateway-Client-Id',
  response_message: 'Unauthorized',
  description: 'The API key header is missing.',
});

describe("a bank's own refusal without the API's body, told from a throttle by what it does", () => {
  it("a Retry-After past a throttle's short wait is no throttle; a short one, or none, may be", () => {
    expect(isThrottle(res(429, '', { 'retry-after': '3590' }), 429)).toBe(false);
    expect(isThrottle(res(503, page, { 'retry-after': '3600' }), 429)).toBe(false);
    expect(isThrottle(res(429, '', { 'retry-after': String(THROTTLE_RETRY_AFTER_MAX_S) }), 429)).toBe(true);
    expect(isThrottle(res(503, page, { 'retry-after': '1' }), 429)).toBe(true);
    // an HTTP-date, read against the answer's own Date (the target's clock)
    const date = 'Sat, 28 Nov 2026 10:00:00 GMT';
    expect(asksLongWait(res(429, '', { 'retry-after': 'Sat, 28 Nov 2026 11:00:00 GMT', date }))).toBe(true);
    expect(asksLongWait(res(429, '', { 'retry-after': 'Sat, 28 Nov 2026 10:00:30 GMT', date }))).toBe(false);
  });

  it('the control: the same method, URL and connection identity, without credentials or body', () => {
    const identity = { certificate: 'cert', privateKey: 'key' } as never;
    const control = controlOf({
      method: 'POST',
      url: 'https://bank.test/v1/transfers/validate',
      headers: {
        Authorization: 'Bearer t',
        'X-Gateway-Client-Id': 'c1',
        'Content-Type': 'application/json',
        Accept: 'application/json',
      },
      body: '{"a":1}',
      identity,
      label: 'validate #101',
      resend: 'checked',
    });
    expect(control).toEqual({
      method: 'POST',
      url: 'https://bank.test/v1/transfers/validate',
      headers: { Accept: 'application/json' },
      identity,
      label: 'validate #101 (control without credentials: is the origin throttled?)',
    });
  });

  it("refused again after the API answered the control: the target's answer, handed over, no throttle counted", async () => {
    const t = new Throttle(429, 5, waits);
    const sent: string[] = [];
    const notes: string[] = [];
    const got = await t.send({
      url: 'http://127.0.0.1:1/x',
      send: async () => (sent.push('call'), res(429, '')),
      control: async () => res(401, apiRefusal),
      sent: (kind) => sent.push(kind),
      note: (n) => notes.push(n),
      label: 'validate #101',
    });
    expect(got.status).toBe(429);
    // CONTROL_AFTER tries, the control, one try more; each try after the first counted as sent again
    expect(sent).toEqual(['call', 'resend', 'call', 'resend', 'call', 'control', 'resend', 'call']);
    expect(t.stats.throttled).toBe(0);
    expect(t.stats.statuses).toEqual({});
    expect(notes.join('\n')).toMatch(
      /^validate #101: HTTP 429, no Retry-After, no content type 4 times over \d+ ms of waiting, while a control without credentials was answered by the API \(HTTP 401\): not a gateway's throttle \(it would lift\), the target's answer$/,
    );
  });

  it('a control the gateway holds back too: a throttle, inconclusive once the tries are spent', async () => {
    const t = new Throttle(429, 6, waits);
    let tries = 0;
    let controls = 0;
    const e = await t
      .send({
        url: 'http://127.0.0.1:1/x',
        send: async () => (tries++, res(429, page)),
        control: async () => (controls++, res(429, page)),
      })
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(Inconclusive);
    expect([controls, t.stats.gaveUp]).toEqual([1, 1]);
    expect(t.stats.throttled).toBe(tries);
  });

  it('lifted by the try after the control: the answer, the throttle counted', async () => {
    const t = new Throttle(429, 7, waits);
    const answers = [res(503, page), res(503, page), res(503, page), res(200, '{}')];
    let tries = 0;
    const got = await t.send({
      url: 'http://127.0.0.1:1/x',
      send: async () => answers[tries++]!,
      control: async () => res(401, apiRefusal),
    });
    expect([got.status, tries, t.stats.throttled]).toEqual([200, 4, 3]);
  });

  it('while a refusal is told apart, no other call to the origin starts', async () => {
    const t = new Throttle(429, 8, waits);
    const events: string[] = [];
    let other: Promise<unknown> | undefined;
    await t.send({
      url: 'http://127.0.0.1:1/a',
      send: async () => (events.push('A'), res(429, '')),
      control: async () => {
        events.push('control');
        // another call to the same origin, started while the origin is held
        other = t.send({ url: 'http://127.0.0.1:1/b', send: async () => (events.push('B'), res(200, '{}')) });
        return res(401, apiRefusal);
      },
    });
    await other;
    expect(events).toEqual(['A', 'A', 'A', 'control', 'A', 'B']);
  });
});
