/**
 * A certification run: every profile is loaded and validated first (a broken profile stops the run before any
 * traffic, exit 2), then each target is prepared and the `conformance` Vitest project runs against it, its
 * results collected into one RunResults that feeds every report.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, resolve } from 'node:path';
import { startVitest } from 'vitest/node';
import { catalogueVersion } from '../catalogue/index.ts';
import { loadProfile } from '../profile/load.ts';
import { ProfileError } from '../profile/errors.ts';
import type { AnyProfile } from '../profile/schema.ts';
import { ResultCollector } from './collector.ts';
import { prepare } from './prepare.ts';
import { isFailing, RESULTS_SCHEMA_VERSION, type CheckResult, type ProfileRun, type RunResults } from './results.ts';
import { assumptionsOf } from '../profile/secrets.ts';
import './runtime.ts';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface CertifyRequest {
  profiles: string[];
  suites: string[];
  only: string[];
  grep?: string;
  long: boolean;
  destructive: boolean;
  failOn: 'must' | 'should';
  onProfileStart?: (name: string) => void;
  onResult?: (profile: string, r: CheckResult) => void;
  onProfileDone?: (run: ProfileRun) => void;
}

export type ExitCode = 0 | 1 | 2 | 3;
export interface CertifyOutcome {
  results?: RunResults;
  exitCode: ExitCode;
  /** configuration errors (exit 2), each naming the file and field */
  configErrors: string[];
}

export function harnessInfo(): RunResults['harness'] {
  const pkg = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
  let commit: string | undefined;
  try {
    commit = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
  } catch {
    commit = undefined;
  }
  return { name: pkg.name, version: pkg.version, ...(commit ? { commit } : {}), node: process.version };
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The test-name filter for --only and --grep (test names start with the requirement ids). */
export function namePattern(only: readonly string[], grep?: string): string | undefined {
  const parts: string[] = [];
  if (only.length) parts.push(`(?=.*(?:^|[\\s>])(?:${only.map(escapeRe).join('|')})(?:\\s|$))`);
  if (grep) parts.push(`(?=.*${escapeRe(grep)})`);
  return parts.length ? `^${parts.join('')}` : undefined;
}

export async function certify(req: CertifyRequest): Promise<CertifyOutcome> {
  const startedAt = new Date();
  // 1. every profile loads and validates before any traffic
  const loaded: { path: string; profile: AnyProfile }[] = [];
  const configErrors: string[] = [];
  for (const path of req.profiles) {
    try {
      loaded.push({ path, profile: await loadProfile(path) });
    } catch (e) {
      if (e instanceof ProfileError) configErrors.push(`${path}: ${e.message}${e.issues.length ? '\n  ' + e.issues.join('\n  ') : ''}`);
      else throw e;
    }
  }
  if (configErrors.length) return { exitCode: 2, configErrors };

  const runs: ProfileRun[] = [];
  for (const { profile } of loaded) {
    req.onProfileStart?.(profile.name);
    runs.push(await runProfile(profile, req));
  }

  const results: RunResults = {
    schemaVersion: RESULTS_SCHEMA_VERSION,
    harness: harnessInfo(),
    catalogueVersion,
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    options: {
      long: req.long,
      destructive: req.destructive,
      failOn: req.failOn,
      filters: { profile: req.profiles, suite: req.suites, only: req.only, grep: req.grep ? [req.grep] : [] },
    },
    profiles: runs,
  };
  return { results, exitCode: exitCodeOf(results), configErrors: [] };
}

export function exitCodeOf(results: RunResults): ExitCode {
  const all = results.profiles.flatMap((p) => p.results);
  if (results.profiles.some((p) => p.errors.length > 0)) return 1;
  if (all.length === 0) return 3;
  return all.some((r) => isFailing(r.verdict, results.options.failOn)) ? 1 : 0;
}

async function runProfile(profile: AnyProfile, req: CertifyRequest): Promise<ProfileRun> {
  const started = performance.now();
  const startedAt = new Date().toISOString();
  const errors: string[] = [];
  let prepared;
  try {
    prepared = await prepare(profile, { long: req.long, destructive: req.destructive });
  } catch (e) {
    errors.push(`could not prepare the target: ${e instanceof Error ? e.message : String(e)}`);
    return {
      profile: profile.name,
      environment: profile.environment,
      target: { baseUrl: 'target' in profile ? profile.target.baseUrl : 'embedded mock', embeddedMock: 'embedded' in profile, faults: [] },
      assumptions: {},
      startedAt,
      durationMs: Math.round(performance.now() - started),
      results: [],
      errors,
    };
  }
  const collector = new ResultCollector((r) => req.onResult?.(profile.name, r));
  try {
    const filters = req.suites.map((s) => `suites/${s}/`);
    const pattern = namePattern(req.only, req.grep);
    const vitest = await startVitest('test', filters, {
      root: ROOT,
      config: resolve(ROOT, 'vitest.config.ts'),
      run: true,
      watch: false,
      project: ['conformance'],
      reporters: [collector],
      passWithNoTests: true,
      ...(pattern ? { testNamePattern: pattern } : {}),
      provide: { harness: prepared.runtime },
    });
    await vitest.close();
    errors.push(...collector.errors);
  } catch (e) {
    errors.push(`the conformance run failed: ${e instanceof Error ? e.message : String(e)}`);
  } finally {
    await prepared.close();
  }
  const run: ProfileRun = {
    profile: profile.name,
    environment: profile.environment,
    target: prepared.fingerprint,
    assumptions: assumptionsOf(prepared.runtime.profile),
    startedAt,
    durationMs: Math.round(performance.now() - started),
    results: collector.results.sort((a, b) => a.checkId.localeCompare(b.checkId)),
    errors,
  };
  req.onProfileDone?.(run);
  return run;
}
