import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { tempDirs } from '../fixtures/tmp.ts';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toJunitXml } from '../../lib/report/junit.ts';
import { fixtureResults } from '../fixtures/results.ts';

const XSD = join(import.meta.dirname, '../fixtures/junit-10.xsd');
const dir = tempDirs('junit-')();

/** Validate with Debian's xmllint against the Jenkins xUnit schema. Absent xmllint is a failure, not a skip. */
function xmllint(xml: string, name: string): { ok: boolean; out: string } {
  const file = join(dir, name);
  writeFileSync(file, xml, 'utf8');
  const r = spawnSync('xmllint', ['--noout', '--schema', XSD, file], { encoding: 'utf8', timeout: 20_000 });
  if (r.error)
    throw new Error(`xmllint is not available (${r.error.message}): install it with apt-get install -y libxml2-utils`);
  return { ok: r.status === 0, out: `${r.stdout}${r.stderr}` };
}

describe('toJunitXml', () => {
  it('validates against junit-10.xsd with every verdict, nasty characters and run errors', () => {
    const xml = toJunitXml(fixtureResults({ runErrors: ['profile invalid: <tls> & "quotes"\u0000'] }));
    const r = xmllint(xml, 'all.xml');
    expect(r.out).toContain('validates');
    expect(r.ok).toBe(true);
  });

  it('validates with --fail-on should and with an empty run', () => {
    expect(xmllint(toJunitXml(fixtureResults({ failOn: 'should' })), 'should.xml').ok).toBe(true);
    const empty = { ...fixtureResults(), profiles: [] };
    expect(xmllint(toJunitXml(empty), 'empty.xml').ok).toBe(true);
  });

  it('the schema has teeth: it refuses <properties> inside <testcase> (what Vitest writes for annotations)', () => {
    const bad =
      '<?xml version="1.0"?><testsuites><testsuite name="s" tests="1" failures="0" errors="0"><testcase name="t"><properties><property name="a" value="b"/></properties></testcase></testsuite></testsuites>';
    expect(xmllint(bad, 'bad.xml').ok).toBe(false);
  });

  it('one testsuite per profile × suite, one testcase per result, names starting with the requirement ids', () => {
    const xml = toJunitXml(fixtureResults());
    expect(xml).toContain('<testsuite name="mock-uat / jose" tests="3" failures="1" errors="0" skipped="0"');
    expect(xml).toContain('<testsuite name="mock-sandbox / jose" tests="1" failures="0" errors="0" skipped="1"');
    expect(xml).toContain('<testcase name="JOSE-01 JOSE-05 plain JSON request is refused" classname="mock-uat.jose"');
    expect(xml.match(/<testcase /g)?.length).toBe(15);
    expect(xml).not.toMatch(/<testcase[^>]*>\s*<properties/);
  });

  it('maps verdicts: failures carry expected vs observed; warn passes with system-out; skips keep their reason', () => {
    const xml = toJunitXml(fixtureResults());
    const failing =
      /<testcase name="JOSE-01 JOSE-05[^"]*" classname="mock-uat.jose"[^>]*>\s*<failure message="([^"]*)" type="fail">([^<]*)<\/failure>/.exec(
        xml,
      );
    expect(failing?.[1]).toContain('accepted a plain JSON body');
    expect(failing?.[2]).toContain('expected: HTTP 400');
    expect(failing?.[2]).toContain('observed: HTTP 201');
    expect(xml).toMatch(/<testcase name="JOSE-05 flattened[^>]*>\s*<system-out>WARNING/);
    expect(xml).toContain('<skipped message="not run: needs --destructive on a real target" type="not-run">');
    expect(xml).toContain(
      '<skipped message="expected failure: known deviation BANK-123: workflow not configured in UAT" type="expected-fail">',
    );
    expect(xml).toContain('<skipped message="inconclusive: refused with 403');
    expect(xml).toContain('<skipped message="not applicable: JOSE sealing applies');
    expect(xml).toContain('type="unexpected-pass"');
    // a harness error is not the target failing: an <error>, counted in errors (the suite's and the total)
    expect(xml).toMatch(/<error message="harness error: ECONNRESET[^"]*" type="error">/);
    expect(xml).toMatch(/<testsuite name="mock-uat \/ conv" tests="\d+" failures="0" errors="1"/);
    expect(xml).toMatch(/<testsuites [^>]*failures="3" errors="1"/);
    // warn fails the run with --fail-on should
    expect(toJunitXml(fixtureResults({ failOn: 'should' }))).toMatch(
      /<testcase name="JOSE-05 flattened[^>]*>\s*<failure [^>]*type="warn"/,
    );
  });

  it('run errors become <error> testcases so that a broken profile is never green', () => {
    const xml = toJunitXml(fixtureResults({ runErrors: ['target unreachable'] }));
    expect(xml).toContain('<testsuite name="mock-uat / run" tests="1" failures="0" errors="1"');
    expect(xml).toContain('<error message="target unreachable" type="run-error">');
    expect(xml).toMatch(/<testsuites [^>]*errors="2"/); // the run error and the fixture's harness error
  });

  it('escapes markup and strips characters XML 1.0 forbids', () => {
    const xml = toJunitXml(fixtureResults());
    expect(xml).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\uFFFE\uFFFF]/);
    expect(xml).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
    expect(xml).toContain('amp&amp; lt&lt; gt&gt; quot&quot;');
    expect(xml).toContain('emoji😀');
    expect(xml).not.toContain('<script');
  });

  it("fits GitLab's parser: the text of each <failure>/<skipped> (what GitLab shows) starts with the reason, and the file still validates", () => {
    const xml = toJunitXml(fixtureResults());
    const file = join(dir, 'gitlab.xml');
    writeFileSync(file, xml, 'utf8');
    const text = (xpath: string): string => {
      const r = spawnSync('xmllint', ['--xpath', xpath, file], { encoding: 'utf8', timeout: 20_000 });
      return r.stdout;
    };
    expect(text('string(//testcase[starts-with(@name, "JOSE-01 ")]/failure)')).toMatch(
      /^the target accepted a plain JSON body on a sealed endpoint and created the transfer\n\ncheck: /,
    );
    expect(text('string(//testcase[starts-with(@name, "QUOTA-01 ")]/skipped)')).toMatch(
      /^not run: needs --destructive on a real target\n/,
    );
    // every testcase name starts with a requirement id (or, for a run error, says so)
    const names = [...xml.matchAll(/<testcase name="([^"]*)"/g)].map((m) => m[1]!);
    expect(names.every((n) => /^([A-Z]+-\d+ |run error )/.test(n))).toBe(true);
    expect(xmllint(xml, 'gitlab-valid.xml').ok).toBe(true);
  });
});
