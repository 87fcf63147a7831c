/**
 * The near-miss masks property counts a refusal only when it is the identifier's (docs/properties.md): the profile's
 * status with the API's error answer naming account_id / emirates_id or nothing. A 403 with no body (a gateway's)
 * and a sealed answer that did not open are no evidence; and its positive control is proved for every customer and
 * kind of id it draws inputs for, not one per kind. Each case is the mock's answers altered as the check sees them;
 * on the code before, each passed.
 */
import { describe, expect, it } from 'vitest';
import type { ApiCall, ApiResponse } from '../../lib/engine/session/context.ts';
import { prepare } from '../../lib/engine/run/prepare.ts';
import type { CheckResult } from '../../lib/engine/results.ts';
import { runChecks, type ContextFactory } from '../../lib/engine/run/runner.ts';
import { createSession } from '../../lib/engine/session/session.ts';
import { mask } from '../../lib/mask/index.ts';
import { EmbeddedProfile, type Customer, type Environment } from '../../lib/profile/schema.ts';
import { allChecks } from '../../suites/index.ts';

const CHECK = 'masking.near-miss-masks-refused-property';

type Alter = (call: ApiCall, res: ApiResponse, customers: readonly Customer[]) => ApiResponse;

/** the property against the mock, its answers altered by `alter` as the check sees them */
async function run(env: Environment, alter: Alter): Promise<CheckResult> {
  const profile = EmbeddedProfile.parse({
    name: `attribution-${env}`,
    environment: env,
    embedded: {},
    run: { dataSeed: 11, properties: { runs: 20, shrinkCalls: 5 } },
  });
  const prepared = await prepare(profile, { checkTimeoutMs: 120_000 });
  const session = await createSession(prepared.runtime);
  const customers = session.profile.customers;
  const factory: ContextFactory = {
    profile: session.profile,
    redact: (t) => session.redact(t),
    context: (def, evidence, stop) => {
      const ctx = session.context(def, evidence, stop);
      const wrap = (c: typeof ctx): typeof ctx => ({
        ...c,
        api: async (call) => alter(call, await c.api(call), customers),
        scratch: () => {
          const s = c.scratch();
          return { ...s, ctx: wrap(s.ctx) };
        },
      });
      return wrap(ctx);
    },
  };
  try {
    const defs = allChecks.filter((c) => c.id === CHECK);
    return (await runChecks(defs, factory, prepared.runtime.options))[0]!;
  } finally {
    await session.close();
    await prepared.close();
  }
}

const isInput = (call: ApiCall): boolean => call.label === 'property input: near-miss mask';

describe('the near-miss masks property attributes only what it can', { timeout: 120_000 }, () => {
  it('a 403 with no body to every near miss (a gateway): no evidence, inconclusive', async () => {
    expect.hasAssertions();
    const r = await run('sandbox', (call, res) =>
      isInput(call) ? { ...res, status: 403, body: undefined, raw: { ...res.raw, status: 403, text: '' } } : res,
    );
    expect(r.verdict).toBe('inconclusive');
    expect(r.reason).toMatch(/no near-miss masks could be judged/);
    expect(r.reason).toMatch(/HTTP 403 without the API's error answer/);
  });

  it('UAT: a refusal status whose sealed answer did not open: no evidence, inconclusive', async () => {
    expect.hasAssertions();
    const r = await run('uat', (call, res) =>
      isInput(call) ? { ...res, opened: { ok: false, step: 'decrypt', code: 'DECRYPT_FAILED', reason: 'test' } } : res,
    );
    expect(r.verdict).toBe('inconclusive');
    expect(r.reason).toMatch(/the sealed answer did not open/);
  });

  it("the control of every customer it draws for: customer 1's exact mask refused makes it inconclusive", async () => {
    expect.hasAssertions();
    const r = await run('sandbox', (call, res, customers) => {
      const named = (call.body as { account_id?: unknown } | undefined)?.account_id;
      return call.label?.startsWith('positive control') && named === mask(customers[1]!.accountId)
        ? { ...res, status: 403 }
        : res;
    });
    expect(r.verdict).toBe('inconclusive');
    expect(r.reason).toMatch(
      /positive control: the exact mask of the account id of customer "bob" was answered HTTP 403/,
    );
  });

  it('the unaltered mock: pass, every control proved', async () => {
    expect.hasAssertions();
    const r = await run('sandbox', (_call, res) => res);
    expect(r.verdict).toBe('pass');
    expect(r.evidence.notes.filter((n) => n.startsWith('positive control'))).toHaveLength(4);
  });
});
