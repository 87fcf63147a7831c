/**
 * The run's sequential phases, seen from the bench: its start-up (the process spawned, through npm, until the run's
 * first recorded call) and its end (the last profile's checks done until the process exited: the reports, the mocks
 * stopped, the exit). Nothing else runs then, so both are on the critical path. Read from results.json's timestamps
 * (the wall clock the bench reads too); pure, so test/bench/phases.test.ts checks the arithmetic.
 */

/** seconds from the spawn to the first call, and from the last check's end to the exit */
export interface Phases {
  startupSeconds: number;
  endSeconds: number;
}

interface ResultsTimes {
  profiles?: {
    startedAt?: string;
    durationMs?: number;
    results?: { evidence?: { exchanges?: { startedAt?: string }[] } }[];
  }[];
}

/** the phases of a run spawned at `spawnedAtMs` and exited at `exitedAtMs` (epoch ms); undefined without a call */
export function phasesOf(resultsJson: string, spawnedAtMs: number, exitedAtMs: number): Phases | undefined {
  let r: ResultsTimes;
  try {
    r = JSON.parse(resultsJson) as ResultsTimes;
  } catch {
    return undefined;
  }
  let first = Infinity;
  let last = -Infinity;
  for (const p of r.profiles ?? []) {
    const start = Date.parse(p.startedAt ?? '');
    if (Number.isFinite(start) && typeof p.durationMs === 'number') last = Math.max(last, start + p.durationMs);
    for (const c of p.results ?? [])
      for (const x of c.evidence?.exchanges ?? []) {
        const at = Date.parse(x.startedAt ?? '');
        if (Number.isFinite(at)) first = Math.min(first, at);
      }
  }
  if (!Number.isFinite(first) || !Number.isFinite(last)) return undefined;
  return { startupSeconds: (first - spawnedAtMs) / 1000, endSeconds: (exitedAtMs - last) / 1000 };
}

/** "start-up 0.52 s, end 0.31 s" (medians when several) */
export function phasesText(p: Phases): string {
  return `start-up (spawn to the first call) ${p.startupSeconds.toFixed(2)} s, end (the last check's end to the exit) ${p.endSeconds.toFixed(2)} s`;
}
