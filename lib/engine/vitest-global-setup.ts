/**
 * Global setup of the `conformance` Vitest project. `certify` prepares the target itself and passes it in
 * through `provide`; when the project is run directly (`npx vitest run --project conformance`), this prepares
 * the profile named by HARNESS_PROFILE (default: the embedded UAT mock).
 */
import type { TestProject } from 'vitest/node';
import './runtime.ts';
import { prepareFile } from './prepare.ts';

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  if (project.getProvidedContext().harness) return undefined;
  const path = process.env.HARNESS_PROFILE ?? 'profiles/mock-uat.json';
  const prepared = await prepareFile(path, {
    long: process.env.HARNESS_LONG === '1',
    destructive: process.env.HARNESS_DESTRUCTIVE === '1',
  });
  project.provide('harness', prepared.runtime);
  return () => prepared.close();
}
