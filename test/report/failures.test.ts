/**
 * Failure records (lib/engine/failure.ts) in the reports: results.json keeps them (schema 1.5.0, checked both ways),
 * junit.xml lists them, report.html shows them in a table, a HAR entry's comment says which failure was found in
 * it; the fault matrix's judge reads them before the reason's text.
 */
import { describe, expect, it } from 'vitest';
import type { CheckResult, Failure, RunResults } from '../../lib/engine/results.ts';
import { toJunitXml } from '../../lib/report/junit.ts';
import { toHtml } from '../../lib/report/html.ts';
import { harOf, harItemsOf } from '../../lib/report/har.ts';
import { parseResults } from '../../lib/report/json.ts';
import { fixtureResults } from '../fixtures/results.ts';
import { judgeFault, type JudgedResult } from '../matrix/judge.ts';

const accepted: Failure = {
  kind: 'negative-accepted',
  title: 'negative case not refused',
  message: 'S1 plain JSON document, not sealed (HTTP 201, accepted)',
  case: 'S1',
  caseTitle: 'plain JSON document, not sealed',
  outcome: 'accepted',
  status: 201,
  operation: 'validate',
  expected: 'HTTP 400',
  observed: 'HTTP 201',
  exchange: 0,
};

/** the fixture's failing JOSE check (the UAT profile's, with its exchange), with its records */
function withRecords(records: Failure[]): RunResults {
  const r = fixtureResults();
  const failing = r.profiles
    .flatMap((p) => p.results)
    .find((c) => c.checkId === 'jose.plain-json-refused' && c.evidence.exchanges.length === 1)!;
  failing.failures = records;
  return r;
}

describe('failure records in the reports', () => {
  it('results.json keeps them through the schema, and refuses a record of an unknown kind', () => {
    const r = withRecords([accepted]);
    const back = parseResults(JSON.stringify(r));
    const kept = back.profiles.flatMap((p) => p.results).flatMap((c) => c.failures ?? []);
    expect(kept).toEqual([accepted]);
    const odd = JSON.stringify(withRecords([{ ...accepted, kind: 'mystery' } as unknown as Failure]));
    expect(() => parseResults(odd)).toThrow(/does not match the results schema/);
  });

  it('junit.xml lists each record in the failure text', () => {
    const xml = toJunitXml(withRecords([accepted]));
    expect(xml).toContain(
      'failure: [negative-accepted] negative case not refused: S1 plain JSON document, not sealed (HTTP 201, accepted) (exchange 1)',
    );
  });

  it('a lone generic record repeating the reason adds no line', () => {
    const generic: Failure = {
      kind: 'generic',
      title: 'check failed',
      message: 'the target accepted a plain JSON body',
    };
    expect(toJunitXml(withRecords([generic]))).not.toContain('failure: [generic]');
  });

  it('report.html shows a failures table', () => {
    const page = toHtml(withRecords([accepted]), { resultsSha256: 'a'.repeat(64) });
    expect(page).toContain('<h5>Failures</h5>');
    expect(page).toContain('<code>negative-accepted</code>');
  });

  it("a HAR entry's comment names the failure found in it, and only that entry's", () => {
    const har = harOf(harItemsOf(withRecords([accepted])));
    const commented = har.log.entries.filter((e) => e.comment?.includes('failed: jose.plain-json-refused:'));
    expect(commented).toHaveLength(1);
    expect(commented[0]!.comment).toContain(
      'failed: jose.plain-json-refused: [negative-accepted] negative case not refused: S1 plain JSON document, not sealed (HTTP 201, accepted)',
    );
    // the entry is the exchange: the record's index is not repeated there
    expect(commented[0]!.comment).not.toContain('(exchange');
  });
});

describe("the matrix's judge reads the records", () => {
  const fault = { id: 'f', requirements: ['JOSE-01'] };
  const judged = (failures: Failure[], reason = 'jose: not refused'): JudgedResult => ({
    checkId: 'jose.x',
    verdict: 'fail',
    reason,
    level: 'MUST',
    requirements: ['JOSE-01', 'JOSE-05'],
    failures,
  });

  it("caught when a record holding the fragment breaks one of the fault's ids", () => {
    const j = judgeFault(fault, 'uat', [judged([accepted])], [{ check: 'jose.x', reason: 'S1 plain JSON' }]);
    expect(j.matched).toEqual(['jose.x']);
  });

  it("not caught when that record breaks another id only, whatever the reason's text says", () => {
    const other: Failure = { ...accepted, requirements: ['JOSE-05'] };
    const j = judgeFault(
      fault,
      'uat',
      [judged([other], 'S1 plain JSON document')],
      [{ check: 'jose.x', reason: 'S1 plain JSON' }],
    );
    expect(j.unmet).toEqual(['jose.x: the failure holding "S1 plain JSON" breaks JOSE-05, none of JOSE-01']);
  });

  it("falls back to the reason's text when no record holds the fragment", () => {
    const j = judgeFault(
      fault,
      'uat',
      [judged([accepted], 'family: S1 and S2 both')],
      [{ check: 'jose.x', reason: 'S1 and S2' }],
    );
    expect(j.matched).toEqual(['jose.x']);
  });
});

// the type of a result keeps its records optional: a pass has none
const _pass: CheckResult['failures'] = undefined;
void _pass;
