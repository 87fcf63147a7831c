/** What every judge of a partner certification shares: the judgement, its input, the evidence helpers. */
import type { PartnerSetup, ScenarioId, ScenarioRun, SeenRequest } from '../types.ts';

export type Outcome = 'pass' | 'broken' | 'inconclusive' | 'not-applicable' | 'not-run';
export interface Judgement {
  id: string;
  /** the scenario this judgement is about, when the id is judged per scenario (CLI-02's negative catalogue) */
  variant?: ScenarioId;
  outcome: Outcome;
  reason: string;
  /** the requests that are the evidence */
  evidence: { scenario: ScenarioId; request: SeenRequest }[];
}

export interface JudgeInput {
  setup: PartnerSetup;
  runs: ScenarioRun[];
  /** the bank's API private key (PEM): opens sealed requests */
  bankApiPrivateKeyPem: string;
  /** the clear identifiers of the test customers (MASK-05 looks for them) */
  clearIds: string[];
  /** TLS-07's problems (empty: the certificate passed) */
  certificateProblems: string[];
}

export type Ev = Judgement['evidence'];
export const j = (id: string, outcome: Outcome, reason: string, evidence: Ev = []): Judgement => ({
  id,
  outcome,
  reason,
  evidence: evidence.slice(0, 12),
});
export const run = (runs: ScenarioRun[], id: ScenarioId) => runs.find((r) => r.scenario === id);
export const all = (runs: ScenarioRun[]): Ev =>
  runs.flatMap((r) => r.requests.map((request) => ({ scenario: r.scenario, request })));
export const TRANSFERS = new Set(['validate', 'create', 'get']);
export const describeReq = (e: Ev[number]) => `${e.scenario} #${e.request.seq} ${e.request.method} ${e.request.route}`;

/** the task was done: a GET of the transfer answered 200 and the client exited 0 (or was started by hand) */
export function completed(r: ScenarioRun | undefined): boolean {
  const exited = r?.exitCode === 0 || (r?.byHand === true && r.exitCode === null);
  return !!r && exited && r.requests.some((q) => q.route === 'get' && q.response?.status === 200);
}
