/**
 * Global setup of the `conformance` Vitest project. `certify` prepares the target itself and passes it in
 * through `provide`; when the project is run directly (`npx vitest run --project conformance`), this prepares
 * the profile named by HARNESS_PROFILE (default: the embedded UAT mock). Its teardown reads the checks' results
 * (each test's meta) and gives the run certify's verdict and exit code (lib/engine/vitest/vitest-verdict.ts): 1 FAIL,
 * 3 NOTHING RAN, 4 UNREACHABLE, 5 INCOMPLETE, saying which; certify's NOTHING RAN is never a green.
 */
import type { TestProject } from 'vitest/node';
import '../run/runtime.ts';
import { prepareFile } from '../run/prepare.ts';
import { entryVerdict, type EntryTest } from './vitest-verdict.ts';

/** this project's tests as the verdict reads them, and the errors of its files that did not load */
function testsOf(project: TestProject): { tests: EntryTest[]; moduleErrors: string[] } {
  const modules = project.vitest.state.getTestModules().filter((m) => m.project.name === project.name);
  const tests = modules.flatMap((m) =>
    [...m.children.allTests()].map((t): EntryTest => {
      const meta = t.meta();
      return {
        name: t.fullName,
        failed: t.result().state === 'failed',
        ...(meta.result ? { result: meta.result } : {}),
        ...(meta.prerequisites ? { prerequisites: meta.prerequisites } : {}),
      };
    }),
  );
  const moduleErrors = modules.flatMap((m) => m.errors().map((e) => `${m.moduleId}: ${e.message}`));
  return { tests, moduleErrors };
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let close: (() => Promise<void>) | undefined;
  if (!project.getProvidedContext().harness) {
    const path = process.env.HARNESS_PROFILE ?? 'profiles/mock-uat.json';
    const prepared = await prepareFile(path, {
      long: process.env.HARNESS_LONG === '1',
      destructive: process.env.HARNESS_DESTRUCTIVE === '1',
    });
    project.provide('harness', prepared.runtime);
    close = () => prepared.close();
  }
  return async () => {
    await close?.();
    const { tests, moduleErrors } = testsOf(project);
    const { code, reason } = entryVerdict(tests, moduleErrors);
    if (reason !== undefined) console.error(`\n${reason}\n`);
    if (code === 0) return;
    // Vitest sets its own 1 for any failed test after this teardown, and only logs an error thrown here: certify's
    // code is set once the process exits (unless a signal's code is there: an interrupted run says so)
    process.exitCode = code;
    process.once('exit', () => {
      if (process.exitCode === undefined || process.exitCode === 0 || process.exitCode === 1) process.exitCode = code;
    });
  };
}
