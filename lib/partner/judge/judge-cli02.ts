/**
 * CLI-02, one judgement per variant of the client-side negative catalogue (scenarios.ts, spoil.ts): the bank
 * spoils an answer the client must act on, and the client must not act on it. Acting is: a create after a spoiled
 * validate answer; exit 0 after a spoiled create answer (the forged create taken as done); any use of the forged
 * access token of a spoiled token answer; and, whatever the answer, any fetch of a URL the forged answer named
 * (jku, x5u). Each needs its positive control: the same client acts on the genuine answer (normal scenario).
 * The variants whose answer is genuine but in a compact or flattened serialization are judged the same way under
 * JOSE-05, and those whose answer is a genuine, correctly sealed answer of another call (replayed) under CLI-09,
 * answer binding (both SHOULD: a client that acts on one is warned, not failed), one judgement each too.
 */
import { FORGED_ACCESS_TOKEN } from '../bank.ts';
import { completed, j, run, type Ev, type JudgeInput, type Judgement } from './judge-base.ts';
import { scenariosFor, type ScenarioDef } from '../scenarios.ts';
import type { ScenarioRun, SeenRequest, SpoiledAnswer } from '../types.ts';

/** the client acts on the genuine answer in the normal scenario, so that its refusals prove something */
function control(input: JudgeInput, answer: SpoiledAnswer): string | undefined {
  const normal = run(input.runs, 'normal');
  const reqs = normal?.requests ?? [];
  if (answer === 'validate' && !reqs.some((q) => q.route === 'create'))
    return 'blocked: the client created no transfer after a genuine validate answer (normal scenario), so its refusals prove nothing';
  if (answer === 'create' && !completed(normal))
    return 'blocked: the client did not complete the task after a genuine create answer (normal scenario)';
  if (answer === 'cc-token' && !reqs.some((q) => q.route === 'validate'))
    return 'blocked: the client made no transfers call after a genuine token answer (normal scenario)';
  return undefined;
}

/** what the client did with the spoiled answer that is acting on it */
function actedOn(r: ScenarioRun, answer: SpoiledAnswer, first: SeenRequest): { why: string[]; ev: SeenRequest[] } {
  const why: string[] = [];
  const ev: SeenRequest[] = [];
  const fetches = r.requests.filter((q) => q.route === 'key-fetch');
  if (fetches.length) {
    why.push(`fetched ${fetches.map((q) => q.target).join(', ')} from the URL the forged answer named`);
    ev.push(...fetches);
  }
  if (answer === 'validate') {
    const creates = r.requests.filter((q) => q.route === 'create' && q.seq > first.seq);
    if (creates.length) why.push('went on to create after the spoiled validate answer');
    else if (r.exitCode === 0) why.push('exited 0 as if the task were done');
    ev.push(...creates);
  } else if (answer === 'create') {
    if (r.exitCode === 0) why.push('exited 0: took the spoiled create answer as done');
  } else {
    const used = r.requests.filter((q) => q.headers['authorization'] === `Bearer ${FORGED_ACCESS_TOKEN}`);
    if (used.length) why.push(`used the forged access token on ${used.length} call(s)`);
    ev.push(...used);
  }
  return { why, ev };
}

function variant(input: JudgeInput, s: ScenarioDef): Judgement {
  const answer = s.spoil!.answer;
  const at = (why: string, outcome: Judgement['outcome'], ev: Ev = []): Judgement => ({
    ...j(s.spoil!.requirement, outcome, `${s.id}: ${why}`, ev),
    variant: s.id,
  });
  const r = run(input.runs, s.id);
  if (!r) return at('the scenario was not run', 'not-run');
  const spoiled = r.requests.filter((q) => q.misbehaviour === s.id);
  const first = spoiled[0];
  const blocked = control(input, answer);
  if (first) {
    const acted = actedOn(r, answer, first);
    if (acted.why.length)
      return at(
        acted.why.join('; '),
        'broken',
        [first, ...acted.ev].map((request) => ({ scenario: s.id, request })),
      );
  }
  if (blocked) return at(blocked, 'inconclusive');
  if (!first)
    return at(
      `the client made no ${answer === 'cc-token' ? 'token request' : `${answer} call`} in this scenario`,
      'inconclusive',
    );
  // a client started by hand (--listen) reports no exit code: whether it took a spoiled create answer as done shows
  // only there, so its create call alone is no evidence either way
  if (answer === 'create' && r.byHand === true)
    return at(
      'started by hand (--listen): whether the client took the spoiled create answer as done shows only in its exit ' +
        'code, which the bank does not see (certify it with --run to judge this variant)',
      'inconclusive',
      [{ scenario: s.id, request: first }],
    );
  return at(
    `refused (${answer === 'cc-token' ? 'the forged token never used' : answer === 'validate' ? 'no create' : 'not taken as done'}, exit ${r.exitCode ?? 'none'})`,
    'pass',
    [{ scenario: s.id, request: first }],
  );
}

export function cli02(input: JudgeInput): Judgement[] {
  if (input.setup.mode !== 'uat')
    return [
      j('CLI-02', 'not-applicable', 'answers are sealed in UAT only'),
      j('JOSE-05', 'not-applicable', 'answers are sealed in UAT only (no serialization to judge)'),
      j('CLI-09', 'not-applicable', 'answers are sealed in UAT only (a plain answer carries no proof of its origin)'),
    ];
  // CLI-02's rows first, then JOSE-05's, then CLI-09's
  const order = ['CLI-02', 'JOSE-05', 'CLI-09'];
  return scenariosFor(input.setup.mode, input.setup.flow)
    .filter((s) => s.spoil)
    .map((s) => variant(input, s))
    .sort((a, b) => order.indexOf(a.id) - order.indexOf(b.id));
}
