import { mkdirSync } from 'node:fs';
import { tempDirs } from '../fixtures/tmp.ts';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CheckResult, RunResults } from '../../lib/engine/results.ts';
import { runCompare } from '../../lib/cli/compare.ts';
import { compareResults, renderComparison } from '../../lib/report/compare/verdicts.ts';
import { writeResults } from '../../lib/report/json.ts';
import { fixtureResults } from '../fixtures/results.ts';
import { sink } from '../fixtures/sink.ts';

const tmp = tempDirs('compare-');

const find = (r: RunResults, profile: string, checkId: string): CheckResult => {
  const c = r.profiles.find((p) => p.profile === profile)?.results.find((x) => x.checkId === checkId);
  if (!c) throw new Error(`no ${profile} ${checkId}`);
  return c;
};

/** b: one pass breaks, one failure is fixed, one verdict changes, one check is added (failing), one removed. */
function pair(): { a: RunResults; b: RunResults } {
  const a = fixtureResults();
  const b = fixtureResults();
  Object.assign(find(b, 'mock-sandbox', 'xfer.create'), { verdict: 'fail', reason: 'HTTP 500' });
  Object.assign(find(b, 'mock-uat', 'jose.plain-json-refused'), { verdict: 'pass', reason: undefined });
  Object.assign(find(b, 'mock-uat', 'tls.weak-key'), { verdict: 'pass' });
  const uat = b.profiles[1]!;
  uat.results = uat.results.filter((r) => r.checkId !== 'quota.exhaust');
  uat.results.push({ ...find(b, 'mock-uat', 'err.shape'), checkId: 'err.new', verdict: 'pass' });
  b.profiles[0]!.results.push({
    ...find(b, 'mock-sandbox', 'mask.unmasked-422'),
    checkId: 'mask.new',
    verdict: 'error',
    reason: 'boom',
  });
  return { a, b };
}

describe('compareResults', () => {
  it('sorts differences into new failures, fixed, changed, added and removed', () => {
    const { a, b } = pair();
    const c = compareResults(a, b);
    const ids = (l: { profile: string; checkId: string }[]) => l.map((x) => `${x.profile}:${x.checkId}`);
    expect(ids(c.newFailures)).toEqual(['mock-sandbox:xfer.create', 'mock-sandbox:mask.new']);
    expect(c.newFailures[0]).toMatchObject({
      before: 'pass',
      after: 'fail',
      reason: 'HTTP 500',
      requirements: ['XFER-01'],
    });
    expect(c.newFailures[1]?.before).toBeUndefined();
    expect(ids(c.fixed)).toEqual(['mock-uat:jose.plain-json-refused']);
    expect(ids(c.changed)).toEqual(['mock-uat:tls.weak-key']);
    expect(ids(c.added)).toEqual(['mock-uat:err.new']);
    expect(ids(c.removed)).toEqual(['mock-uat:quota.exhaust']);
    const text = renderComparison(c);
    expect(text).toContain('New failures: 2');
    expect(text).toContain('mock-sandbox xfer.create [XFER-01] pass -> fail: a transfer can be created');
    expect(text).toContain('Removed checks: 1');
  });

  it('identical runs differ in nothing; a warning only fails with --fail-on should', () => {
    const c = compareResults(fixtureResults(), fixtureResults());
    expect(Object.values(c).every((l) => l.length === 0)).toBe(true); // warnings included
    const a = fixtureResults();
    const b = fixtureResults();
    Object.assign(find(b, 'mock-sandbox', 'xfer.create'), { verdict: 'warn' });
    expect(compareResults(a, b).changed).toHaveLength(1);
    expect(compareResults(a, b, { failOn: 'should' }).newFailures).toHaveLength(1);
  });

  it('warns first when the runs are not like for like: other profiles, target, faults, catalogue, filters', () => {
    expect(compareResults(fixtureResults(), fixtureResults()).warnings).toEqual([]);
    const a = fixtureResults();
    const b = fixtureResults();
    b.profiles[0]!.profile = 'bank-sandbox';
    b.profiles[1]!.target.baseUrl = 'https://uat.bank.example';
    b.options.filters = { ...b.options.filters, suite: ['jose'] };
    const c = compareResults(a, b);
    expect(c.warnings[0]).toMatch(/different profiles .*mock-sandbox, bank-sandbox show as removed or added/);
    expect(c.warnings.some((w) => w.includes('target https://127.0.0.1:8443'))).toBe(true);
    expect(c.warnings.some((w) => w.startsWith('the runs used different filters'))).toBe(true);
    expect(renderComparison(c).startsWith('Warning: the runs certified different profiles')).toBe(true);
  });

  it('the command: exit 1 on new failures, 0 otherwise, 2 on usage or unreadable input', () => {
    const { a, b } = pair();
    const dir = tmp();
    mkdirSync(join(dir, 'a'));
    mkdirSync(join(dir, 'b'));
    const pa = writeResults(a, join(dir, 'a')).path;
    const pb = writeResults(b, join(dir, 'b')).path;
    const out = sink();
    expect(runCompare([pa, pb], out, sink())).toBe(1);
    expect(out.text).toContain('New failures: 2');
    expect(runCompare([pb, pa], sink(), sink())).toBe(1); // the "fixed" one fails again going backwards
    expect(runCompare([pa, pa], sink(), sink())).toBe(0);
    const err = sink();
    expect(runCompare([pa], sink(), err)).toBe(2);
    expect(err.text).toContain('give two results files');
    expect(runCompare([pa, join(dir, 'missing.json')], sink(), sink())).toBe(2);
    expect(runCompare([pa, pb, '--fail-on', 'may'], sink(), sink())).toBe(2);
  });
});
