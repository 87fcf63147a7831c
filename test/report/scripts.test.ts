/** The npm scripts are thin wrappers: check that they are wired to the commands and pass exit codes on. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeResults } from '../../lib/report/json.ts';
import { fixtureResults } from '../fixtures/results.ts';

const root = join(import.meta.dirname, '../..');
const tsx = (script: string, args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', join(root, script), ...args], {
    cwd: root,
    encoding: 'utf8',
    timeout: 40_000,
  });

describe('scripts', () => {
  it('compare and verify-report run and exit with their codes', () => {
    const a = writeResults(fixtureResults(), mkdtempSync(join(tmpdir(), 'scripts-'))).path;
    const same = tsx('scripts/compare.ts', [a, a]);
    expect(same.stdout).toContain('New failures: 0');
    expect(same.status).toBe(0);
    // no key and no report.html beside it: nothing to check the hash against
    const noKey = tsx('scripts/verify-report.ts', [a]);
    expect(noKey.stdout).toContain('NOT VERIFIED');
    expect(noKey.status).toBe(1);
    const usage = tsx('scripts/verify-report.ts', []);
    expect(usage.stderr).toContain('give exactly one results.json');
    expect(usage.status).toBe(2);
  }, 90_000); // two tsx start-ups: slow on a busy 2-core machine
});
