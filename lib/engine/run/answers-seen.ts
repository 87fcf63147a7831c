/**
 * The answers a check saw, as data: the status of every answer recorded into its evidence (session/send.ts), its scratch
 * evidences' included (a property check's runs are counted, not kept: session/session.ts `scratch` shares the tally), and
 * whether a call got no answer at all. Kept beside the evidence, never in the report: the runner reads it to tell
 * whose an inconclusive verdict is (runner.ts, through a proxy that re-terminates TLS).
 */
import type { Evidence, RecordedExchange } from '../results.ts';

export interface AnswersSeen {
  /** the statuses of the answers, each once */
  readonly statuses: Set<number>;
  /** calls that got no answer (a transport error) */
  unanswered: number;
}

const seen = new WeakMap<Evidence, AnswersSeen>();

function tallyOf(evidence: Evidence): AnswersSeen {
  let t = seen.get(evidence);
  if (!t) seen.set(evidence, (t = { statuses: new Set(), unanswered: 0 }));
  return t;
}

/** notes one recorded exchange of the check whose evidence it is */
export function sawExchange(evidence: Evidence, e: RecordedExchange): void {
  const t = tallyOf(evidence);
  if (e.response) t.statuses.add(e.response.status);
  else t.unanswered++;
}

/** `scratch`'s answers count as the check's own (`evidence`) */
export function shareAnswersSeen(scratch: Evidence, evidence: Evidence): void {
  seen.set(scratch, tallyOf(evidence));
}

/** what the check whose evidence it is saw (nothing: no call answered nor failed) */
export function answersSeen(evidence: Evidence): Readonly<AnswersSeen> {
  return seen.get(evidence) ?? { statuses: new Set(), unanswered: 0 };
}

/**
 * whether a proxy that re-terminates TLS may explain a check's inconclusive verdict: not when the check saw the
 * target's quota answer (`quotaStatus`, e.g. 429: a quota is the target's, whatever client certificate it saw) and
 * no other refusal (a status of 400 or more) nor a call without an answer
 */
export function proxyMayExplain(answers: Readonly<AnswersSeen>, quotaStatus: number): boolean {
  const refusals = [...answers.statuses].filter((s) => s >= 400);
  return answers.unanswered > 0 || refusals.length === 0 || refusals.some((s) => s !== quotaStatus);
}
