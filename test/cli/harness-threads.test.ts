/**
 * A profile's harness on a thread of its own (lib/engine/run/harness-thread.ts): certify of two profiles through the
 * command (the second on its bundle's thread) gives the same verdicts as the engine in-process on one thread, and a thread
 * that stops before its run is done is an error naming its profile while the other profile's run is reported whole.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { certify } from '../../lib/engine/run/certify.ts';
import { harnessThreads } from '../../lib/engine/run/harness-pool.ts';
import { onHarnessThreads, THREADED_FROM_CHECKS } from '../../lib/engine/run/harness-thread.ts';
import type { LoadedProfile } from '../../lib/engine/run/preflight.ts';
import { parseResults } from '../../lib/report/json.ts';
import type { ProfileRun } from '../../lib/engine/results.ts';
import { allChecks } from '../../suites/index.ts';
import { tempDirs } from '../fixtures/tmp.ts';
import { notVerified, ROOT, runCertify } from './run-certify.ts';

const tmp = tempDirs('harness-threads-');
/** rules of every suite that both mocks answer quickly, a UAT-only one among them (not applicable on the sandbox) */
const ONLY = ['TOK-06', 'XFER-04', 'XFER-05', 'MASK-01', 'JOSE-01', 'QUOTA-01', 'TLS-01', 'ERR-01'];
/** suites enough for the command to put a profile on a thread (THREADED_FROM_CHECKS), two of them mostly UAT-only */
const SUITES = ['jose', 'tls', 'transfers'];
const PROFILES = ['profiles/mock-sandbox.json', 'profiles/mock-uat.json'];

/** each check's verdict and reason, by profile and check id */
const verdicts = (runs: readonly ProfileRun[]): Record<string, string> =>
  Object.fromEntries(
    runs.flatMap((p) => p.results.map((r) => [`${p.profile} ${r.checkId}`, `${r.verdict}: ${r.reason ?? ''}`])),
  );

describe.concurrent('a profile on a harness thread of its own', { timeout: 300_000 }, () => {
  test('certify of two profiles (the second on a thread of the bundle) gives the verdicts of the engine in-process', async () => {
    const out = tmp();
    const suites = SUITES.flatMap((s) => ['--suite', s]);
    const cli = await runCertify([
      ...PROFILES.flatMap((p) => ['--profile', p]),
      ...suites,
      '--seed',
      '42',
      '--out',
      out,
    ]);
    expect(cli.code, `${cli.stderr}\n${notVerified(out)}`).toBe(0);
    const threaded = parseResults(readFileSync(join(out, 'results.json'), 'utf8')).profiles;

    const inProcess = await certify({
      checks: allChecks,
      profiles: PROFILES.map((p) => join(ROOT, p)),
      suites: SUITES,
      only: [],
      seed: 42,
      long: false,
      destructive: false,
      failOn: 'must',
    });
    const one = inProcess.results!.profiles;
    expect(one.map((p) => p.profile)).toEqual(['mock-sandbox', 'mock-uat']);
    expect(threaded.map((p) => p.profile)).toEqual(['mock-sandbox', 'mock-uat']);
    expect(verdicts(threaded)).toEqual(verdicts(one));
    expect(Object.keys(verdicts(one))).toHaveLength(2 * allChecks.filter((c) => SUITES.includes(c.suite)).length);
    expect(allChecks.filter((c) => SUITES.includes(c.suite)).length).toBeGreaterThanOrEqual(THREADED_FROM_CHECKS);
    expect(threaded.map((p) => p.errors)).toEqual([[], []]);
    // the console's lines are whole and each profile's come in its own order: its start, its checks, its summary
    for (const name of ['mock-sandbox', 'mock-uat']) {
      const mine = cli.stdout.split('\n').filter((l) => l.startsWith(`${name}:`) || l.startsWith(`  ${name} /`));
      expect(mine[0]).toMatch(/started \(\d+ checks?\)/);
      expect(mine.findIndex((l) => / — PASS$/.test(l))).toBeGreaterThan(0);
    }
  });

  test('threads for two or more profiles of a run long enough to repay them, without --har or --proxy', () => {
    const mock = (name: string): LoadedProfile =>
      ({ path: `${name}.json`, profile: { name, environment: 'sandbox', embedded: {} } }) as unknown as LoadedProfile;
    const two = [mock('a'), mock('b')];
    expect(onHarnessThreads(two, {}, THREADED_FROM_CHECKS)).toBe(true);
    expect(onHarnessThreads(two, {}, THREADED_FROM_CHECKS - 1)).toBe(false);
    expect(onHarnessThreads([mock('a')], {}, 100)).toBe(false);
    expect(onHarnessThreads(two, { transport: { proxy: {} as never } }, 100)).toBe(false);
    expect(onHarnessThreads(two, {}, 1, 1)).toBe(true);
  });

  test("a harness thread that stops is an error naming its profile; the other profile's run is whole", async () => {
    const dir = tmp();
    // the first profile runs on the main thread, the second on a thread of its own
    const paths = ['steady', 'crashing'].map((name, i) => {
      const path = join(dir, `${name}.json`);
      const environment = i === 0 ? 'sandbox' : 'uat';
      writeFileSync(path, JSON.stringify({ name, environment, embedded: {} }));
      return path;
    });
    const outcome = await certify({
      checks: allChecks,
      profiles: paths,
      suites: [],
      only: ONLY,
      long: false,
      destructive: false,
      failOn: 'must',
      // threads for a run of a few checks too (a whole run is the command's default)
      harnessThreads: harnessThreads(new URL('../fixtures/harness-thread-exits.mjs', import.meta.url), 0, 1),
    });
    const [steady, crashing] = outcome.results!.profiles;
    expect(crashing!.profile).toBe('crashing');
    expect(crashing!.errors).toEqual([
      'the harness thread of profile crashing stopped before its run ended (exit code 70): 0 checks had reported',
    ]);
    expect(crashing!.results).toEqual([]);
    expect(steady!.profile).toBe('steady');
    expect(steady!.errors).toEqual([]);
    expect(steady!.results.length).toBeGreaterThan(5);
    expect(steady!.results.filter((r) => r.verdict === 'fail')).toEqual([]);
    expect(outcome.exitCode).not.toBe(0);
  });
});
