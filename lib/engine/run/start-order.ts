/**
 * The order runChecks (runner.ts) starts checks in: the shared ones first, then the exclusive ones as units, one
 * after another (a check alone, a clock group, or with a test clock the run's timeline).
 */
import type { CheckDefinition } from '../check.ts';

/**
 * The order checks start in (results keep definition order): shared ones that declare a long chain of round trips
 * first; exclusive ones that spend a quota before those that only move the clock, whose moves (up to years) idle
 * every kept refresh token, so that the quota checks renew their tokens with one refresh, not a new consent.
 */
export function startOrder(defs: readonly CheckDefinition[]): {
  shared: (readonly [CheckDefinition, number])[];
  exclusive: (readonly [CheckDefinition, number])[];
} {
  // the checks that run last (CheckDefinition.last) are in neither list
  const indexed = defs.map((d, i) => [d, i] as const).filter(([d]) => d.last !== true);
  const first = <T extends readonly [CheckDefinition, number]>(
    list: T[],
    early: (d: CheckDefinition) => boolean,
  ): T[] => [...list.filter(([d]) => early(d)), ...list.filter(([d]) => !early(d))];
  return {
    shared: first(
      indexed.filter(([d]) => !d.exclusive),
      (d) => d.startEarly === true,
    ),
    exclusive: first(
      indexed.filter(([d]) => d.exclusive),
      (d) => d.needs?.includes('destructive') === true,
    ),
  };
}

/**
 * The exclusive checks as units run one after another: a check alone, or the checks of one clock group side by side
 * (at the place of its first member), their clock moves made as one (rendezvous.ts). With a test clock they are one
 * unit, the run's timeline: one sequence of moves that every time-based check rides, quota windows side by side
 * where their operations differ. The property checks ride it too: every call they send is in a quota window of its
 * operation (property.ts), which no quota check's window of that operation shares.
 */
export function exclusiveUnits(
  exclusive: readonly (readonly [CheckDefinition, number])[],
  timeline: boolean,
): (readonly (readonly [CheckDefinition, number])[])[] {
  if (timeline) return exclusive.length > 0 ? [exclusive] : [];
  const units: (readonly [CheckDefinition, number])[][] = [];
  const groups = new Map<string, (readonly [CheckDefinition, number])[]>();
  for (const e of exclusive) {
    const g = e[0].clockGroup;
    if (g === undefined) units.push([e]);
    else if (groups.has(g)) groups.get(g)!.push(e);
    else {
      const unit = [e];
      groups.set(g, unit);
      units.push(unit);
    }
  }
  return units;
}
