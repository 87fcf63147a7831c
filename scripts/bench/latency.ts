/**
 * The figures of `npm run bench -- --latency <ms>` (a distant target, docs/performance.md), from the runs' times and
 * results.json: certify at 0 ms, at <ms> with the test clock near (only the API answers late) and far (the clock
 * control answers as late: a real target's clock is where the target is), each against the target t(ms) <= 1.5 x t(0) +
 * 2 s, and the critical path of each run in round trips (how many of them are clock moves: each costs one more round
 * trip when the clock is far; a property check's search counted by its round trips one after another,
 * evidence.property.chain, its passing inputs' exchanges not being kept). Pure functions: tested in
 * test/engine/bench-latency.test.ts.
 */
import type { CheckDefinition } from '../../lib/engine/check.ts';
import { chainOf, type Span } from '../../lib/engine/property/depth.ts';
import type { CheckResult, RunResults } from '../../lib/engine/results.ts';

type ProfileRun = RunResults['profiles'][number];

/** round trips one after another in a list of exchanges: the most that do not overlap (calls in flight together
 * count once) */
export function depth(exchanges: readonly Span[]): number {
  return chainOf(exchanges).length;
}

/**
 * a check's round trips as timed spans: its kept exchanges, and a property check's search chain (its passing inputs'
 * exchanges are counted, not kept: evidence.property.chain, results 1.2.0)
 */
export function spansOf(r: Pick<CheckResult, 'evidence'>): Span[] {
  return [...r.evidence.exchanges, ...(r.evidence.property?.chain ?? [])];
}

export interface CriticalPath {
  /** round trips: the prerequisites stage by stage, the deepest shared check, the exclusive units one after another */
  critical: number;
  /** the same with the shared checks taking at least their total ÷ the profile's concurrency */
  bound: number;
  /** test clock moves of the run: made one at a time (leases), all on the path */
  clockMoves: number;
  /**
   * with `rttMs`: round trips of the critical path that waited for a connect first (an exchange of 1.5 round trips
   * or more: a target that closes after every answer, 100 ms away, makes a call on a new connection last two)
   */
  connects?: number;
}

/**
 * Round trips on the critical path of a profile's run, from its results: the prerequisites stage by stage, the
 * deepest shared check (they run side by side), and the exclusive units one after another (a check alone, or a
 * clock group whose checks run side by side: its deepest), each check counted by its round trips one after
 * another; with `timeline` (a target with a test clock: runner.ts runs every exclusive check side by side on one
 * sequence of moves) the exclusive checks' exchanges together, one after another. With the profile's
 * run.concurrency the shared checks cannot take fewer than their total ÷ concurrency.
 */
export function criticalPath(
  run: ProfileRun,
  defs: ReadonlyMap<string, Pick<CheckDefinition, 'exclusive' | 'clockGroup'>>,
  concurrency: number,
  opts: { timeline?: boolean; rttMs?: number } = {},
): CriticalPath {
  // the chains the path is made of, and of each, its round trips that waited for a connect (rttMs)
  const rtt = opts.rttMs;
  const waited = (spans: readonly Span[]): number =>
    rtt ? chainOf(spans).filter((s) => s.durationMs >= 1.5 * rtt).length : 0;
  const pre = (id: string): Span[] => run.prerequisites?.find((p) => p.id === id)?.evidence.exchanges ?? [];
  const n = (id: string): number => depth(pre(id));
  const token = n('client-credentials-token') >= n('code-grant') ? 'client-credentials-token' : 'code-grant';
  const prereq = n('reach-api') + n(token);
  const sharedSpans = run.results.filter((r) => !defs.get(r.checkId)?.exclusive).map(spansOf);
  const shared = sharedSpans.map(depth);
  const units = new Map<string, number>();
  const unitSpans = new Map<string, Span[]>();
  const timeline: Span[] = [];
  let clockMoves = 0;
  for (const r of run.results) {
    clockMoves += r.evidence.exchanges.filter((x) => x.label?.startsWith('test clock +')).length;
    const def = defs.get(r.checkId);
    if (!def?.exclusive) continue;
    if (opts.timeline) timeline.push(...spansOf(r));
    const unit = def.clockGroup ? `group ${def.clockGroup}` : r.checkId;
    const d = depth(spansOf(r));
    if (d >= (units.get(unit) ?? 0)) unitSpans.set(unit, spansOf(r));
    units.set(unit, Math.max(units.get(unit) ?? 0, d));
  }
  // on the run's timeline the exclusive checks run side by side: their exchanges one after another, together
  const excl = opts.timeline ? depth(timeline) : [...units.values()].reduce((a, b) => a + b, 0);
  const sum = shared.reduce((a, b) => a + b, 0);
  const longest = Math.max(0, ...shared);
  const path: CriticalPath = {
    critical: prereq + longest + excl,
    bound: prereq + Math.max(longest, Math.ceil(sum / Math.max(1, concurrency))) + excl,
    clockMoves,
  };
  if (!rtt) return path;
  const deepest = sharedSpans[shared.indexOf(longest)] ?? [];
  // the exclusive part as counted above: the timeline's one chain, or each unit's deepest check
  const exclusive = opts.timeline
    ? waited(timeline)
    : [...unitSpans.values()].reduce((a, spans) => a + waited(spans), 0);
  path.connects = waited(pre('reach-api')) + waited(pre(token)) + waited(deepest) + exclusive;
  return path;
}

export const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
export function stats(xs: readonly number[]): string {
  const s = [...xs].sort((a, b) => a - b);
  return `min ${s[0]!.toFixed(2)} s, median ${median(xs).toFixed(2)} s, max ${s[s.length - 1]!.toFixed(2)} s`;
}

/** the target's shape in every run of the latency bench: `connectionClose`, it closes after every answer */
export interface LatencyShape {
  connectionClose?: boolean;
}

/**
 * an embedded mock profile (`base`: profiles/mock-<mode>.json) whose mock answers `latencyMs` late, its test clock
 * `clockMs` late, in the bench's shape
 */
export function latencyProfile(
  base: Record<string, unknown>,
  latencyMs: number,
  clockMs: number,
  shape: LatencyShape = {},
): Record<string, unknown> {
  const embedded = {
    ...(base.embedded as object),
    latencyMs,
    ...(clockMs ? { clockLatencyMs: clockMs } : {}),
    // a new connection to a distant target costs its round trip before the first answer (the mock's
    // connectRoundTrip): with a target that closes after every answer, every call would pay it
    ...(shape.connectionClose ? { connectionClose: true, ...(latencyMs ? { connectRoundTrip: true } : {}) } : {}),
  };
  return { ...base, embedded };
}

/** one configuration of the latency bench: its wall times and the results.json of its last run */
export interface LatencyRun {
  key: 'zero' | 'near' | 'far';
  /** API latency and test clock latency, ms */
  api: number;
  clock: number;
  times: number[];
  results: RunResults;
}

const LABEL = {
  zero: () => '0 ms',
  near: (ms: number) => `${ms} ms, test clock near (0 ms)`,
  far: (ms: number) => `${ms} ms, test clock far (${ms} ms)`,
} as const;

/** the report: both figures against the target, then each run's critical path in round trips */
export function latencyLines(
  ms: number,
  runs: readonly LatencyRun[],
  defs: ReadonlyMap<string, Pick<CheckDefinition, 'exclusive' | 'clockGroup'>>,
  concurrencyOf: (profile: string) => number,
  shape: LatencyShape = {},
): string[] {
  const zero = runs.find((r) => r.key === 'zero');
  if (!zero) throw new Error('the latency bench needs its 0 ms run');
  const t0 = median(zero.times);
  const target = 1.5 * t0 + 2;
  const lines = shape.connectionClose
    ? [
        'every run: the mocks (API and test clock) close the connection after every answer (Connection: close); away, a new connection costs its round trip',
      ]
    : [];
  lines.push(`certify at ${LABEL.zero()}: ${stats(zero.times)}`);
  for (const r of runs.filter((x) => x.key !== 'zero')) {
    const t = median(r.times);
    const verdict = t <= target ? 'met' : `NOT met (over by ${(t - target).toFixed(2)} s)`;
    lines.push(
      `certify at ${LABEL[r.key](ms)}: ${stats(r.times)}; target ≤ 1.5 × ${t0.toFixed(2)} + 2 = ${target.toFixed(2)} s: ${verdict}`,
    );
  }
  for (const r of runs) {
    // the bench's mocks have a test clock: the exclusive checks ride the run's timeline
    const paths = r.results.profiles.map((p) => ({
      p,
      cp: criticalPath(p, defs, concurrencyOf(p.profile), {
        timeline: true,
        ...(shape.connectionClose && r.api > 0 ? { rttMs: r.api } : {}),
      }),
    }));
    const longest = Math.max(0, ...paths.map((x) => x.cp.critical));
    const floor = r.api > 0 ? `, at least ${((longest * r.api) / 1000).toFixed(1)} s at ${r.api} ms a round trip` : '';
    lines.push(`critical path at ${LABEL[r.key](ms)}: ${longest} round trips${floor}`);
    for (const { p, cp } of paths) {
      const exchanges = p.results.reduce((a, x) => a + x.evidence.exchanges.length, 0);
      const ratio =
        r.api > 0 ? `, run time ÷ (critical path × RTT) = ${(p.durationMs / (cp.critical * r.api)).toFixed(2)}` : '';
      // a target that closes after its answers: how many it closed, and the most calls in flight to it at once
      const windows = Object.values(p.traffic?.concurrency ?? {});
      const closed = windows.reduce((a, w) => a + (w.closedByTarget ?? 0), 0);
      const width = closed
        ? `; ${closed} answers closed by the target, ${Math.max(...windows.map((w) => w.largest))} in flight at most`
        : '';
      // connections the calls asked for, and of them those opened ahead (lib/http/connections/spares.ts)
      const asked = windows.reduce((a, w) => a + (w.connects ?? 0), 0);
      const ahead = windows.reduce((a, w) => a + (w.connectsAhead ?? 0), 0);
      const opened = shape.connectionClose && asked ? `; ${asked} connections asked for, ${ahead} opened ahead` : '';
      const waitedFor = cp.connects !== undefined ? `, ${cp.connects} of them waiting for a connect first` : '';
      lines.push(
        `  ${p.profile}: ${(p.durationMs / 1000).toFixed(2)} s, ${exchanges} exchanges, critical path ${cp.critical} round trips (${cp.bound} with its concurrency), ${cp.clockMoves} of them clock moves${waitedFor}${ratio}${width}${opened}`,
      );
    }
  }
  return lines;
}
