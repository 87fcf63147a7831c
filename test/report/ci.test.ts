/**
 * Where CI users look: GitHub Actions' step summary (Markdown) and annotations (workflow commands), unit-tested on
 * the fixture results and end to end on a certify run with one failure.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { annotations, mdText, stepSummary } from '../../lib/report/ci.ts';
import { fixtureResults } from '../fixtures/results.ts';
import { tempDirs } from '../fixtures/tmp.ts';
import { runCertify } from '../cli/run-certify.ts';

const tmp = tempDirs('ci-');

describe('GitHub Actions step summary and annotations', () => {
  it('the summary: overall verdict, per-profile counts, what failed and what was not verified, each with its reason', () => {
    const md = stepSummary(fixtureResults());
    expect(md).toMatch(/^## Conformance certification: FAIL\n/);
    expect(md).toMatch(/\| mock-uat \| uat \| \*\*FAIL\*\* \| 2 \| 3 \| 1 \| 2 \| 1 \| 1 \| 0 \|/);
    expect(md).toMatch(/\| mock-sandbox \| sandbox \| \*\*INCOMPLETE\*\* \|/);
    expect(md).toMatch(
      /### What failed \(3\)\n\n- \*\*JOSE-01 JOSE-05\*\* fail \(mock-uat\): the target accepted a plain JSON body on a sealed endpoint and created the transfer — _plain JSON request is refused_/,
    );
    expect(md).toMatch(
      /### Not verified \(5\)[^\n]*\n\n(- .*\n)*- \*\*QUOTA-01\*\* not run \(mock-uat\): needs --destructive/,
    );
    // a target's text cannot inject markup
    expect(md).not.toMatch(/<script|<img/);
  });

  it('markdown text: no line breaks, no table cells, links or HTML from a target', () => {
    expect(mdText('a|b\n[x](http://e) <b>')).toBe('a\\|b \\[x\\]\\(http://e\\) &lt;b&gt;');
  });

  it('annotations: ::error per broken MUST (and unexpected pass), ::warning per broken SHOULD; a reason cannot start a command', () => {
    const r = fixtureResults();
    const nasty = r.profiles[1]!.results.find((x) => x.checkId === 'misc.nasty')!;
    nasty.reason = 'line one\n::error title=forged::injected 100%';
    const lines = annotations(r);
    // JOSE-01 (MUST, fail) and ERR-01 (unexpected pass); JOSE-05 (warning) and CONV-01 (a SHOULD that failed)
    expect(lines.filter((l) => l.startsWith('::error '))).toHaveLength(2);
    expect(lines.filter((l) => l.startsWith('::warning '))).toHaveLength(2);
    expect(lines).toContain(
      '::error title=JOSE-01 JOSE-05::the target accepted a plain JSON body on a sealed endpoint and created the transfer (mock-uat, jose.plain-json-refused: plain JSON request is refused)',
    );
    expect(lines.find((l) => l.includes('misc.nasty'))).toMatch(
      /^::warning title=CONV-01::line one%0A::error title=forged::injected 100%25/,
    );
    expect(lines.every((l) => !l.includes('\n'))).toBe(true);
  });

  it("a result's failure records: listed under its entry in the summary, one annotation each, titled with its ids", () => {
    const r = fixtureResults();
    const failing = r.profiles[1]!.results.find((x) => x.checkId === 'jose.plain-json-refused')!;
    failing.failures = [
      {
        kind: 'negative-accepted',
        title: 'negative case not refused',
        message: 'S1 plain JSON document, not sealed (HTTP 201, accepted)',
        case: 'S1',
        caseTitle: 'plain JSON document, not sealed',
        outcome: 'accepted',
        status: 201,
        expected: 'HTTP 400',
        observed: 'HTTP 201',
        exchange: 0,
      },
      {
        kind: 'status',
        title: 'unexpected HTTP status',
        message: 'get: expected HTTP 404, observed 200',
        requirements: ['JOSE-05'],
        statuses: [404],
        status: 200,
        expected: '404',
        observed: '200',
      },
    ];
    const md = stepSummary(r);
    expect(md).toContain(
      '_plain JSON request is refused_ `jose.plain-json-refused`\n' +
        '  - \\[negative-accepted\\] negative case not refused: S1 plain JSON document, not sealed \\(HTTP 201, accepted\\) \\(exchange 1\\) \\(expected HTTP 400, observed HTTP 201\\)\n' +
        '  - \\[status\\] unexpected HTTP status \\{JOSE-05\\}: get: expected HTTP 404, observed 200 \\(expected 404, observed 200\\)\n',
    );
    const lines = annotations(r).filter((l) => l.includes('jose.plain-json-refused'));
    expect(lines).toEqual([
      '::error title=JOSE-01 JOSE-05::negative case not refused: S1 plain JSON document, not sealed (HTTP 201, accepted) (expected HTTP 400, observed HTTP 201) (mock-uat, jose.plain-json-refused: plain JSON request is refused)',
      '::error title=JOSE-05::unexpected HTTP status: get: expected HTTP 404, observed 200 (expected 404, observed 200) (mock-uat, jose.plain-json-refused: plain JSON request is refused)',
    ]);
  });

  it('a certify run with one failure: the summary appended to GITHUB_STEP_SUMMARY, one ::error line for it', async () => {
    const dir = tmp();
    const profile = join(dir, 'faulty.json');
    writeFileSync(
      profile,
      JSON.stringify({ name: 'faulty-sandbox', environment: 'sandbox', embedded: { faults: ['get-no-status'] } }),
    );
    const summary = join(dir, 'summary.md');
    writeFileSync(summary, 'earlier step\n');
    const r = await runCertify(
      ['--profile', profile, '--only', 'XFER-04', '--out', join(dir, 'out')],
      240_000,
      'scripts/bin/certify.mjs',
      {
        GITHUB_STEP_SUMMARY: summary,
        GITHUB_ACTIONS: 'true',
      },
    );
    expect(r.code, r.stdout + r.stderr).toBe(1);
    const errors = r.stdout.split('\n').filter((l) => l.startsWith('::error '));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^::error title=XFER-04::\S.*\(faulty-sandbox, transfers\./);
    const md = readFileSync(summary, 'utf8');
    expect(md.startsWith('earlier step\n## Conformance certification: FAIL\n')).toBe(true);
    expect(md).toMatch(/\| faulty-sandbox \| sandbox \| \*\*FAIL\*\* \| \d+ \| 1 \|/);
    expect(md).toMatch(/### What failed \(1\)\n\n- \*\*XFER-04\*\* fail \(faulty-sandbox\): \S/);
    expect(r.stdout).not.toMatch(/\u001b\[/); // no colour codes in a CI log
  });
});
