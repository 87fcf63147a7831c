import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CheckResult, RunResults } from '../../lib/engine/results.ts';
import { runCompare } from '../../lib/cli/compare.ts';
import { compareSameRun } from '../../lib/report/compare/same.ts';
import { writeResults } from '../../lib/report/json.ts';
import { tempDirs } from '../fixtures/tmp.ts';
import { fixtureResults } from '../fixtures/results.ts';
import { sink } from '../fixtures/sink.ts';

const tmp = tempDirs('compare-same-');
const find = (r: RunResults, profile: string, checkId: string): CheckResult => {
  const c = r.profiles.find((p) => p.profile === profile)?.results.find((x) => x.checkId === checkId);
  if (!c) throw new Error(`no ${profile} ${checkId}`);
  return c;
};

/** b: the same run again on other ports, at another time, with fresh ids, its exchanges answered in another order */
function again(): RunResults {
  const b = fixtureResults();
  const text = JSON.stringify(b)
    .replaceAll('127.0.0.1:8443', '127.0.0.1:40123')
    .replaceAll('2025-05-01T10:00', '2026-11-28T13:29');
  const r = JSON.parse(text) as RunResults;
  r.profiles[0]!.durationMs += 777;
  for (const p of r.profiles)
    for (const c of p.results) {
      c.durationMs += 5;
      c.evidence.exchanges.reverse();
      for (const e of c.evidence.exchanges) {
        e.durationMs += 3;
        if (e.request.headers['x-request-id'])
          e.request.headers['x-request-id'] = '0f4b7c9e-2d1a-4c3b-9e8f-112233445566';
      }
    }
  return r;
}

describe('compare --same', () => {
  it('finds no difference between a run and the same run on other ports, at another time, with fresh ids', () => {
    const b = again();
    // the fixture's ports and times did change (not a comparison of a file with itself)
    expect(JSON.stringify(b)).not.toEqual(JSON.stringify(fixtureResults()));
    expect(compareSameRun(fixtureResults(), b)).toEqual([]);
  });

  it('reports a changed reason and a changed body with their paths, keyed by profile and check', () => {
    const b = again();
    find(b, 'mock-sandbox', 'xfer.create').reason = 'another reason';
    find(b, 'mock-uat', 'jose.plain-json-refused').evidence.exchanges[0]!.request.body = '{"amount":"11.00"}';
    const diffs = compareSameRun(fixtureResults(), b);
    expect(diffs.map((d) => d.path)).toEqual([
      'profiles[mock-sandbox].results[xfer.create].reason',
      'profiles[mock-uat].results[jose.plain-json-refused].evidence.exchanges[PUT a plain-JSON transfer (not sealed)].request.body',
    ]);
    expect(diffs[0]?.after).toBe('another reason');
  });

  it('a countdown within the run length (60 s) is the same, further apart not; an extra exchange is listed, numbering apart', () => {
    const a = fixtureResults();
    const b = again();
    const tokenAnswer = (remaining: number, n: number, r = a) => ({
      ...find(r, 'mock-uat', 'jose.plain-json-refused').evidence.exchanges[0]!,
      label: `token #${n}`,
      response: { status: 200, headers: {}, body: `{"expires_in":3600,"refresh_token_expires_in":${remaining}}` },
    });
    find(a, 'mock-sandbox', 'tok.expiry').evidence.exchanges = [tokenAnswer(100, 1), tokenAnswer(5000, 2)];
    // answered in the other order, numbered in it, read 10 and 5 s later
    find(b, 'mock-sandbox', 'tok.expiry').evidence.exchanges = [tokenAnswer(4990, 1, b), tokenAnswer(95, 2, b)];
    expect(compareSameRun(a, b)).toEqual([]);
    find(b, 'mock-sandbox', 'tok.expiry').evidence.exchanges = [
      tokenAnswer(4939, 1, b),
      tokenAnswer(95, 2, b),
      tokenAnswer(7, 3, b),
    ];
    const diffs = compareSameRun(a, b);
    expect(diffs.map((d) => d.path)).toEqual([
      'profiles[mock-sandbox].results[tok.expiry].evidence.exchanges[token #<n>].response.body',
      'profiles[mock-sandbox].results[tok.expiry].evidence.exchanges[+]',
    ]);
    expect(diffs[0]).toMatchObject({
      before: '{"expires_in":3600,"refresh_token_expires_in":5000}',
      after: '{"expires_in":3600,"refresh_token_expires_in":4939}',
    });
  });

  it('a real target on another host is a difference; the embedded mock on another origin is not', () => {
    const a = fixtureResults();
    const b = again();
    for (const r of [a, b]) r.profiles[1]!.target.embeddedMock = false;
    a.profiles[1]!.target.baseUrl = 'https://uat.bank.example';
    b.profiles[1]!.target.baseUrl = 'https://uat2.bank.example';
    expect(compareSameRun(a, b)).toEqual([
      {
        path: 'profiles[mock-uat].target.baseUrl',
        before: 'https://uat.bank.example',
        after: 'https://uat2.bank.example',
      },
    ]);
  });

  it('records that share a key are compared by place, none lost', () => {
    const a = fixtureResults();
    const b = again();
    const twice = (r: RunResults, second: string) => {
      const p = r.profiles[0]!;
      p.results = [p.results[0]!, { ...p.results[0]!, reason: second }];
    };
    twice(a, 'first');
    twice(b, 'second');
    expect(compareSameRun(a, b).map((d) => d.path)).toEqual(['profiles[mock-sandbox].results[1].reason']);
  });

  it('compares failure records field by field when present', () => {
    const a = fixtureResults();
    const b = again();
    const record = { checkId: 'xfer.create', kind: 'status', expected: '201', observed: '500' };
    const other = { ...record, checkId: 'xfer.get', observed: '404' };
    Object.assign(a.profiles[1]!, { failures: [record, other] });
    // recorded in the other order (as the checks ended): the same; one observed value changed: that one
    Object.assign(b.profiles[1]!, { failures: [other, record] });
    expect(compareSameRun(a, b)).toEqual([]);
    Object.assign(b.profiles[1]!, { failures: [other, { ...record, observed: '502' }] });
    expect(compareSameRun(a, b).map((d) => d.path)).toEqual(['profiles[mock-uat].failures[xfer.create].observed']);
  });

  it('the command: exit 0 for the same run, 1 with the difference printed', () => {
    const dir = tmp();
    for (const d of ['a', 'b', 'c']) mkdirSync(join(dir, d));
    const pa = writeResults(fixtureResults(), join(dir, 'a')).path;
    const pb = writeResults(again(), join(dir, 'b')).path;
    const changed = again();
    find(changed, 'mock-sandbox', 'xfer.create').reason = 'another reason';
    const pc = writeResults(changed, join(dir, 'c')).path;
    const out = sink();
    expect(runCompare(['--same', pa, pb], out, sink())).toBe(0);
    expect(out.text).toContain('fresh values: 0');
    const diff = sink();
    expect(runCompare(['--same', pa, pc], diff, sink())).toBe(1);
    expect(diff.text).toContain('profiles[mock-sandbox].results[xfer.create].reason');
    expect(diff.text).toContain('after:  "another reason"');
  });
});
