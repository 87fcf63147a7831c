/**
 * The CI recipes of examples/ci, tested as a release engineer would use them:
 * - the GitLab recipe runs for real through gitlab-ci-local (shell executor) against the embedded mock, once clean
 *   (the job passes) and once with a mock fault (the job fails with certify's exit 1 and still leaves the three
 *   reports as artifacts);
 * - the GitHub workflow is validated against the workflow schema (@action-validator/core, which ships
 *   SchemaStore's schema), beside a spoiled copy that the validator must refuse (so a pass means something);
 * - the Jenkinsfile is not run (no Jenkins here): the README says so.
 * The job's install step is the one thing overridden (INSTALL_COMMAND, a variable the recipe declares): this test
 * runs inside an installed checkout, so the job checks the install (`npm ls`) instead of reinstalling it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { validateWorkflow } from '@action-validator/core';
import { afterAll, describe, expect, test } from 'vitest';
import { ROOT } from '../cli/run-certify.ts';

const GITLAB_RECIPE = 'examples/ci/gitlab/.gitlab-ci.yml';
const GITHUB_RECIPE = join(ROOT, 'examples/ci/github/certify.yml');
const BIN = join(ROOT, 'node_modules/.bin/gitlab-ci-local');
/** under the project (gitlab-ci-local wants its state and the artifacts' paths relative to the project) */
const WORK = join(ROOT, '.tmp', `ci-recipes-${process.pid}`);

afterAll(() => rmSync(WORK, { recursive: true, force: true }));

interface JobRun {
  code: number | null;
  out: string;
  artifacts: string;
}

/** runs the recipe's `certify` job with gitlab-ci-local, with its own state folder and a profile file */
function runGitlabJob(name: string, profile: object): Promise<JobRun> {
  const dir = join(WORK, name);
  mkdirSync(join(dir, 'home'), { recursive: true });
  const profileFile = join(dir, 'profile.json');
  writeFileSync(profileFile, JSON.stringify(profile));
  const rel = (p: string): string => relative(ROOT, p);
  const args = [
    '--file', GITLAB_RECIPE,
    '--state-dir', rel(join(dir, 'state')),
    '--home', join(dir, 'home'),
    '--force-shell-executor',
    '--color=false',
    '--variable', `CERTIFY_PROFILE=${rel(profileFile)}`,
    '--variable', `REPORTS_DIR=${rel(join(dir, 'reports'))}`,
    '--variable', 'INSTALL_COMMAND=npm ls --depth=0 --silent',
    'certify',
  ]; // prettier-ignore
  return new Promise((resolve, reject) => {
    const child = spawn(BIN, args, {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 240_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out, artifacts: join(dir, 'state', 'artifacts', 'certify', rel(join(dir, 'reports'))) });
    });
  });
}

describe('GitLab recipe, run by gitlab-ci-local', () => {
  test('its tools are here (gitlab-ci-local, rsync, a git checkout): .ci/run installs them', () => {
    expect(existsSync(BIN), 'gitlab-ci-local (devDependency)').toBe(true);
    expect(spawnSync('rsync', ['--version']).status, 'rsync (Debian package)').toBe(0);
    expect(spawnSync('git', ['rev-parse', '--git-dir'], { cwd: ROOT }).status, 'a git checkout').toBe(0);
  });

  test('against the clean mock the job passes and keeps the three reports', async () => {
    const run = await runGitlabJob('clean', { name: 'ci-clean', environment: 'uat', embedded: {} });
    expect(run.code, run.out.slice(-3000)).toBe(0);
    expect(run.out).toMatch(/PASS\s+certify/);
    for (const f of ['junit.xml', 'report.html', 'results.json']) {
      expect(existsSync(join(run.artifacts, f)), `artifact ${f}`).toBe(true);
    }
    const results = JSON.parse(readFileSync(join(run.artifacts, 'results.json'), 'utf8')) as { verdict?: unknown };
    expect(JSON.stringify(results)).toContain('ci-clean');
  }, 300_000);

  test('with a mock fault the job fails with exit 1, says the verdict, and still keeps the three reports', async () => {
    const run = await runGitlabJob('faulty', {
      name: 'ci-faulty',
      environment: 'uat',
      embedded: { faults: ['bola'] },
    });
    expect(run.code, run.out.slice(-3000)).not.toBe(0);
    expect(run.out).toMatch(/FAIL\s+certify/);
    // certify's own exit code, as gitlab-ci-local shows the job's ("certify finished in 11 s  FAIL 1")
    expect(run.out).toMatch(/certify finished in .*FAIL 1\b/);
    expect(run.out).toMatch(/XFER-07/);
    for (const f of ['junit.xml', 'report.html', 'results.json']) {
      expect(existsSync(join(run.artifacts, f)), `artifact ${f} (artifacts: when: always)`).toBe(true);
    }
    expect(readFileSync(join(run.artifacts, 'junit.xml'), 'utf8')).toMatch(/<failure[^>]*>/);
  }, 300_000);
});

describe('GitHub workflow', () => {
  test('validates against the workflow schema', () => {
    const state = validateWorkflow(readFileSync(GITHUB_RECIPE, 'utf8'));
    expect(state.errors).toEqual([]);
  });

  test('the validator refuses a spoiled copy (a job without runs-on, a misspelt key)', () => {
    const spoiled = readFileSync(GITHUB_RECIPE, 'utf8')
      .replace(/^ {4}runs-on: .*$/m, '')
      .replace(/^ {4}steps:$/m, '    stepz:');
    expect(spoiled).not.toBe(readFileSync(GITHUB_RECIPE, 'utf8'));
    expect(validateWorkflow(spoiled).errors.length).toBeGreaterThan(0);
  });

  test('keeps the reports whatever the verdict and gates on the exit code', () => {
    const text = readFileSync(GITHUB_RECIPE, 'utf8');
    expect(text).toMatch(/npm ci\b/);
    expect(text).toMatch(/npm run certify -- --profile "\$CERTIFY_PROFILE" --out reports/);
    expect(text).toMatch(/if: always\(\)\n\s+uses: actions\/upload-artifact@v\d/);
    // no `continue-on-error` anywhere: a failed certify fails the job
    expect(text).not.toMatch(/continue-on-error/);
  });
});
