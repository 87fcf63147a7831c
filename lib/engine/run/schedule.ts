/**
 * One profile's checks as certify runs them on a session: its prerequisites established once (independent ones
 * side by side), the checks started once the API answers (those that need a token wait for its prerequisite).
 */
import { establishPrerequisites, type Established } from '../session/prerequisites.ts';
import { runChecks } from './runner.ts';
import type { CheckDefinition } from '../check.ts';
import type { CheckResult } from '../results.ts';
import type { Session } from '../session/session.ts';
import type { RunOptions } from '../types.ts';

export async function runSessionChecks(
  session: Session,
  checks: readonly CheckDefinition[],
  options: RunOptions,
  onResult?: (r: CheckResult) => void,
): Promise<{ results: CheckResult[]; established: Established }> {
  const establishing = establishPrerequisites(session, session.prerequisites, options.deadlineAt);
  const board = session.prerequisites;
  await Promise.race([establishing, Promise.all([board.settled('tls-handshake'), board.settled('reach-api')])]);
  const results = await runChecks(checks, session, options, onResult);
  return { results, established: await establishing };
}
