/**
 * A gateway's page is not the API's error answer: nginx's 429 page names "nginx/1.22.1", which ERR-05's detector
 * reads as a server version in an error body. Neither the documents property's judgment nor the fixed ERR-05 check
 * may take it for the API leaking internals (a Server header naming nginx is HARD-05's business, not ERR-05's).
 */
import { afterEach, describe, expect, it, test } from 'vitest';
import { gatewayPage } from '../../lib/mock/server/gateway.ts';
import { startMockBank, type MockBank, type MockIntercept } from '../../lib/mock/index.ts';
import { testPki } from '../../lib/pki/index.ts';
import { FullProfile } from '../../lib/profile/schema.ts';
import { defaultRunOptions } from '../../lib/engine/run/runner.ts';
import type { GeneratedDocument } from '../../suites/errors/defects.ts';
import { judgeAnswer, leaksOf } from '../../suites/errors/documents-judge.ts';
import { bodyLeaks, isGatewayPage } from '../../suites/errors/leaks.ts';
import { allChecks } from '../../suites/index.ts';
import { runOn } from '../fixtures/run.ts';

const NGINX_429 = gatewayPage(429);
const NGINX_502 = gatewayPage(503).replace(/503 Service Temporarily Unavailable/g, '502 Bad Gateway');

describe('isGatewayPage', () => {
  it('an HTML page on 429, 502, 503, 504 or the quota status is a gateway page', () => {
    expect(bodyLeaks(NGINX_429).map((l) => l.excerpt)).toEqual(['nginx/1.22.1']);
    for (const s of [429, 502, 503, 504]) expect(isGatewayPage(s, NGINX_429)).toBe(true);
    expect(isGatewayPage(420, NGINX_429, 420)).toBe(true);
    expect(isGatewayPage(429, 'Too Many Requests')).toBe(true);
  });
  it("the API's JSON error body, and an HTML page on any other status, are the API's answers", () => {
    const body = JSON.stringify({ status: '429', description: 'at /srv/app/dist/x.js:12:3' });
    expect(isGatewayPage(429, body)).toBe(false);
    // a 500 HTML page with a stack trace is the bank's own server speaking: still scanned
    expect(isGatewayPage(500, '<html>at com.bank.X.run(X.java:12)</html>')).toBe(false);
    expect(isGatewayPage(404, NGINX_429)).toBe(false);
  });
});

describe("the documents property's judgment", () => {
  const doc: GeneratedDocument = { kind: 'invalid', body: {}, defects: [], label: 'a document' };
  const page = { status: 429, body: undefined, raw: { text: NGINX_429 } };
  it('reads no leak in a gateway page', () => {
    expect(leaksOf(page, '{}', '/v1')).toEqual([]);
    expect(judgeAnswer(doc, page, '{}', { unmaskedIdentifier: [422], basepath: '/v1', quotaStatus: 429 }).verdict).toBe(
      'unjudged',
    );
  });
});

let mock: MockBank | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

describe('ERR-05 behind a gateway', () => {
  test("a gateway's 502 page to one of its calls is no leak; the API's answers are judged", async () => {
    // the gateway answers the DELETE with its page (the bank never sees it); the other calls reach the bank
    const intercept: MockIntercept = async ({ req, res }, next) => {
      if (req.method !== 'DELETE') return next();
      res.writeHead(502, { 'content-type': 'text/html', server: 'nginx/1.22.1' });
      res.end(NGINX_502);
    };
    mock = await startMockBank({ mode: 'sandbox', pki: await testPki(), intercept });
    const profile = FullProfile.parse(mock.profile('gateway-502'));
    const checks = allChecks.filter((c) => c.id === 'errors.errors-do-not-leak-internals');
    const [r] = await runOn(profile, { ...defaultRunOptions, embedded: true }, checks);
    expect([r!.verdict, r!.reason ?? '']).toEqual(['pass', '']);
    expect(r!.evidence.notes.join('\n')).toMatch(/5 error answers inspected/);
  });
});
