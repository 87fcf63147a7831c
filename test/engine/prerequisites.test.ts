/**
 * Prerequisites (lib/engine/session/prerequisites.ts): established once, each with its own result; a check whose
 * prerequisite failed is inconclusive at once naming it (blockedBy), without traffic.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { prepare, type PreparedTarget } from '../../lib/engine/run/prepare.ts';
import { establishPrerequisites } from '../../lib/engine/session/prerequisites.ts';
import { runChecks } from '../../lib/engine/run/runner.ts';
import { whyNotRunnable } from '../../lib/engine/run/runnable.ts';
import { createSession } from '../../lib/engine/session/session.ts';
import type { HarnessRuntime } from '../../lib/engine/run/runtime.ts';
import { loadProfile } from '../../lib/profile/load.ts';
import { ROOT } from '../../lib/root.ts';
import { allChecks } from '../../suites/index.ts';

let prepared: PreparedTarget;
let hang: net.Server;
let hangUrl = '';
let connections = 0;
const sockets = new Set<net.Socket>();

beforeAll(async () => {
  prepared = await prepare(await loadProfile(`${ROOT}/profiles/mock-sandbox.json`));
  // accepts connections and never answers
  hang = net.createServer((s) => {
    connections++;
    sockets.add(s);
    s.on('error', () => {});
  });
  await new Promise<void>((r) => hang.listen(0, '127.0.0.1', r));
  hangUrl = `http://127.0.0.1:${(hang.address() as net.AddressInfo).port}`;
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((r) => hang.close(r));
  await prepared.close();
});

function runtimeWith(over: (p: HarnessRuntime['profile']) => HarnessRuntime['profile']): HarnessRuntime {
  return { ...prepared.runtime, profile: over(prepared.runtime.profile) };
}

describe('prerequisites', () => {
  test('the clean mock: every prerequisite holds (or does not apply)', async () => {
    const session = await createSession(prepared.runtime);
    try {
      const est = await establishPrerequisites(session, session.prerequisites);
      expect(est.unreachable).toBeUndefined();
      expect(Object.fromEntries(est.results.map((r) => [r.id, r.verdict]))).toEqual({
        'tls-handshake': 'not-applicable',
        'reach-api': 'pass',
        'client-credentials-token': 'pass',
        'sealed-response-opens': 'not-applicable',
        'code-grant': 'pass',
      });
    } finally {
      await session.close();
    }
  });

  test('a hanging target: reach-api fails naming the limit, every check is blocked without traffic', async () => {
    const runtime = runtimeWith((p) => ({
      ...p,
      target: { ...p.target, baseUrl: hangUrl, oauthBaseUrl: hangUrl },
      run: { ...p.run, requestTimeoutMs: 300 },
    }));
    const session = await createSession(runtime);
    try {
      connections = 0;
      const est = await establishPrerequisites(session, session.prerequisites);
      const reach = est.results.find((r) => r.id === 'reach-api')!;
      expect(reach.verdict).toBe('fail');
      expect(reach.reason).toMatch(/no response header within 0\.3 s/);
      expect(est.unreachable).toMatch(/^reach-api: /);
      for (const id of ['client-credentials-token', 'code-grant'])
        expect(est.results.find((r) => r.id === id)).toMatchObject({ verdict: 'inconclusive', blockedBy: 'reach-api' });
      const results = await runChecks(allChecks, session, runtime.options);
      expect(results).toHaveLength(allChecks.length);
      for (const r of results) expect(r.evidence.exchanges).toEqual([]);
      const judged = results.filter((r) => r.verdict !== 'not-applicable' && r.verdict !== 'not-run');
      expect(judged.length).toBeGreaterThan(10);
      for (const r of judged) {
        expect(r).toMatchObject({ verdict: 'inconclusive', blockedBy: 'reach-api' });
        expect(r.reason).toMatch(/^blocked by prerequisite reach-api: .*no response header within 0\.3 s/);
      }
      expect(connections).toBe(1);
    } finally {
      await session.close();
    }
  });

  test('a refused code grant blocks the checks that need a code token, not the token checks', async () => {
    const runtime = runtimeWith((p) => ({
      ...p,
      clients: { ...p.clients, code: { ...p.clients.code, clientSecret: 'not-the-secret' } },
    }));
    const session = await createSession(runtime);
    try {
      // pipelined as certify does: the check starts while the prerequisites are still being established
      const establishing = establishPrerequisites(session, session.prerequisites);
      const validate = allChecks.filter((c) => c.id === 'transfers.validate-pre-confirmation');
      const [[r], est] = await Promise.all([runChecks(validate, session, runtime.options), establishing]);
      expect(est.results.find((q) => q.id === 'code-grant')?.verdict).toBe('fail');
      expect(est.results.find((q) => q.id === 'client-credentials-token')?.verdict).toBe('pass');
      expect(r).toMatchObject({ verdict: 'inconclusive', blockedBy: 'code-grant' });
      expect(r!.evidence.exchanges).toEqual([]);
      expect(JSON.stringify(est)).not.toContain('not-the-secret');
    } finally {
      await session.close();
    }
  });

  test('a check that makes more calls than run.maxCallsPerCheck is inconclusive, naming the budget', async () => {
    const runtime = runtimeWith((p) => ({ ...p, run: { ...p.run, maxCallsPerCheck: 2 } }));
    const session = await createSession(runtime);
    try {
      const greedy = {
        id: 'transfers.greedy',
        suite: 'transfers',
        requirements: ['XFER-01'],
        title: 'calls three times',
        run: async (ctx: Parameters<(typeof allChecks)[number]['run']>[0]) => {
          for (let i = 0; i < 3; i++) await ctx.send({ method: 'GET', url: ctx.url('/v1/none') });
        },
      };
      const [r] = await runChecks([greedy], session, runtime.options);
      expect(r).toMatchObject({ verdict: 'inconclusive' });
      expect(r!.reason).toMatch(/call budget: the check made more than 2 calls \(profile run.maxCallsPerCheck\)/);
      expect(r!.evidence.exchanges).toHaveLength(2);
    } finally {
      await session.close();
    }
  });

  test('--deadline: a check not started by the deadline is not run, with the reason', async () => {
    const session = await createSession(prepared.runtime);
    try {
      const options = { ...prepared.runtime.options, deadlineAt: Date.now() - 1 };
      // checks that would run on this profile (the catalogue's first ones are UAT-only: not applicable here)
      const runnable = allChecks.filter((c) => whyNotRunnable(c, prepared.runtime.profile, options) === undefined);
      const results = await runChecks(runnable.slice(0, 3), session, options);
      expect(results).toHaveLength(3);
      for (const r of results) {
        expect(r).toMatchObject({ verdict: 'not-run' });
        expect(r.reason).toMatch(/deadline/);
        expect(r.evidence.exchanges).toEqual([]);
      }
    } finally {
      await session.close();
    }
  });
});
