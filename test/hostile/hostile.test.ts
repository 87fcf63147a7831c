/**
 * The hostile-target kit: every behaviour of test/hostile/server.ts, in both modes, run through certify (in
 * process, several at once, with a 1.5 s request budget), then the reports written. Each run must end with exit 1
 * or 4, three valid reports, a failed prerequisite naming the cause, no connection to the canary (an address no
 * profile names, where the off-host redirect points) and no secret in any report. The hanging target is also run
 * as a user does (the command, default limits, both modes): bounded at 30 s.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { certify } from '../../lib/engine/run/certify.ts';
import { startMockBank } from '../../lib/mock/index.ts';
import { testPki } from '../../lib/pki/index.ts';
import type { TestPki } from '../../lib/pki/types.ts';
import { secretsOf } from '../../lib/profile/secrets.ts';
import { FullProfile, type FullProfileInput } from '../../lib/profile/schema.ts';
import { readResults } from '../../lib/report/json.ts';
import { writeReports } from '../../lib/report/write.ts';
import { allChecks } from '../../suites/index.ts';
import { runCertify } from '../cli/run-certify.ts';
import { BEHAVIOURS, startCanary, startHostile, type Behaviour, type Hostile } from './server.ts';

type Mode = 'sandbox' | 'uat';

/** the failed prerequisite's reason must name the cause */
const CAUSE: Record<Behaviour, Partial<Record<Mode, RegExp>> & { any?: RegExp }> = {
  hang: { sandbox: /no response header within 3 s/, uat: /no TLS handshake within 3 s/ },
  drip: { any: /no complete response within 3 s: stopped reading after \d+ bytes/ },
  reset: { any: /ECONNRESET|UND_ERR_SOCKET|other side closed/ },
  garbage: { any: /does not match the HTTP\/1\.1 protocol/ },
  'huge-body': { any: /body over 4 MiB: stopped reading/ },
  // a stream: whichever limit comes first (4 MiB, or the whole-response budget on a loaded machine)
  'endless-chunked': { any: /body over 4 MiB: stopped reading|no complete response within 3 s: stopped reading/ },
  'bad-json': { any: /gave no access token \(HTTP 200\)/ },
  html: { any: /gave no access token \(HTTP 200\)/ },
  'off-host-redirect': { any: /HTTP 302/ },
  'stack-500': { any: /HTTP 500/ },
  'weird-token': { any: /gave no access token \(HTTP 200\)/ },
  'many-headers': { any: /response headers over/ },
  'tls-garbage': { sandbox: /does not match the HTTP\/1\.1 protocol/, uat: /TLS handshake failed/ },
  'close-before-handshake': {
    sandbox: /UND_ERR_SOCKET|other side closed|ECONNRESET/,
    uat: /TLS handshake failed|ECONNRESET|disconnected/,
  },
};

let pki: TestPki;
let canary: Hostile;
const base: Partial<Record<Mode, FullProfileInput>> = {};
const dir = mkdtempSync(join(tmpdir(), 'hostile-'));

beforeAll(async () => {
  pki = await testPki();
  canary = await startCanary();
  for (const mode of ['sandbox', 'uat'] as const) {
    const mock = await startMockBank({ mode, pki });
    base[mode] = mock.profile(`hostile-${mode}`);
    await mock.close();
  }
}, 120_000);
afterAll(async () => {
  await canary.close();
});

function profileFor(mode: Mode, url: string, run: Record<string, number>): string {
  const p = structuredClone(base[mode]!);
  const { clock: _clock, ...target } = p.target;
  const path = join(dir, `${mode}-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(path, JSON.stringify({ ...p, target: { ...target, baseUrl: url }, run }));
  return path;
}

async function runOne(behaviour: Behaviour, mode: Mode): Promise<void> {
  const hostile = await startHostile({
    behaviour,
    redirectTo: canary.url,
    ...(mode === 'uat'
      ? { tls: { cert: pki.server.certPem, key: pki.server.privateKeyPem, ca: pki.partnerCa.certPem } }
      : {}),
  });
  try {
    const path = profileFor(mode, hostile.url, { concurrency: 8, requestTimeoutMs: 3000 });
    const outcome = await certify({
      checks: allChecks,
      profiles: [path],
      suites: [],
      only: [],
      long: false,
      destructive: false,
      failOn: 'must',
    });
    const what = `${behaviour} (${mode})`;
    expect([1, 4], what).toContain(outcome.exitCode);
    const out = join(dir, `${behaviour}-${mode}`);
    const written = await writeReports(outcome.results!, out, {});
    const results = readResults(written.json);
    const run = results.profiles[0]!;
    const failed = (run.prerequisites ?? []).find((q) => q.verdict === 'fail');
    expect(failed, `${what}: a failed prerequisite`).toBeDefined();
    const cause = CAUSE[behaviour][mode] ?? CAUSE[behaviour].any!;
    expect(`${failed!.id}: ${failed!.reason}`, what).toMatch(cause);
    for (const r of run.results.filter((x) => x.blockedBy)) expect(r.evidence.exchanges, r.checkId).toEqual([]);
    const texts = [written.json, written.html, written.junit].map((f) => readFileSync(f, 'utf8'));
    expect(texts[1]).toMatch(/<html/i);
    expect(texts[2]).toMatch(/<testsuites/);
    const secrets = secretsOf(FullProfile.parse(JSON.parse(readFileSync(path, 'utf8'))));
    for (const t of texts) for (const s of secrets) expect(t.includes(s.value), `${what}: ${s.kind}`).toBe(false);
  } finally {
    await hostile.close();
  }
}

describe('hostile targets', () => {
  const cases = BEHAVIOURS.flatMap((b) => (['sandbox', 'uat'] as const).map((m) => [b, m] as const));

  test('every behaviour in both modes: exit 1 or 4, three valid reports, the cause named, no secret', async () => {
    const queue = [...cases];
    const failures: string[] = [];
    const worker = async (): Promise<void> => {
      for (let c = queue.shift(); c; c = queue.shift()) {
        await runOne(c[0], c[1]).catch((e: unknown) =>
          failures.push(`${c[0]} ${c[1]}: ${e instanceof Error ? e.message : String(e)}`),
        );
      }
    };
    await Promise.all(Array.from({ length: 7 }, worker));
    expect(failures).toEqual([]);
    expect(canary.connections, 'connections to an address no profile names').toBe(0);
  }, 240_000);

  test('a hanging target, as a user runs it (default limits, both modes): bounded, exit 4, the limit named', async () => {
    const hangs = await Promise.all([startHostile({ behaviour: 'hang' }), startHostile({ behaviour: 'hang' })]);
    try {
      const r = await runCertify([
        '--profile',
        profileFor('sandbox', hangs[0].url, {}),
        '--profile',
        profileFor('uat', hangs[1].url.replace('http:', 'https:'), {}),
        '--out',
        join(dir, 'hang-cli'),
      ]);
      expect(r.code, r.stderr).toBe(4);
      // bounded by counts, not by the seconds it took (the test's timeout stops a run that would hang): each target
      // got the connections of one run of its prerequisites (two for the sandbox, the UAT's one TLS handshake), none
      // more after a limit passed (a prerequisite tried again would show here)
      expect(hangs.map((h) => h.connections)).toEqual([2, 1]);
      expect(r.stdout + r.stderr).toMatch(/fix first: prerequisite reach-api failed: .*no response header within 10 s/);
      expect(r.stdout + r.stderr).toMatch(/fix first: prerequisite tls-handshake failed: no TLS handshake within 10 s/);
      expect(r.stdout).toMatch(/hostile-sandbox: .*target unreachable.*prerequisite failed: reach-api — UNREACHABLE/);
      expect(r.stdout).toMatch(/hostile-uat: .*target unreachable.*prerequisite failed: tls-handshake — UNREACHABLE/);
    } finally {
      await Promise.all(hangs.map((h) => h.close()));
    }
  }, 60_000);
});
