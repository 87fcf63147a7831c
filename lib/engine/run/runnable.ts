/**
 * Whether a check can run against this profile, decided before it sends anything: where its ids apply, what it
 * needs (a test clock or the time to wait, --destructive, a canary the target can reach). runner.ts gives the
 * verdict it names (not-applicable, not-run); --list says it too (list.ts).
 */
import { requirement } from '../../catalogue/index.ts';
import { waitOf, type CheckDefinition } from '../check.ts';
import type { FullProfile } from '../../profile/schema.ts';
import type { RunOptions } from '../types.ts';

const ENV_LABEL = { sandbox: 'sandbox', uat: 'UAT and production', client: 'partner-client certification' } as const;

/** Why a check cannot run here, decided before it sends anything; undefined when it runs. */
export function whyNotRunnable(
  def: CheckDefinition,
  profile: FullProfile,
  opts: RunOptions,
): { verdict: 'not-applicable' | 'not-run'; reason: string } | undefined {
  const env = profile.environment;
  const applies = def.requirements.some((id) => requirement(id).applies.includes(env));
  if (!applies) {
    const where = [...new Set(def.requirements.flatMap((id) => requirement(id).applies))]
      .map((a) => ENV_LABEL[a])
      .join(', ');
    return { verdict: 'not-applicable', reason: `applies to ${where} only; this profile is ${env}` };
  }
  const na = def.notApplicable?.(profile);
  if (na) return { verdict: 'not-applicable', reason: na };
  for (const need of def.needs ?? []) {
    if (need === 'clock' && !profile.target.clock) {
      const wait = waitOf(def, profile);
      if (wait === undefined) {
        return {
          verdict: 'not-run',
          reason: 'needs a test clock (profile target.clock): the rule spans longer than any run may wait',
        };
      }
      if (!opts.long) {
        return {
          verdict: 'not-run',
          reason: `needs a test clock (profile target.clock), or --long to wait ${wait} s`,
        };
      }
      if (wait > opts.maxWaitSeconds) {
        return {
          verdict: 'not-run',
          reason: `would wait ${wait} s, more than the ${opts.maxWaitSeconds} s a --long run allows`,
        };
      }
      const left = opts.deadlineAt === undefined ? Infinity : Math.floor((opts.deadlineAt - Date.now()) / 1000);
      if (wait > left) {
        return {
          verdict: 'not-run',
          reason: `would wait ${wait} s of real time (no test clock); the run deadline (--deadline) leaves ${Math.max(0, left)} s`,
        };
      }
    }
    // a check that fits in a fresh window (fitsFreshWindow) needs none with a test clock
    const fits = def.fitsFreshWindow === true && profile.target.clock !== undefined;
    if (need === 'destructive' && !opts.embedded && !opts.destructive && !fits)
      return { verdict: 'not-run', reason: 'exhausts a quota of the target: run with --destructive to allow it' };
    if (need === 'canary' && !opts.embedded && profile.run.canaryHost === undefined) {
      return {
        verdict: 'not-run',
        reason:
          'needs a canary listener the target can reach (profile run.canaryHost, and run.canaryPort/run.canaryUrl behind NAT): a loopback canary proves nothing about a remote target',
      };
    }
  }
  return undefined;
}
