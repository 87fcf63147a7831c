/**
 * examples/partner-client/run.mjs, the README's command for the TypeScript reference client: it runs the client
 * from a bundle built once under node_modules/.cache (named by the SHA-256 of its sources), reused by every later
 * start while the sources are unchanged, and the client it runs is certified like the bundle the tests build.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitCodeOf } from '../../lib/partner/report.ts';
import { ROOT } from '../../lib/root.ts';
import { certify, failing, partnerFiles, type PartnerFiles } from './helpers.ts';

const LAUNCHER = join(ROOT, 'examples', 'partner-client', 'run.mjs');
const CACHE = join(ROOT, 'node_modules', '.cache', 'openbank-conformance', 'partner-client');
const bundles = () => readdirSync(CACHE).filter((f) => /^client-[0-9a-f]{32}\.mjs$/.test(f));
/** the launcher with no BANK_* variable: the client it runs says which one is missing and exits non-zero */
const start = () =>
  spawnSync(process.execPath, [LAUNCHER], { encoding: 'utf8', timeout: 60_000, env: { PATH: process.env.PATH } });

let files: PartnerFiles;
beforeAll(async () => {
  files = await partnerFiles('acme-pay-004');
}, 60_000);
afterAll(() => {
  if (files) rmSync(files.dir, { recursive: true, force: true });
});

describe('examples/partner-client/run.mjs', () => {
  it('runs the client from a bundle of the current sources, built once and reused', () => {
    expect.hasAssertions();
    const first = start();
    expect(first.status).not.toBe(0);
    expect(first.stderr).toMatch(/BANK_CLIENT_ID is not set/);
    // the bundle named by the digest of the sources the list names
    const sources = JSON.parse(readFileSync(join(CACHE, 'sources.json'), 'utf8')) as string[];
    expect(sources).toContain('examples/partner-client/client.ts');
    expect(sources.every((f) => !f.startsWith('node_modules/'))).toBe(true);
    const snapshot = () => Object.fromEntries(bundles().map((f) => [f, statSync(join(CACHE, f)).mtimeMs]));
    const before = snapshot();
    expect(Object.keys(before).length).toBeGreaterThan(0);
    // started again with the sources unchanged: the same bundle, not rebuilt
    const second = start();
    expect(second.stderr).toMatch(/BANK_CLIENT_ID is not set/);
    expect(snapshot()).toEqual(before);
  }, 90_000);

  it('the client it runs completes the task (sandbox, normal scenario)', async () => {
    const { results, verdicts } = await certify(files, [process.execPath, LAUNCHER], {
      mode: 'sandbox',
      scenarios: ['normal'],
    });
    expect(results.profiles[0]!.prerequisites?.[0]?.verdict).toBe('pass');
    expect(failing(verdicts)).toEqual([]);
    // one scenario of many: INCOMPLETE, never a pass
    expect(exitCodeOf(results)).toBe(5);
  }, 90_000);
});
