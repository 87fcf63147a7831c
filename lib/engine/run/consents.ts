/**
 * How many consents a run will ask a person (or a login script) for, said before the run starts: the selected
 * checks run once against the embedded mock of the same environment (auto consent, loopback), counting the
 * /authorize requests a person would have had to answer. Checks that build /authorize by hand are left out: with
 * manual or script consent they are not run.
 */
import type { Environment } from '../../profile/schema.ts';
import { EmbeddedProfile } from '../../profile/schema.ts';
import type { MockThread } from '../../mock/server/thread.ts';
import type { CheckDefinition } from '../check.ts';
import { prepare } from './prepare.ts';
import { runChecks } from './runner.ts';
import { createSession } from '../session/session.ts';
import type { RunOptions } from '../types.ts';

export async function countConsents(
  environment: Environment,
  checks: readonly CheckDefinition[],
  options: Partial<RunOptions>,
  how: { mockThread?: MockThread } = {},
): Promise<number> {
  const profile = EmbeddedProfile.parse({ name: `consent-count-${environment}`, environment, embedded: {} });
  const prepared = await prepare(profile, { ...options, destructive: false }, how);
  try {
    const session = await createSession(prepared.runtime);
    try {
      await runChecks(checks, session, prepared.runtime.options);
      return session.consentsAsked();
    } finally {
      await session.close();
    }
  } finally {
    await prepared.close();
  }
}
