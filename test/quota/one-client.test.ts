/**
 * One quota ledger, counted as the bank counts: a window per client id and operation, whichever grant the client id's
 * token came from. The bank's shapes (the mock's options): one client id registered for the code, partner and
 * client-credentials grants (MockOptions.oneClient, as a bank onboarding one partner application), and a window
 * opened per client id at its first call of any operation (MockOptions.quotaWindow 'client'). The partner role spends
 * most of the shared client's validate window; the masking checks (code and internal roles) come next in the same
 * session, run as against a real target (its profile, the ledger enforced when not destructive). With a test clock
 * they move to a fresh window, saying so, and pass in both modes; without one they say which window stopped them.
 */
import { describe, expect, test } from 'vitest';
import { defaultRunOptions, runChecks } from '../../lib/engine/run/runner.ts';
import { whyNotRunnable } from '../../lib/engine/run/runnable.ts';
import { createSession } from '../../lib/engine/session/session.ts';
import type { CheckDefinition } from '../../lib/engine/check.ts';
import type { CheckResult } from '../../lib/engine/results.ts';
import { MockClock } from '../../lib/mock/clock.ts';
import { FaultSet } from '../../lib/mock/fault-set.ts';
import { startMockBank } from '../../lib/mock/index.ts';
import { QuotaStore } from '../../lib/mock/transfers/quota.ts';
import type { MockOptions } from '../../lib/mock/types.ts';
import { testPki } from '../../lib/pki/index.ts';
import { EmbeddedProfile, FullProfile } from '../../lib/profile/schema.ts';
import { QuotaBudget } from '../../lib/engine/session/spend.ts';
import { prepare } from '../../lib/engine/run/prepare.ts';
import { allChecks } from '../../suites/index.ts';

const line = (r: CheckResult): string => `${r.checkId} ${r.verdict}: ${r.reason ?? ''}`;

/** a check of the test's own: `n` calls of `op` of the partner role (10 side by side), validate ones accepted */
function partnerSpends(n: number, op: 'validate' | 'get' = 'validate'): CheckDefinition {
  return {
    id: 'test.partner-spends-validate',
    suite: 'test',
    requirements: ['MASK-01'],
    title: `${n} ${op} calls of the partner role`,
    run: async (ctx) => {
      const token = await ctx.tokens.partnerToken();
      const body = ctx.transferBody(ctx.customer(0));
      const call = () =>
        op === 'validate'
          ? ctx.api({ op, as: 'partner', token, body, label: 'partner validate' })
          : ctx.api({ op, as: 'partner', token, transferId: ctx.newTransferId(), label: 'partner get' });
      for (let sent = 0; sent < n; sent += 10) await Promise.all(Array.from({ length: Math.min(10, n - sent) }, call));
    },
  };
}

const MASKING = [
  'masking.target-refuses-other-mask-characters',
  'masking.target-refuses-wrong-length-mask',
  'masking.no-clear-identifier-returned',
  'masking.unmasked-emirates-id-refused',
];
const masking = allChecks.filter((c) => MASKING.includes(c.id));
const inOrder = masking.map((c) => c.id);

/** the partner's `spend` validate calls, then the masking checks, in one session against the UAT mock in `shape` */
async function afterPartner(
  shape: Partial<MockOptions>,
  o: { destructive: boolean; clock: boolean; spend: number; op?: 'get'; checks?: readonly CheckDefinition[] },
): Promise<{ spent: CheckResult; results: CheckResult[] }> {
  // lenient, as the independent bank is (it echoes masked identifiers: every masking check applies)
  const mock = await startMockBank({
    mode: 'uat',
    pki: await testPki(),
    faults: [],
    lenient: true,
    oneClient: true,
    ...shape,
  });
  try {
    const described = mock.profile('one-client') as { target: Record<string, unknown> };
    if (!o.clock) delete described.target.clock;
    const profile = FullProfile.parse(described);
    const options = { ...defaultRunOptions, destructive: o.destructive };
    const session = await createSession({ profile, options, faults: [] });
    try {
      const [spent] = await runChecks([partnerSpends(o.spend, o.op)], session, options);
      const results = await runChecks(o.checks ?? masking, session, options);
      return { spent: spent!, results };
    } finally {
      await session.close();
    }
  } finally {
    await mock.close();
  }
}

describe('the mock shapes', () => {
  test('oneClient: the three grants share one registered client id', async () => {
    const mock = await startMockBank({ mode: 'uat', pki: await testPki(), oneClient: true });
    try {
      const { clients } = mock.profile();
      const ids = [clients.code.clientId, clients.partner?.clientId, clients.internal?.clientId];
      expect(ids).toEqual(['fintech-app-001', 'fintech-app-001', 'fintech-app-001']);
      expect(clients.partner?.certificate).toBe(clients.code.certificate);
    } finally {
      await mock.close();
    }
  });

  test('an embedded profile names both shapes: the mock it starts has one client id for every grant', async () => {
    const embedded = { oneClient: true, quotaWindow: 'client' };
    const prepared = await prepare(EmbeddedProfile.parse({ name: 'one', environment: 'uat', embedded }));
    try {
      const { clients } = prepared.runtime.profile;
      expect(new Set([clients.code.clientId, clients.partner?.clientId, clients.internal?.clientId]).size).toBe(1);
    } finally {
      await prepared.close();
    }
    const bad = EmbeddedProfile.safeParse({ name: 'one', environment: 'uat', embedded: { quotaWindow: 'hour' } });
    expect(bad.error?.issues.map((i) => i.path.join('.'))).toEqual(['embedded.quotaWindow']);
  });

  test('RACE-01 fits in a fresh window: --destructive needed only without a test clock', async () => {
    const mock = await startMockBank({ mode: 'sandbox', pki: await testPki(), oneClient: true });
    try {
      const race = allChecks.find((c) => c.id === 'race.concurrent-put-one-payment')!;
      const withClock = FullProfile.parse(mock.profile());
      const described = mock.profile() as { target: Record<string, unknown> };
      delete described.target.clock;
      const options = { ...defaultRunOptions, destructive: false };
      expect(whyNotRunnable(race, withClock, options)).toBeUndefined();
      expect(whyNotRunnable(race, FullProfile.parse(described), options)?.verdict).toBe('not-run');
    } finally {
      await mock.close();
    }
  });

  test("quotaWindow 'client': an operation's window ends with the client's, opened by another operation", async () => {
    const refusedAfter = async (windowOf: 'operation' | 'client'): Promise<number | undefined> => {
      const clock = new MockClock();
      const store = new QuotaStore(clock, new FaultSet([]), 100, 3600, undefined, undefined, 'every', windowOf);
      expect((await store.take('c', 'get')).ok).toBe(true);
      clock.advance(1800);
      for (let i = 0; i < 100; i++) expect((await store.take('c', 'validate')).ok).toBe(true);
      const r = await store.take('c', 'validate');
      return r.ok ? undefined : r.retryAfterSeconds;
    };
    // the validate window opened by the get call an half hour before ends half an hour later
    expect(await refusedAfter('client')).toBe(1800);
    expect(await refusedAfter('operation')).toBe(3600);
  });
});

describe('the ledger', () => {
  test('calls in flight when the clock passes their window count in the next one; one move for one spent window', async () => {
    const mock = await startMockBank({ mode: 'sandbox', pki: await testPki(), oneClient: true });
    try {
      const budget = new QuotaBudget(FullProfile.parse(mock.profile()), true);
      const h = { 'X-Gateway-Client-Id': 'fintech-app-001' };
      const back = Array.from({ length: 5 }, () => budget.take('validate', h));
      budget.take('validate', h)();
      expect(budget.left('fintech-app-001', 'validate')).toBe(93);
      budget.moved(3601);
      // the five still in flight may be counted by the target in the window the move opened
      expect(budget.left('fintech-app-001', 'validate')).toBe(94);
      for (const b of back) b();
      expect(budget.left('fintech-app-001', 'validate')).toBe(94);
      // calls that found the same window spent: one move
      let moves = 0;
      const since = budget.clockMoved;
      const move = async (): Promise<void> => {
        moves++;
        await Promise.resolve();
        budget.moved(3601);
      };
      const made = await Promise.all([budget.freshWindows(since, move), budget.freshWindows(since, move)]);
      expect([moves, made.filter(Boolean).length]).toEqual([1, 1]);
      expect(await budget.freshWindows(since, move)).toBe(false);
    } finally {
      await mock.close();
    }
  });
});

describe.concurrent('masking checks after the partner spent the shared client id', () => {
  for (const [name, shape] of [
    ['one client id', {}],
    ["one client id, a window per client id across operations (quotaWindow 'client')", { quotaWindow: 'client' }],
  ] as const)
    for (const destructive of [true, false])
      test(
        `${name}, test clock, ${destructive ? 'destructive' : 'not destructive'}: every check passes`,
        {
          timeout: 120_000,
        },
        async () => {
          const { spent, results } = await afterPartner(shape, { destructive, clock: true, spend: 95 });
          expect(line(spent)).toBe('test.partner-spends-validate pass: ');
          expect(results.map(line)).toEqual(inOrder.map((id) => `${id} pass: `));
          // each moved to a fresh window, or sent in one another's move opened, saying so
          const notes = results.flatMap((r) => r.evidence.notes).filter((n) => /fresh quota window/.test(n));
          expect(notes.some((n) => /the clock moved 3601 s to a fresh quota window/.test(n))).toBe(true);
          // never the last call of a window, never the quota's answer
          const refused = results.flatMap((r) => r.evidence.exchanges.filter((e) => e.response?.status === 429));
          expect(refused).toEqual([]);
        },
      );

  test(
    'a property check whose control finds the window at its last call: a fresh window, pass',
    {
      timeout: 120_000,
    },
    async () => {
      const property = allChecks.filter((c) => c.id === 'masking.near-miss-masks-refused-property');
      const { results } = await afterPartner({}, { destructive: false, clock: true, spend: 99, checks: property });
      expect(results.map((r) => r.verdict)).toEqual(['pass']);
    },
  );

  test(
    'a timeline check that only calls get, after its window was left nearly spent: fresh windows first, pass',
    { timeout: 120_000 },
    async () => {
      const expiry = allChecks.filter((c) => c.id === 'tokens.access-token-expires');
      const { results } = await afterPartner(
        {},
        { destructive: false, clock: true, spend: 99, op: 'get', checks: expiry },
      );
      expect(results.map(line)).toEqual(['tokens.access-token-expires pass: ']);
    },
  );

  test(
    "after a move: a cached token is renewed behind the call, a fresh grant's token never is",
    {
      timeout: 120_000,
    },
    async () => {
      const seen: number[] = [];
      const probe = (fresh: boolean): CheckDefinition => ({
        id: `test.${fresh ? 'fresh-grant' : 'cached'}-token-after-a-move`,
        suite: 'test',
        requirements: ['TOK-07'],
        title: 'a validate call that meets a window at its last call',
        run: async (ctx) => {
          const c = ctx.customer(0);
          const token = fresh ? (await ctx.tokens.codeGrant(c)).access : await ctx.tokens.codeToken(c);
          const res = await ctx.api({ op: 'validate', token, body: ctx.transferBody(c), label: 'validate' });
          seen.push(res.status);
        },
      });
      for (const fresh of [false, true])
        await afterPartner({}, { destructive: true, clock: true, spend: 99, checks: [probe(fresh)] });
      // the move of 3601 s expires the access token (3600 s): the cached one is renewed, the grant's is the check's own
      expect(seen).toEqual([200, 401]);
    },
  );

  test(
    'no test clock, destructive: the quota answer makes the check inconclusive, naming the window',
    {
      timeout: 120_000,
    },
    async () => {
      const one = masking.filter((c) => c.id === 'masking.target-refuses-wrong-length-mask');
      const { results } = await afterPartner({}, { destructive: true, clock: false, spend: 100, checks: one });
      const [r] = results;
      expect(r!.verdict).toBe('inconclusive');
      expect(r!.reason).toMatch(
        /answered with the contract's quota answer \(HTTP 429, Retry-After \d+\): the validate quota window of client fintech-app-001 \(\d+ validate calls counted, the target's quota 100; a window of 3600 s\) is spent at the target, and the target has no test clock/,
      );
    },
  );

  test('no test clock, not destructive: not run, the budget of that client stated', { timeout: 120_000 }, async () => {
    const one = masking.filter((c) => c.id === 'masking.target-refuses-wrong-length-mask');
    const { results } = await afterPartner({}, { destructive: false, clock: false, spend: 99, checks: one });
    const [r] = results;
    expect(r!.verdict).toBe('not-run');
    expect(r!.reason).toMatch(/99 validate calls of client fintech-app-001 sent in the quota window, one left/);
  });
});
