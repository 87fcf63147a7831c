/**
 * A bank's own answers that look like a gateway's throttle (a 429 or 503 without the API's body) are the bank's:
 * the throttle reading (lib/engine/session/throttle/throttle.ts) tells them apart by what they do, not by the body alone. A
 * refusal that asks for a wait no throttle asks (a Retry-After of the rest of the hour) is handed to the check at once;
 * one that does not lift after a short wait, while a control without credentials to the same origin is answered by
 * the API, is the bank's answer to that call. Each case is a fault of the mock and one check run alone. The waits are
 * the test's (TestWaits, handed to the run and to the mock's gateway): each is recorded, not spent.
 */
import { afterEach, expect, test } from 'vitest';
import type { CheckResult } from '../../lib/engine/results.ts';
import { defaultRunOptions } from '../../lib/engine/run/runner.ts';
import { startMockBank, type MockBank } from '../../lib/mock/index.ts';
import type { ThrottleOptions } from '../../lib/mock/types.ts';
import { testPki } from '../../lib/pki/index.ts';
import { FullProfile, type Environment } from '../../lib/profile/schema.ts';
import { defineSuite } from '../../lib/engine/check.ts';
import { LIFT_MS } from '../../lib/engine/session/throttle/throttle.ts';
import { allChecks } from '../../suites/index.ts';
import { runOn } from '../fixtures/run.ts';
import { TestWaits } from '../fixtures/waits.ts';

let mock: MockBank | undefined;
/** the test's clock, handed to the run (its back-off) and to the mock (its gateway): waits recorded, not spent */
let waits = new TestWaits();
/** the waits asked, summed as the throttle's notes round them */
const waited = (): number => Math.round(waits.asked.reduce((a, b) => a + b, 0));
afterEach(async () => {
  await mock?.close();
  mock = undefined;
  waits = new TestWaits();
});

/** `checkId` alone against a mock with `faults` (and a throttling gateway in front, when given) */
async function runAlone(
  checkId: string,
  faults: string[],
  o: { mode?: Environment; throttle?: ThrottleOptions } = {},
): Promise<CheckResult> {
  mock = await startMockBank({
    mode: o.mode ?? 'sandbox',
    pki: await testPki(),
    faults,
    ...(o.throttle ? { throttle: o.throttle } : {}),
    waits,
  });
  const profile = FullProfile.parse(mock.profile(`bare-${faults.join('-')}`));
  const checks = allChecks.filter((c) => c.id === checkId);
  expect(checks).toHaveLength(1);
  const [r] = await runOn(profile, { ...defaultRunOptions, embedded: true, waits }, checks);
  return r!;
}

test('a bare 429 at the 101st call (no Retry-After, no body) fails QUOTA-01 for its missing Retry-After', async () => {
  const r = await runAlone('quota.per-operation-limit', ['quota-refusal-bare']);
  expect([r.verdict, r.reason]).toEqual(['fail', 'the 429 answer carries no Retry-After header']);
  expect(r.evidence.notes.join('\n')).toMatch(
    /HTTP 429, no Retry-After, no content type 4 times .* the target's answer/,
  );
  // on the test's clock: three back-offs, then a throttle's lift (LIFT_MS) after the control, before the fourth try
  expect(waits.asked).toHaveLength(4);
  expect(waits.asked[3]).toBe(LIFT_MS);
  expect(r.evidence.notes.join('\n')).toContain(`4 times over ${waited()} ms of waiting`);
});

test('behind a gateway that throttles with 429 too, the bare quota refusal still fails QUOTA-01', async () => {
  const r = await runAlone('quota.per-operation-limit', ['quota-refusal-bare'], { throttle: { perSecond: 200 } });
  expect([r.verdict, r.reason]).toEqual(['fail', 'the 429 answer carries no Retry-After header']);
  // the bank's refusal told apart after a throttle's lift; the gateway's refusals waited out before it
  expect(waits.asked).toContain(LIFT_MS);
});

test('behind a gateway that throttles with 503 pages too, the crash page still fails ERR-05', async () => {
  const throttle = { perSecond: 50, status: 503 as const };
  const r = await runAlone('errors.errors-do-not-leak-internals', ['malformed-json-503-traceback'], { throttle });
  expect(r.verdict).toBe('fail');
  expect(r.reason).toMatch(
    /^error answers leak internals: validate malformed JSON \(400\) HTTP 503, body: stack-trace/,
  );
  expect(waits.asked).toContain(LIFT_MS);
});

test('a bare 429 from the 51st call asking for the rest of the hour fails QUOTA-01: refused before the quota', async () => {
  const r = await runAlone('quota.per-operation-limit', ['quota-early-long-wait']);
  expect([r.verdict, r.reason]).toEqual(['fail', 'validate was refused after 50 calls, before the quota of 100']);
  // a wait no throttle asks for: the refusal is the check's at once, nothing waited
  expect(waits.asked).toEqual([]);
});

for (const mode of ['sandbox', 'uat'] as const)
  test(`${mode}: malformed JSON answered 503 with a traceback page fails ERR-05 for the leak`, async () => {
    const r = await runAlone('errors.errors-do-not-leak-internals', ['malformed-json-503-traceback'], { mode });
    expect(r.verdict).toBe('fail');
    expect(r.reason).toMatch(
      /^error answers leak internals: validate malformed JSON \(400\) HTTP 503, body: stack-trace: Traceback/,
    );
    expect(r.reason).toMatch(/file-path: "?\/opt\/bank\/app\/transfers\.py/);
    // told by what it did: refused again after the API answered a control, not by its page
    expect(r.evidence.notes.join('\n')).toMatch(
      /validate malformed JSON \(400\): HTTP 503, no Retry-After, text\/html 4 times .* a control without credentials was answered by the API \(HTTP 401\)/,
    );
    // three back-offs, then a throttle's lift after the control, on the test's clock
    expect(waits.asked).toHaveLength(4);
    expect(waits.asked[3]).toBe(LIFT_MS);
    expect(r.evidence.notes.join('\n')).toContain(`4 times over ${waited()} ms of waiting`);
  });

test('the documents property keeps the crash (503, a traceback page) as its ERR-05 counterexample', async () => {
  const r = await runAlone('errors.invalid-documents-property', ['malformed-json-503-traceback']);
  expect(r.verdict).toBe('fail');
  expect(r.requirements).toContain('ERR-05');
  expect(r.reason).toMatch(/HTTP 503 to .*the error answer leaks internals \(stack-trace: Traceback/);
  // the crash's counterexample kept: a cut JSON text, its answer the 503
  const cx = r.evidence.property?.counterexample;
  expect(cx?.observed).toMatch(/^HTTP 503 to /);
  expect(waits.asked).toContain(LIFT_MS);
});

test("a call's tries sent again after a throttle count in the quota ledger, each as a call the bank may count", async () => {
  mock = await startMockBank({ mode: 'sandbox', pki: await testPki(), throttle: { perSecond: 4 }, waits });
  const profile = FullProfile.parse(mock.profile('resends'));
  const suite = defineSuite('selftest', [
    {
      name: 'throttled-calls',
      requirements: ['XFER-01'],
      title: 'four validate calls at once behind a gateway of four calls a second',
      async run(ctx) {
        const customer = ctx.customer(0);
        const token = await ctx.tokens.codeToken(customer);
        const before = ctx.quota.left('code', 'validate');
        const body = ctx.transferBody(customer);
        const calls = [0, 1, 2, 3].map((i) => ctx.api({ op: 'validate', token, body, label: `validate ${i}` }));
        const answers = await Promise.all(calls);
        ctx.note(`answers ${answers.map((a) => a.status).join(' ')}`);
        ctx.note(`ledger ${before - ctx.quota.left('code', 'validate')}`);
      },
    },
  ]);
  const [r] = await runOn(profile, { ...defaultRunOptions, embedded: true, waits }, suite.checks);
  expect(r!.evidence.notes).toContain('answers 200 200 200 200');
  // every try the check's evidence recorded (the throttled ones marked), as the ledger must count them; a control
  // without credentials is counted by no quota (the contract counts a call once it passed the API key)
  const tries = r!.evidence.exchanges.filter((x) => /^validate \d(?! \(control)/.test(x.label ?? '')).length;
  expect(tries).toBeGreaterThan(4);
  expect(r!.evidence.notes).toContain(`ledger ${tries}`);
});

test('a burst past the quota answered with bare 429s: RACE-04 inconclusive, naming both readings of them', async () => {
  const r = await runAlone('race.concurrent-calls-past-quota', ['quota-refusal-bare']);
  expect(r.verdict).toBe('inconclusive');
  expect(r.reason).toMatch(
    /^10 of the burst's 20 calls were accepted \(the room left\) and 10 answered with a throttle's shape .*a gateway's throttle, whose calls never reached the bank, or the bank's own quota refusal without the contract's body and Retry-After \(QUOTA-01 judges that answer\)/,
  );
});
