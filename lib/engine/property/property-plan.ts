/**
 * A property search's budget and what it must have judged to verify its property (docs/properties.md "Budget"):
 * the coverage phase (PropertySpec.coverage, every class once) and the random inputs the quota plan allows, and the
 * summary that says how many of each were judged. Apart from the search (property-search.ts), so that a check's
 * context reads it without loading fast-check.
 */
import type { FullProfile } from '../../profile/schema.ts';
import type { RunOptions } from '../types.ts';
import type { SearchOutcome } from './property-search.ts';

/** random inputs per property with a test clock at least (a fresh window costs one move) */
export const CLOCK_RANDOM_RUNS = 50;

/** inputs per property: the profile's run.properties.runs, else 200 on the embedded mock, 20 on a real target */
export function plannedRuns(profile: Pick<FullProfile, 'run'>, options: Pick<RunOptions, 'embedded'>): number {
  return profile.run.properties?.runs ?? (options.embedded ? 200 : 20);
}

/**
 * random inputs the search plans: the profile's run.properties.runs when it gives one; else with a test clock
 * (windows cost a move) plannedRuns and CLOCK_RANDOM_RUNS at least; without one plannedRuns, of which the search
 * sends what the quota window leaves, saying so (stopped)
 */
export function randomRuns(
  profile: Pick<FullProfile, 'run'>,
  options: Pick<RunOptions, 'embedded'>,
  clock: boolean,
): number {
  const planned = plannedRuns(profile, options);
  if (profile.run.properties?.runs !== undefined || !clock) return planned;
  return Math.max(planned, CLOCK_RANDOM_RUNS);
}

/** what a search judged, as evidenceShortfall reads it */
export interface Judged {
  held: number;
  unclear: number;
  /** distinct random inputs among those planned */
  distinct?: number;
  /** random inputs judged (held or broken); `held` when not given */
  randomJudged?: number;
  coverage?: { classes: number; covered: number };
}

/**
 * why a search that found no counterexample did not verify its property, undefined when it did. It did when: an
 * input was judged; more inputs were judged than not (a property held by the few inputs that got through a gate's
 * 429s is not verified); every coverage class was judged; and at least half of the planned random inputs (of the
 * distinct ones, when the input space is smaller) were judged (a search the quota stopped after 1 of 20 verified
 * nothing).
 */
export function evidenceShortfall(o: Judged, what: string, planned?: number): string | undefined {
  if (o.held === 0) return `no ${what} could be judged`;
  if (o.unclear >= o.held) return `only ${o.held} of ${o.held + o.unclear} ${what} sent could be judged`;
  if (o.coverage && o.coverage.covered < o.coverage.classes)
    return `only ${o.coverage.covered} of ${o.coverage.classes} coverage classes of ${what} could be judged (every one must be)`;
  if (planned !== undefined) {
    const random = Math.min(planned, o.distinct ?? planned);
    const judged = o.randomJudged ?? o.held;
    if (judged * 2 < random)
      return `only ${judged} of ${random} planned random ${what} could be judged (at least half must be)`;
  }
  return undefined;
}

/** the search's counts in words: classes covered, random inputs judged, why it stopped, its waits and moves */
export function searchWords<T>(o: SearchOutcome<T>, seed: number, planned: number): string[] {
  const total = (o.distinct ?? planned) + (o.coverage?.classes ?? 0);
  return [
    `seed ${seed}`,
    ...(o.coverage ? [`${o.coverage.covered} of ${o.coverage.classes} coverage classes covered`] : []),
    ...(o.coverage ? [`${o.randomJudged} random judged`] : []),
    ...(o.distinct !== undefined && o.distinct < planned ? [`${o.distinct} distinct of ${planned} generated`] : []),
    ...(o.runs < total && !o.smallest ? [`${o.runs} sent of ${total}${o.stopped ? `: ${o.stopped}` : ''}`] : []),
    ...(o.unclear ? [`${o.unclear} no evidence: ${o.unclearSamples.join('; ')}`] : []),
    ...(o.quotaAnswers
      ? [
          `the contract's quota answer came ${o.quotaAnswers} time${o.quotaAnswers > 1 ? 's' : ''} (the target's window was spent)`,
        ]
      : []),
    ...(o.windowMoves ? [`${o.windowMoves} fresh quota window${o.windowMoves > 1 ? 's' : ''} (test clock)`] : []),
    ...(o.gate
      ? [
          `a gate refused calls with a short Retry-After: waited ${o.gate.pauses} times, ${o.gate.seconds} s in all, batches cut to ${o.gate.narrowest} input${o.gate.narrowest === 1 ? '' : 's'}`,
        ]
      : []),
  ];
}
