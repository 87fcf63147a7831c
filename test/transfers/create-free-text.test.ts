/**
 * transfers.create-stores-free-text (XFER-03) against the embedded mock: the free-text classes of validate sent to
 * create too. The clean and the lenient mock pass; a bank that crashes only when it stores the text
 * (remarks-create-500: validate accepts it) fails XFER-03 naming the class; a bank whose remarks stop at 100
 * characters (remarks-short-limit) is inconclusive naming contract.freeText (the specification sets no length); a
 * profile naming two free-text members sends each class for each (1 + 2 × 2 creates).
 */
import { afterAll, describe, expect, test } from 'vitest';
import { EmbeddedProfile, type Environment } from '../../lib/profile/schema.ts';
import { prepare } from '../../lib/engine/run/prepare.ts';
import { startMockThread, type MockThread } from '../../lib/mock/server/thread.ts';
import { createSession } from '../../lib/engine/session/session.ts';
import { runChecks } from '../../lib/engine/run/runner.ts';
import type { CheckResult } from '../../lib/engine/results.ts';
import { suite } from '../../suites/transfers/checks.ts';

let thread: MockThread | undefined;
afterAll(async () => {
  await thread?.shutdown();
});

const CHECK = suite.checks.filter((c) => c.id === 'transfers.create-stores-free-text');

async function run(
  env: Environment,
  embedded: { faults?: string[]; lenient?: boolean },
  contract: Record<string, unknown> = {},
): Promise<CheckResult> {
  const profile = EmbeddedProfile.parse({ name: `free-text-${env}`, environment: env, embedded, contract });
  thread ??= startMockThread();
  const prepared = await prepare(profile, { checkTimeoutMs: 120_000 }, { mockThread: thread });
  const session = await createSession(prepared.runtime);
  try {
    const [r] = await runChecks(CHECK, session, prepared.runtime.options);
    return r!;
  } finally {
    await session.close();
    await prepared.close();
  }
}

describe.concurrent('create with free text (XFER-03)', { timeout: 180_000 }, () => {
  test('the clean mock (sandbox) and the lenient mock (UAT) pass', async () => {
    const [clean, lenient] = await Promise.all([run('sandbox', {}), run('uat', { lenient: true })]);
    expect([clean.verdict, clean.reason]).toEqual(['pass', undefined]);
    expect([lenient.verdict, lenient.reason]).toEqual(['pass', undefined]);
    expect(clean.requirements).toEqual(['XFER-03']);
  });

  test('remarks-create-500: validate accepts the longest remarks, the create crashes: XFER-03 fails naming it', async () => {
    for (const env of ['sandbox', 'uat'] as const) {
      const r = await run(env, { faults: ['remarks-create-500'] });
      expect(r.verdict, env).toBe('fail');
      expect(r.reason).toContain('remarks at its longest allowed length (140 characters): HTTP 500, a crash');
      expect(r.reason).not.toContain('remarks non-ASCII');
    }
  });

  test('remarks-short-limit: refused naming remarks is inconclusive, naming contract.freeText', async () => {
    const r = await run('sandbox', { faults: ['remarks-short-limit'] });
    expect(r.verdict).toBe('inconclusive');
    expect(r.reason).toContain('remarks at its longest allowed length (140 characters): refused with HTTP 422');
    expect(r.reason).toContain('contract.freeText');
  });

  test('two free-text members: the control and each class for each member (5 creates)', async () => {
    const r = await run('sandbox', {}, { freeText: { members: ['remarks', 'purpose_code'], maxLength: 140 } });
    expect(r.verdict).toBe('pass');
    expect(r.evidence.exchanges.filter((x) => x.method === 'PUT')).toHaveLength(5);
  });
});
