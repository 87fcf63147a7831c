/**
 * The suites as Vitest suites: `vitest run --project conformance` (what a developer runs ad hoc; certify runs the
 * same checks through the engine). Its outcome must say what certify says (lib/engine/vitest/vitest.ts):
 *  - a mock with one fault: the fault's checks fail with their requirement ids in the test name and expected vs
 *    observed in the message, the others pass, and a not-applicable check is a runtime skip (never it.skip in code);
 *  - a call budget that leaves the checks inconclusive (certify: INCOMPLETE): their tests fail, the run exits 5;
 *  - a stopped target (certify: UNREACHABLE, exit 4): the checks are blocked by the prerequisite, never failed by their own
 *    connection refused;
 *  - the clean embedded mocks, in both modes: exit 0.
 */
import { spawn } from 'node:child_process';
import net from 'node:net';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../cli/run-certify.ts';
import { startMockBank } from '../../lib/mock/index.ts';
import { testPki } from '../../lib/pki/index.ts';

interface Assertion {
  fullName: string;
  title: string;
  status: string;
  failureMessages: string[];
}
interface JsonReport {
  testResults: { assertionResults: Assertion[] }[];
}
interface Run {
  code: number | null;
  tests: Assertion[];
}

let dir: string;

/** `vitest run --project conformance <paths>` against a profile file, its JSON report read back */
async function conformance(name: string, profile: string | undefined, paths: string[]): Promise<Run> {
  const out = join(dir, `${name}.report.json`);
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
      ].concat(paths),
      {
        cwd: ROOT,
        env: { ...process.env, ...(profile ? { HARNESS_PROFILE: profile } : {}), NO_COLOR: '1' },
        stdio: 'ignore',
      },
    );
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`vitest run --project conformance (${name}) did not finish within 120 s`));
    }, 120_000);
    child.on('close', (c) => {
      clearTimeout(timer);
      resolve(c);
    });
  });
  const report = JSON.parse(await readFile(out, 'utf8')) as JsonReport;
  return { code, tests: report.testResults.flatMap((f) => f.assertionResults) };
}

async function profileFile(name: string, profile: unknown): Promise<string> {
  const path = join(dir, `${name}.json`);
  await writeFile(path, JSON.stringify(profile));
  return path;
}

/** a UAT profile of a mock that is no longer there: its port closed */
async function stoppedTarget(): Promise<string> {
  const free = net.createServer();
  await new Promise<void>((r) => free.listen(0, '127.0.0.1', r));
  const port = (free.address() as net.AddressInfo).port;
  await new Promise((r) => free.close(r));
  const mock = await startMockBank({ mode: 'uat', pki: await testPki(), faults: [] });
  try {
    const p = mock.profile('stopped-uat');
    const url = `https://127.0.0.1:${port}`;
    return await profileFile('stopped', { ...p, target: { ...p.target, baseUrl: url, oauthBaseUrl: url } });
  } finally {
    await mock.close();
  }
}

let faulty: Run;
let budget: Run;
let stopped: Run;
let cleanUat: Run;
let cleanSandbox: Run;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vitest-glue-'));
  const sandbox = (name: string, extra: object): Promise<string> =>
    profileFile(name, { name, environment: 'sandbox', embedded: { faults: [] }, ...extra });
  // one vitest process at a time: the machine's cores are shared with the other test files
  faulty = await conformance(
    'faulty',
    await sandbox('glue-sandbox', { embedded: { faults: ['missing-property-not-named'] } }),
    ['suites/errors/'],
  );
  budget = await conformance('budget', await sandbox('budget', { run: { maxCallsPerCheck: 2 } }), ['suites/masking/']);
  stopped = await conformance('stopped', await stoppedTarget(), ['suites/tls/', 'suites/masking/']);
  cleanUat = await conformance('clean-uat', undefined, []);
  cleanSandbox = await conformance('clean-sandbox', join(ROOT, 'profiles/mock-sandbox.json'), []);
}, 600_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the conformance Vitest project', () => {
  it('fails the fault’s requirement (ERR-02), names it in the test, and passes the rest', () => {
    const tests = faulty.tests;
    expect(tests.length).toBeGreaterThan(3);
    const failed = tests.filter((t) => t.status === 'failed');
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.filter((t) => !/^(?:[A-Z]+-\d+ )*ERR-02 /.test(t.title)).map((t) => t.title)).toEqual([]);
    expect(failed.filter((t) => !/expected: /.test(t.failureMessages.join('\n'))).map((t) => t.title)).toEqual([]);
    expect(tests.filter((t) => t.status === 'passed').length).toBeGreaterThan(0);
    expect(tests.filter((t) => !['passed', 'failed', 'skipped'].includes(t.status))).toEqual([]);
    expect(faulty.code).toBe(1);
  });

  it('a MUST left inconclusive by the call budget fails its test with the verdict and reason (certify: INCOMPLETE)', () => {
    expect(budget.code).toBe(5);
    const failed = budget.tests.filter((t) => t.status === 'failed');
    expect(failed.length).toBeGreaterThanOrEqual(3);
    for (const message of failed.map((t) => t.failureMessages.join('\n')))
      expect(message).toMatch(/MUST not verified \(inconclusive\): call budget: the check made more than 2 calls/);
    // the MUST checks (MASK-01, -02, -04) need more than two calls; only MASK-03's account-id half (a control and
    // one probe) is verified within the budget
    expect(failed.map((t) => t.title.split(' ')[0])).toEqual(expect.arrayContaining(['MASK-01', 'MASK-02', 'MASK-04']));
    expect(
      budget.tests.filter((t) => t.status === 'passed' && !t.title.startsWith('MASK-03 ')).map((t) => t.title),
    ).toEqual([]);
  });

  it('a stopped target: the checks are blocked by the prerequisite, not failed by connection refused', () => {
    expect(stopped.code).toBe(4);
    const tls = stopped.tests.filter((t) => /^TLS-/.test(t.title) && t.status === 'failed');
    expect(tls.map((t) => t.title.split(' ')[0])).toEqual(expect.arrayContaining(['TLS-02', 'TLS-06']));
    const failed = stopped.tests.filter((t) => t.status === 'failed');
    expect(failed.length).toBeGreaterThan(tls.length);
    const messages = failed.map((t) => t.failureMessages.join('\n'));
    expect(
      messages.filter(
        (m) =>
          !/^Error: MUST not verified \(inconclusive\): blocked by prerequisite tls-handshake: no TCP connection: ECONNREFUSED/.test(
            m,
          ),
      ),
    ).toEqual([]);
    expect(stopped.tests.filter((t) => t.status === 'passed').map((t) => t.title)).toEqual([]);
  });

  it('the clean embedded mocks, UAT and sandbox: every test passes or is skipped with a reason, exit 0', () => {
    for (const run of [cleanUat, cleanSandbox]) {
      expect(run.tests.length).toBeGreaterThan(50);
      expect(run.tests.filter((t) => t.status === 'failed').map((t) => t.title)).toEqual([]);
      expect(run.tests.filter((t) => t.status === 'passed').length).toBeGreaterThan(50);
      expect(run.code).toBe(0);
    }
  });
});
