import { describe, expect, it } from 'vitest';
import { CliError, DEFAULT_PROFILES, parseCertifyArgs } from '../../lib/cli/args.ts';
import type { CertifyArgs } from '../../lib/cli/args.ts';
import { colorAllowed, createProgress, failureLines, LINE_MAX, overallLine } from '../../lib/cli/progress.ts';
import { applyWaivers } from '../../lib/engine/verdict.ts';
import { summaryLine } from '../../lib/report/summary.ts';
import { fixtureResults } from '../fixtures/results.ts';
import { sink } from '../fixtures/sink.ts';

const parse = (argv: string[], knownSuites?: string[]): CertifyArgs => {
  const r = parseCertifyArgs(argv, knownSuites ? { knownSuites } : {});
  if ('help' in r) throw new Error('unexpected help');
  return r;
};
const usageError = (argv: string[], pattern: RegExp, knownSuites?: string[]): void => {
  let caught: unknown;
  try {
    parseCertifyArgs(argv, knownSuites ? { knownSuites } : {});
  } catch (e) {
    caught = e;
  }
  expect(caught).toBeInstanceOf(CliError);
  expect(caught).toMatchObject({ code: 'CLI_USAGE', message: expect.stringMatching(pattern) });
  expect((caught as Error).message).not.toMatch(/\.\./); // no doubled full stop
};

describe('parseCertifyArgs', () => {
  it('defaults: the two mock profiles, reports/, fail on MUST', () => {
    expect(parse([])).toEqual({
      profiles: [...DEFAULT_PROFILES],
      suites: [],
      only: [],
      out: 'reports',
      long: false,
      destructive: false,
      failOn: 'must',
      list: false,
      freshKeys: false,
    });
  });

  it('repeatable options, comma lists for ids and suites, flags', () => {
    const a = parse([
      '--profile',
      'p1.json',
      '--profile=p,2.json',
      '--suite',
      'jose',
      '--suite',
      'tls,oauth',
      '--only',
      'jose-01',
      '--only',
      'TOK-03,MASK-01',
      '--grep',
      'refused$',
      '--out',
      'out',
      '--long',
      '--destructive',
      '--fail-on',
      'should',
      '--list',
      '--fresh-keys',
    ]);
    expect(a).toEqual({
      profiles: ['p1.json', 'p,2.json'],
      suites: ['jose', 'tls', 'oauth'],
      only: ['JOSE-01', 'TOK-03', 'MASK-01'],
      grep: 'refused$',
      out: 'out',
      long: true,
      destructive: true,
      failOn: 'should',
      list: true,
      freshKeys: true,
    });
  });

  it('--help and -h return the help text', () => {
    for (const h of [['--help'], ['-h'], ['--profile', 'x', '--help']]) {
      const r = parseCertifyArgs(h);
      expect('help' in r && r.help).toMatch(
        /Usage: npm run certify[\s\S]*--fail-on[\s\S]*Exit codes:\s+0 {2}PASS[\s\S]*2 {2}configuration error[\s\S]*5 {2}INCOMPLETE/,
      );
    }
  });

  it('bad command lines are CLI_USAGE errors naming the option', () => {
    usageError(['--bogus'], /--bogus/);
    usageError(['--fail-on', 'may'], /--fail-on must be "must" or "should", not "may"/);
    usageError(['--only', 'JOSE-99'], /--only: unknown requirement id JOSE-99/);
    usageError(['--out'], /--out/);
    usageError(['--long=yes'], /--long/);
    usageError(['stray'], /stray/);
    usageError(['--list=3'], /--list/);
    usageError(['--grep', '(('], /--grep/);
    usageError(['--grep', ''], /--grep/);
    usageError(['--suite', 'no such'], /--suite/);
    usageError(['--suite', 'quota'], /unknown suite "quota" \(known: jose, tls\)/, ['jose', 'tls']);
    expect(parse(['--suite', 'tls'], ['jose', 'tls']).suites).toEqual(['tls']);
  });
});

describe('progress', () => {
  const r = fixtureResults();
  const uat = r.profiles[1]!;
  const jose = uat.results.filter((x) => x.suite === 'jose');

  it('plain lines when not on a terminal: no control characters, a profile printed as one block, columns aligned, lines bounded', () => {
    const out = sink();
    const p = createProgress(out, { tty: false });
    p.profileStarted('mock-uat', { jose: jose.length, misc: 1 });
    p.checkDone(
      'mock-uat',
      uat.results.find((x) => x.suite === 'misc')!,
    ); // nasty characters, another suite
    for (const c of jose) p.checkDone('mock-uat', c);
    expect(out.text).toBe('mock-uat: started (4 checks)\n'); // nothing more until the profile is done
    p.profileDone('mock-uat', summaryLine(uat, 'must'));
    expect(out.text).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
    const lines = out.text.trimEnd().split('\n');
    expect(lines.every((l) => l.length <= LINE_MAX)).toBe(true);
    expect(lines[0]).toBe('mock-uat: started (4 checks)');
    // by suite, then requirement id: jose's checks, its suite line, then misc; a problem says why first
    expect(lines[1]).toMatch(
      /^ {2}mock-uat \/ jose {9}JOSE-01 JOSE-05 {4}fail {13}the target accepted a plain JSON body on a sealed endpoint and created the transfer — plain JSON/,
    );
    const suiteAt = lines.indexOf('mock-uat / jose: 3/3 checks (1 pass, 1 fail, 1 warning)');
    expect(suiteAt).toBeGreaterThan(3);
    expect(lines[suiteAt + 1]).toMatch(/^ {2}mock-uat \/ misc {9}\S+ +fail/);
    // the id and verdict columns start at the same place on every check line
    const checkLines = lines.filter((l) => /^ {2}mock-uat \/ /.test(l));
    expect(new Set(checkLines.map((l) => l.search(/(pass|fail|warning) /))).size).toBe(1);
    expect(new Set(checkLines.map((l) => l.search(/JOSE|MISC|[A-Z]+-\d/))).size).toBe(1);
    expect(lines.at(-1)).toBe(
      'mock-uat: 2 passed, 2 failed, 1 warning, 2 not run, 0 n/a, 1 inconclusive, 1 expected failure, 1 unexpected pass, 1 harness error — FAIL',
    );
  });

  it('two profiles at once: their lines never interleave; suite lines name every verdict (no "other")', () => {
    const out = sink();
    const p = createProgress(out, { tty: false });
    p.profileStarted('a', { jose: 2, conv: 1 });
    p.profileStarted('b', { jose: 1 });
    p.checkDone('a', jose[0]!);
    p.checkDone('b', jose[1]!);
    p.checkDone('a', jose[2]!);
    p.checkDone(
      'a',
      uat.results.find((x) => x.verdict === 'error')!,
    );
    p.profileDone('b', 'b: done');
    p.profileDone('a', 'a: done');
    const lines = out.text.trimEnd().split('\n');
    const firstA = lines.findIndex((l) => l.startsWith('  a /'));
    const lastA = lines.indexOf('a: done');
    // a check's line, its wrapped continuation (indented), or a suite line of profile a
    const between = lines.slice(firstA, lastA);
    expect(between.length).toBeGreaterThan(0);
    expect(between.filter((l) => !/^( {2}a \/| {6,}\S|a \/)/.test(l))).toEqual([]);
    expect(lines.indexOf('b: done')).toBeLessThan(firstA);
    expect(out.text).toContain('1 harness error');
    expect(out.text).not.toContain('other');
  });

  it('the end of the log lists what failed and what was not verified: id, verdict, the reason first (wrapped, not cut), then the title', () => {
    const long = 'expected 401, observed 404 '.repeat(12).trim();
    const results = fixtureResults();
    const target = results.profiles[1]!.results.find((x) => x.verdict === 'fail')!;
    target.reason = long;
    const lines = failureLines(results);
    const failedAt = lines.findIndex((l) => /^Failed \(\d+\):$/.test(l));
    const openAt = lines.findIndex((l) => /^Not verified \(\d+\):$/.test(l));
    expect(failedAt).toBeGreaterThanOrEqual(0);
    expect(openAt).toBeGreaterThan(failedAt);
    // at least one entry, each line an entry's head (id, verdict, reason) or its wrapped continuation
    const failed = lines.slice(failedAt + 1, openAt);
    expect(failed.length).toBeGreaterThan(0);
    expect(
      failed.filter((l) => !/^( {2}mock-(uat {4}|sandbox) {2}\S+.* (fail|unexpected pass) +\S| {8,}\S)/.test(l)),
    ).toEqual([]);
    expect(lines.every((l) => l.length <= LINE_MAX)).toBe(true);
    // one column for the verdicts, whatever the profile's name and the check's id
    const heads = lines.filter((l) => /^ {2}mock-/.test(l));
    expect(
      new Set(heads.map((l) => l.search(/ (fail|unexpected pass|not run|inconclusive|harness error) /))).size,
    ).toBe(1);
    // the whole reason is there, before the title, and the check id closes the entry
    const entry = failed
      .join('\n')
      .split(/\n(?= {2}\S)/)
      .find((e) => e.includes(target.checkId))!
      .replace(/\n +/g, ' ');
    expect(entry).toContain(`fail             ${long} — ${target.title} [${target.checkId}]`);
    const open = lines.slice(openAt + 1).join('\n');
    expect(open).toMatch(/not run +needs tls\.negativeCertificates\.weak1024 in the profile — /);
  });

  it('on a terminal: a live status line rewritten in place, problems and finished suites kept above it', () => {
    const out = sink();
    const p = createProgress(out, { tty: true, color: false });
    p.profileStarted('mock-uat', { jose: 3 });
    for (const c of jose) p.checkDone('mock-uat', c);
    p.profileDone('mock-uat', 'mock-uat: … — FAIL');
    expect(out.text).toContain('\r\u001b[2Kmock-uat: 0/3 checks');
    expect(out.text).toContain('\nmock-uat: 1/3 checks');
    expect(out.text).toMatch(
      /\r\u001b\[2K {2}mock-uat \/ jose {9}JOSE-01 JOSE-05 +fail +the target accepted a plain JSON body[^\n]*\n/,
    );
    expect(out.text).toContain('mock-uat / jose: 3/3 checks (1 pass, 1 fail, 1 warning)\n');
    expect(out.text).not.toMatch(/ {2}mock-uat \/ jose {9}\S+ +pass/); // passes only move the counter
    expect(out.text.endsWith('mock-uat: … — FAIL\n')).toBe(true);
  });

  it('a problem reads the same on a terminal and in a pipe', () => {
    const run = (tty: boolean): string[] => {
      const out = sink();
      const p = createProgress(out, { tty, color: false });
      p.profileStarted('mock-uat', { jose: 3 });
      for (const c of jose) p.checkDone('mock-uat', c);
      p.profileDone('mock-uat', 'mock-uat: … — FAIL');
      // the terminal's status line is rewritten in place: keep what stays on screen
      return out.text
        .split('\n')
        .map((l) => l.split('\r\u001b[2K').at(-1)!)
        .filter((l) => / (fail|warning) /.test(l) || /^ {6,}\S/.test(l));
    };
    const piped = run(false);
    expect(piped.length).toBeGreaterThanOrEqual(2);
    expect(run(true)).toEqual(piped);
  });

  it('colour only when neither NO_COLOR nor CI is set', () => {
    expect(colorAllowed({})).toBe(true);
    expect(colorAllowed({ NO_COLOR: '1' })).toBe(false);
    expect(colorAllowed({ CI: 'true' })).toBe(false);
  });

  it('after a run of several profiles, one line with the overall verdict', () => {
    expect(overallLine(r)).toBe('overall: FAIL (mock-sandbox INCOMPLETE, mock-uat FAIL)');
    expect(overallLine({ ...r, profiles: [r.profiles[0]!] })).toBeUndefined();
  });

  it('summary lines: INCOMPLETE with a MUST not run, PASS once it is waived, NOTHING RAN, run errors', () => {
    const sandbox = r.profiles[0]!;
    // tok.expiry (TOK-03, MUST) is not run: the rule was not verified
    expect(summaryLine(sandbox, 'must')).toBe(
      'mock-sandbox: 2 passed, 0 failed, 0 warnings, 1 not run, 1 n/a — INCOMPLETE',
    );
    const waived = applyWaivers(sandbox.results, [{ id: 'TOK-03', reason: 'no test clock in this sandbox' }]);
    expect(waived.find((x) => x.checkId === 'tok.expiry')?.waived).toBe('no test clock in this sandbox');
    expect(summaryLine({ ...sandbox, results: waived }, 'must')).toBe(
      'mock-sandbox: 2 passed, 0 failed, 0 warnings, 1 not run, 1 n/a, 1 waived — PASS',
    );
    expect(
      summaryLine({ ...sandbox, results: sandbox.results.filter((x) => x.verdict === 'not-run') }, 'must'),
    ).toMatch(/— NOTHING RAN$/);
    expect(summaryLine({ ...sandbox, results: waived, errors: ['the conformance run failed: boom'] }, 'must')).toMatch(
      /1 run error — INCOMPLETE$/,
    );
  });
});
