/**
 * A test that asserts nothing fails `npm test` (a check cannot pass on nothing, docs/design.md): the selftest project's
 * `expect.requireAssertions` fails it at run time, and the lint step's `vitest/expect-expect` names it before. Shown on
 * two scratch test files under test/ (as a new test file would be added): one with an assertion (the positive control,
 * passes), one with none (fails), run through the selftest project itself.
 */
import { spawn } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { ESLint } from 'eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../lib/root.ts';

interface JsonReport {
  testResults: { name: string; assertionResults: { title: string; status: string; failureMessages: string[] }[] }[];
}

const dir = join(ROOT, 'test', 'fixtures', `assertions-guard-${process.pid}`);
const silent = join(dir, 'silent.test.ts');
const asserting = join(dir, 'asserting.test.ts');
let code: number | null;
let report: JsonReport;

beforeAll(async () => {
  await mkdir(dir, { recursive: true });
  await writeFile(
    silent,
    [
      "import { it } from 'vitest';",
      '',
      "it('computes and asserts nothing', () => {",
      '  const results: number[] = [];',
      '  for (const r of results) if (r < 0) throw new Error(String(r));',
      '});',
      '',
    ].join('\n'),
  );
  await writeFile(
    asserting,
    ["import { expect, it } from 'vitest';", '', "it('asserts', () => {", '  expect(1 + 1).toBe(2);', '});', ''].join(
      '\n',
    ),
  );
  const out = join(dir, 'report.json');
  code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        'node_modules/vitest/vitest.mjs',
        'run',
        '--project',
        'selftest',
        '--reporter=json',
        `--outputFile=${out}`,
        relative(ROOT, silent),
        relative(ROOT, asserting),
      ],
      { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' }, stdio: 'ignore' },
    );
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('vitest run --project selftest did not finish within 120 s'));
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

describe('a test that asserts nothing', () => {
  it('fails the selftest project (requireAssertions); the asserting one beside it passes', () => {
    const byFile = Object.fromEntries(
      report.testResults.map((f) => [f.name.split('/').pop(), f.assertionResults.map((a) => a.status)]),
    );
    expect(byFile).toEqual({ 'silent.test.ts': ['failed'], 'asserting.test.ts': ['passed'] });
    const silentFile = report.testResults.find((f) => f.name.endsWith('silent.test.ts'))!;
    expect(silentFile.assertionResults[0]!.failureMessages.join('\n')).toMatch(/expected any number of assertion/);
    expect(code).toBe(1);
  });

  it('is named by the lint step (vitest/expect-expect)', async () => {
    const [silentLint, assertingLint] = await new ESLint({ cwd: ROOT }).lintFiles([silent, asserting]);
    expect(silentLint!.messages.map((m) => m.ruleId)).toContain('vitest/expect-expect');
    expect(assertingLint!.messages).toEqual([]);
  });
});
