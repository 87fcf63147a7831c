/**
 * The conformance Vitest project when nothing ran: every selected check is not applicable here (the TLS suite
 * against a sandbox profile). Certify says NOTHING RAN and exits 3; the Vitest entry says the same (its global
 * setup's teardown, lib/engine/vitest/vitest-verdict.ts) and exits 3, never 0. The same entry with one check that ran exits 0.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../cli/run-certify.ts';
import { nothingRan } from '../../lib/engine/vitest/vitest-verdict.ts';
import type { CheckResult } from '../../lib/engine/results.ts';

interface Run {
  code: number | null;
  statuses: string[];
  output: string;
}

let dir: string;

/** `vitest run --project conformance <paths>` against an embedded sandbox profile */
async function conformance(name: string, paths: string[]): Promise<Run> {
  const profile = join(dir, `${name}.json`);
  await writeFile(profile, JSON.stringify({ name, environment: 'sandbox', embedded: { faults: [] } }));
  const out = join(dir, `${name}.report.json`);
  let output = '';
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        'node_modules/vitest/vitest.mjs',
        'run',
        '--project',
        'conformance',
        '--reporter=json',
        `--outputFile=${out}`,
        ...paths,
      ],
      {
        cwd: ROOT,
        env: { ...process.env, HARNESS_PROFILE: profile, NO_COLOR: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child.stdout.on('data', (b: Buffer) => (output += b.toString('utf8')));
    child.stderr.on('data', (b: Buffer) => (output += b.toString('utf8')));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`vitest run --project conformance (${name}) did not finish within 120 s`));
    }, 120_000);
    child.on('close', (c) => {
      clearTimeout(timer);
      resolve(c);
    });
  });
  const report = JSON.parse(await readFile(out, 'utf8')) as {
    testResults: { assertionResults: { status: string }[] }[];
  };
  return { code, statuses: report.testResults.flatMap((f) => f.assertionResults.map((a) => a.status)), output };
}

let nothing: Run;
let some: Run;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vitest-nothing-ran-'));
  // one vitest process at a time: the machine's cores are shared with the other test files
  nothing = await conformance('nothing', ['suites/tls/']);
  some = await conformance('some', ['suites/tls/', 'suites/conventions/', '-t', 'TLS-|CONV-01 ']);
}, 300_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the conformance Vitest project when nothing ran', () => {
  it('every check not applicable: exit 3 with certify’s NOTHING RAN and a reason, never a green', () => {
    expect(nothing.statuses.length).toBeGreaterThan(5);
    expect(nothing.statuses.filter((s) => s !== 'skipped')).toEqual([]);
    expect(nothing.output).toMatch(/NOTHING RAN: none of the \d+ selected checks applies to this target or was run/);
    expect(nothing.output).toMatch(/not-applicable: applies to UAT/);
    expect(nothing.code).toBe(3);
  });

  it('a check that ran beside the not applicable ones: exit 0', () => {
    expect(some.statuses).toContain('passed');
    expect(some.output).not.toMatch(/NOTHING RAN/);
    expect(some.code).toBe(0);
  });
});

describe('nothingRan', () => {
  const r = (verdict: CheckResult['verdict'], waived?: string): CheckResult =>
    ({ checkId: 'x.y', verdict, reason: 'why', ...(waived ? { waived } : {}) }) as CheckResult;
  it('ran: any verdict but not-run and not-applicable, unwaived; nothing at all is nothing ran', () => {
    expect(nothingRan([r('not-applicable'), r('pass')])).toBeUndefined();
    expect(nothingRan([r('inconclusive')])).toBeUndefined();
    expect(nothingRan([r('not-applicable'), r('not-run'), r('inconclusive', 'operator')])).toMatch(/^NOTHING RAN/);
    expect(nothingRan([undefined])).toMatch(/none of the 1 selected checks/);
    expect(nothingRan([])).toMatch(/none of the 0 selected checks/);
  });
});
