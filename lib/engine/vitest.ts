/**
 * Vitest glue: one Vitest test per check, named with its requirement ids so every report shows them, with the
 * check id and ids in the test's meta. Verdicts come from runCheck; "not applicable", "not run",
 * "inconclusive" and "expected failure" become runtime skips carrying their reason (never it.skip in code).
 */
import { describe, inject, test } from 'vitest';
import './runtime.ts';
import type { CheckDefinition, SuiteDefinition } from './check.ts';
import { runCheck } from './runner.ts';
import { createSession, type Session } from './session.ts';
import { selects } from './select.ts';

let session: Promise<Session> | undefined;
function currentSession(): Promise<Session> {
  session ??= createSession(inject('harness'));
  return session;
}

export function testName(def: CheckDefinition): string {
  return `${def.requirements.join(' ')} ${def.title}`;
}

function register(def: CheckDefinition): void {
  test(testName(def), { meta: { checkId: def.id, requirements: [...def.requirements] } }, async (t) => {
    const s = await currentSession();
    const result = await runCheck(def, s, inject('harness').options);
    t.task.meta.result = result;
    switch (result.verdict) {
      case 'pass':
        return;
      case 'warn':
        t.annotate(`SHOULD not met: ${result.reason ?? ''}`, 'warning');
        return;
      case 'not-applicable':
      case 'not-run':
      case 'inconclusive':
      case 'expected-fail':
        t.skip(`${result.verdict}: ${result.reason ?? ''}`);
        return;
      case 'fail':
      case 'error':
      case 'unexpected-pass': {
        const lines = [`${result.verdict}: ${result.reason ?? ''}`];
        if (result.expected !== undefined) lines.push(`expected: ${result.expected}`);
        if (result.observed !== undefined) lines.push(`observed: ${result.observed}`);
        throw new Error(lines.join('\n'));
      }
    }
  });
}

export function registerSuite(suite: SuiteDefinition): void {
  const selection = inject('harness').selection;
  const chosen = suite.checks.filter((c) => selects(selection, c));
  if (chosen.length === 0) return;
  describe(suite.name, () => {
    const shared = chosen.filter((c) => !c.exclusive);
    const exclusive = chosen.filter((c) => c.exclusive);
    if (shared.length > 0) describe.concurrent('independent', () => shared.forEach(register));
    if (exclusive.length > 0) describe.sequential('exclusive (clock, quota)', () => exclusive.forEach(register));
  });
}
