/**
 * Global setup of the `conformance` Vitest project. `certify` prepares the target itself and passes it in
 * through `provide`; when the project is run directly (`npx vitest run --project conformance`), this prepares
 * the profile named by HARNESS_PROFILE (default: the embedded UAT mock). Its teardown reads the checks' results
 * (each test's meta) and, when none ran (lib/engine/vitest/vitest-verdict.ts), says so and exits 3 as certify does:
 * certify's NOTHING RAN is never a green.
 */
import type { TestProject } from 'vitest/node';
import '../run/runtime.ts';
import { prepareFile } from '../run/prepare.ts';
import { nothingRan } from './vitest-verdict.ts';

/** the results of this project's tests (undefined for a test that produced none: filtered out, or broken) */
function resultsOf(project: TestProject): ReturnType<typeof nothingRan> {
  const modules = project.vitest.state.getTestModules().filter((m) => m.project.name === project.name);
  const tests = modules.flatMap((m) => [...m.children.allTests()]);
  return nothingRan(tests.map((t) => t.meta().result));
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
    const reason = resultsOf(project);
    if (reason === undefined) return;
    // Vitest only logs an error thrown here: the exit code is set (certify's 3, unless the run already failed)
    console.error(`\n${reason}\n`);
    if (!process.exitCode) process.exitCode = 3;
  };
}
