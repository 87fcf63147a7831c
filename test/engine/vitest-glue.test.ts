/**
 * The suites as Vitest suites: `vitest run --project conformance` (what a developer runs ad hoc; certify runs the
 * same checks through the engine) against a mock with one fault. The fault's checks fail with their requirement
 * ids in the test name and expected vs observed in the message, the others pass, and a not-applicable check is a
 * runtime skip (never it.skip in code).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../cli/run-certify.ts';

interface JsonReport {
  testResults: { assertionResults: { fullName: string; title: string; status: string; failureMessages: string[] }[] }[];
}

let dir: string;
let report: JsonReport;
let code: number | null;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vitest-glue-'));
  const profile = join(dir, 'profile.json');
  await writeFile(
    profile,
    JSON.stringify({
      name: 'glue-sandbox',
      environment: 'sandbox',
      embedded: { faults: ['missing-property-not-named'] },
    }),
  );
  const out = join(dir, 'report.json');
  code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        'node_modules/vitest/vitest.mjs',
        'run',
        '--project',
        'conformance',
        '--reporter=json',
        `--outputFile=${out}`,
        'suites/errors/',
      ],
      {
        cwd: ROOT,
        env: { ...process.env, HARNESS_PROFILE: profile, NO_COLOR: '1' },
        stdio: 'ignore',
      },
    );
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('vitest run --project conformance did not finish within 120 s'));
    }, 120_000);
    child.on('close', (c) => {
      clearTimeout(timer);
      resolve(c);
    });
  });
  report = JSON.parse(await readFile(out, 'utf8')) as JsonReport;
}, 150_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the conformance Vitest project', () => {
  it('fails the fault’s requirement (ERR-02), names it in the test, and passes the rest', () => {
    const tests = report.testResults.flatMap((f) => f.assertionResults);
    expect(tests.length).toBeGreaterThan(3);
    const failed = tests.filter((t) => t.status === 'failed');
    expect(failed.length).toBeGreaterThan(0);
    for (const t of failed) {
      expect(t.title.startsWith('ERR-02')).toBe(true);
      expect(t.failureMessages.join('\n')).toMatch(/expected: /);
    }
    expect(tests.filter((t) => t.status === 'passed').length).toBeGreaterThan(0);
    expect(tests.every((t) => ['passed', 'failed', 'skipped'].includes(t.status))).toBe(true);
    expect(code).toBe(1);
  });
});
