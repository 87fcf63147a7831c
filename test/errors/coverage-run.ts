/**
 * A property's coverage list sent to an embedded mock (with faults): the positive control, then every coverage
 * input through the property's own trial, each on a scratch context as the engine sends them. What a property's
 * coverage phase decides, whatever the seed: the tests expect a fault's class broken, a clean mock's none.
 */
import type { CheckContext } from '../../lib/engine/session/context.ts';
import type { PropertySpec, Trial } from '../../lib/engine/property/property.ts';
import { prepare } from '../../lib/engine/run/prepare.ts';
import { createSession } from '../../lib/engine/session/session.ts';
import { EmbeddedProfile, type Environment } from '../../lib/profile/schema.ts';
import { allChecks } from '../../suites/index.ts';

export interface CoverageRun<T> {
  inputs: readonly T[];
  trials: Trial[];
}

export async function runCoverage<T>(
  env: Environment,
  embedded: { faults?: string[]; lenient?: boolean },
  checkId: string,
  specOf: (ctx: CheckContext) => Promise<PropertySpec<T>>,
): Promise<CoverageRun<T>> {
  const profile = EmbeddedProfile.parse({ name: `coverage-${env}`, environment: env, embedded });
  const prepared = await prepare(profile, { checkTimeoutMs: 120_000 });
  const session = await createSession(prepared.runtime);
  try {
    const def = allChecks.find((c) => c.id === checkId);
    if (!def) throw new Error(`no check ${checkId}`);
    const ctx = session.context(def, { exchanges: [], notes: [], tls: [] });
    const spec = await specOf(ctx);
    const inputs = spec.coverage?.() ?? [];
    await spec.control(ctx);
    const trials: Trial[] = [];
    // eight at a time, as a batch of the search sends them (bounded: the list is finite)
    for (let i = 0; i < inputs.length; i += 8)
      trials.push(...(await Promise.all(inputs.slice(i, i + 8).map((x) => spec.trial(ctx.scratch().ctx, x)))));
    ctx.dispose();
    return { inputs, trials };
  } finally {
    await session.close();
    await prepared.close();
  }
}
