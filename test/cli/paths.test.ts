/**
 * Paths typed on the command line are relative to the folder they were typed in, also through `npm run certify`
 * (npm moves to the package root and says where it was called from in INIT_CWD); an unreadable file: reference is
 * named with its full path.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { tempDirs } from '../fixtures/tmp.ts';
import { ROOT } from './run-certify.ts';
import { writeReports } from '../../lib/report/write.ts';
import { fixtureResults } from '../fixtures/results.ts';

const tmp = tempDirs('certify-paths-');

describe("paths from the caller's folder", () => {
  test('npm run certify from another folder: --profile and --out are read from that folder', () => {
    const dir = tmp();
    const doc = JSON.parse(readFileSync(join(ROOT, 'profiles/mock-sandbox.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(dir, 'mine.json'), JSON.stringify({ ...doc, name: 'from-elsewhere' }));
    const r = spawnSync(
      'npm',
      ['--prefix', ROOT, 'run', '-s', 'certify', '--', '--profile', 'mine.json', '--only', 'TOK-06', '--out', 'out'],
      { cwd: dir, encoding: 'utf8', timeout: 180_000, env: { ...process.env, NO_COLOR: '1' } },
    );
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(existsSync(join(dir, 'out', 'results.json'))).toBe(true);
    expect(r.stdout).toContain(join(dir, 'out', 'results.json'));
    // the results name the profile as typed (compare keys on the filters; the caller's folders are not the run's)
    const results = JSON.parse(readFileSync(join(dir, 'out', 'results.json'), 'utf8')) as {
      options: { filters: { profile: string[] } };
    };
    expect(results.options.filters.profile).toEqual(['mine.json']);
  }, 200_000);

  test('a file: reference that does not read is named with its full path', () => {
    const dir = tmp();
    const doc = JSON.parse(readFileSync(join(ROOT, 'profiles/mock-sandbox.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(
      join(dir, 'signed.json'),
      JSON.stringify({ ...doc, name: 'signed', report: { signingKey: 'file:keys/operator.key' } }),
    );
    const r = spawnSync(
      process.execPath,
      ['scripts/bin/certify.mjs', '--profile', join(dir, 'signed.json'), '--out', join(dir, 'o')],
      {
        cwd: ROOT,
        encoding: 'utf8',
        timeout: 120_000,
      },
    );
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`cannot read file keys/operator.key (${join(dir, 'keys', 'operator.key')}: ENOENT)`);
  }, 150_000);

  test('npm run verify-report and compare from another folder read the files beside the caller', async () => {
    const dir = tmp();
    await writeReports(fixtureResults(), dir);
    const npm = (args: string[]) =>
      spawnSync('npm', ['--prefix', ROOT, 'run', '-s', ...args], { cwd: dir, encoding: 'utf8', timeout: 90_000 });
    const verify = npm(['verify-report', '--', 'results.json']);
    expect(verify.status, verify.stdout + verify.stderr).toBe(0);
    const compare = npm(['compare', '--', 'results.json', 'results.json']);
    expect(compare.status, compare.stdout + compare.stderr).toBe(0);
  }, 200_000);
});
