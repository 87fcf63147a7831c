/** a target clock for tests of clock groups and the run's timeline: it records its moves; a move takes `delayMs` */
import type { TargetClock } from '../../lib/engine/session/context.ts';

export function fakeClock(delayMs = 1, log?: string[]): TargetClock & { moves: number[] } {
  const moves: number[] = [];
  const clock = {
    moves,
    available: true,
    advance: async (seconds: number) => {
      await new Promise((r) => setTimeout(r, delayMs));
      moves.push(seconds);
      log?.push(`move ${seconds}`);
    },
    advanceTogether: (seconds: number) => clock.advance(seconds).then(() => seconds),
    waitFor: (seconds: number) => clock.advance(seconds).then(() => seconds),
    stopwatch: () => () => 0,
    ensurePassed: (seconds: number) => clock.advance(seconds),
    hold: <T>(_why: string, f: () => Promise<T>) => f(),
    holding: () => false,
    window: <T>(_use: unknown, _why: string, f: () => Promise<T>) => f(),
  };
  return clock;
}
