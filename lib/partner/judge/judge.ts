/**
 * Verdicts of a partner certification, from the requests the bank recorded in every scenario. Each judge
 * answers for one requirement id: `broken` (the client broke the rule: fail for a MUST, warn for a SHOULD),
 * `pass`, `inconclusive` (the evidence cannot isolate the cause: a positive control is missing) or
 * `not-applicable`. The judges, by concern: judge-sealed.ts (CLI-01, MASK-05), judge-session.ts (CLI-04, CLI-05),
 * judge-calls.ts (CLI-03, CLI-06..08, TLS-07, TLS-08), judge-cli02.ts (the client-side negative catalogue),
 * judge-tokens.ts (TOK-18).
 */
import type { JudgeInput, Judgement } from './judge-base.ts';
import { cli03, cli06, cli07, cli08, tls07, tls08 } from './judge-calls.ts';
import { cli02 } from './judge-cli02.ts';
import { cli01, mask05, openBodies } from './judge-sealed.ts';
import { cli04, cli05 } from './judge-session.ts';
import { tok18 } from './judge-tokens.ts';

export { completed, type Judgement, type JudgeInput, type Outcome } from './judge-base.ts';
export { openBodies } from './judge-sealed.ts';

export async function judge(input: JudgeInput): Promise<Judgement[]> {
  const opened = await openBodies(input);
  return [
    tls07(input),
    tls08(input),
    cli01(input, opened),
    ...cli02(input),
    cli03(input),
    cli04(input),
    cli05(input),
    cli06(input),
    cli07(input),
    cli08(input),
    mask05(input, opened),
    tok18(input),
  ];
}
