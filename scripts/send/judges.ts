/**
 * The suites' judges `npm run send` reads an answer with (lib/workbench/send-judge.ts `AnswerJudges`), wired here by
 * the command so that lib/ never imports suites/: the ERR-01 shape of a 422 and the ERR-05 leak detector
 * (suites/errors/documents-judge.ts), the masking rule and the identifiers an answer carries (suites/masking/rule.ts).
 */
import type { AnswerJudges } from '../../lib/workbench/send-judge.ts';
import { err01Defect, leaksOf } from '../../suites/errors/documents-judge.ts';
import { identifierMembers, ruleViolation } from '../../suites/masking/rule.ts';

export const sendJudges: AnswerJudges = {
  err01Defect,
  leaksOf,
  ruleViolation,
  identifierMembers: (document, path) => identifierMembers(document, path),
};
