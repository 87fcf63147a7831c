/**
 * Round trips one after another in a list of timed exchanges: the longest chain of them that do not overlap (calls
 * in flight together count once). The bench's critical path counts them (scripts/bench/latency.ts), and a property
 * check keeps its search's chain (evidence.property.chain), its passing inputs' exchanges being counted, not kept.
 */

/** an exchange as the chain needs it: when it started (ISO time) and how long it took */
export interface Span {
  startedAt: string;
  durationMs: number;
}

/** two exchanges 2 ms apart or less count as overlapping (timestamps are whole milliseconds) */
const SLACK_MS = 2;

/** the longest chain of spans one after another (earliest end first: the most that do not overlap), in order */
export function chainOf(spans: readonly Span[]): Span[] {
  const timed = spans
    .map((s) => ({ s, start: Date.parse(s.startedAt), end: Date.parse(s.startedAt) + s.durationMs }))
    .sort((x, y) => x.end - y.end);
  const chain: Span[] = [];
  let last = -Infinity;
  for (const t of timed) {
    if (t.start >= last - SLACK_MS) {
      chain.push({ startedAt: t.s.startedAt, durationMs: t.s.durationMs });
      last = t.end;
    }
  }
  return chain;
}
