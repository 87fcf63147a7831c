/**
 * One base for the harness's errors (lib/errors.ts): every error class declared under lib/, suites/ and scripts/
 * extends HarnessError (read with the TypeScript parser, the chain followed through the classes' names), except
 * the private sentinels listed below; instanceof, codes and exit codes hold across the hierarchy; and the codes of
 * OpenFailure (lib/jose/types.ts) are all produced by lib/jose and expected by a test of the opener, none dead.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { CliError, usage } from '../../lib/cli/errors.ts';
import { Blocked, CheckFailed, Inconclusive, NotApplicable, NotRun } from '../../lib/engine/check.ts';
import { PrerequisiteFailed, RuleBroken } from '../../lib/engine/session/prerequisite-handshake.ts';
import { QuotaAnswered } from '../../lib/engine/property/property-gate.ts';
import { Throttled } from '../../lib/engine/session/throttle/throttle.ts';
import { ConfigurationError, EXIT_CONFIGURATION, HarnessError } from '../../lib/errors.ts';
import { TransportError } from '../../lib/http/types.ts';
import { OpenRefusal } from '../../lib/jose/policy.ts';
import { OPEN_FAILURE_CODES } from '../../lib/jose/types.ts';
import { UnknownFaultError } from '../../lib/mock/fault-set.ts';
import { JsonRefused } from '../../lib/mock/jose/jose-json.ts';
import { SecondSpelling } from '../../lib/mock/jose/spelling.ts';
import { OAuthError } from '../../lib/oauth/types.ts';
import { PartnerConfigError } from '../../lib/partner/run.ts';
import { ProfileError } from '../../lib/profile/errors.ts';
import { ResultsError } from '../../lib/report/json.ts';
import { OutDirError } from '../../lib/report/outdir.ts';
import { SignError } from '../../lib/report/sign.ts';
import { ROOT } from '../../lib/root.ts';
import { TlsProbeError } from '../../lib/tls/connect.ts';

/**
 * Private sentinels that may stay plain Errors: declared, thrown and caught inside one module (never exported,
 * never reaching a caller), so no code or exit code of theirs is ever read elsewhere. Named by file name and class
 * (a module moved to another folder keeps its entry).
 */
const PRIVATE_SENTINELS = new Set([
  'prerequisite-handshake.ts CertificateRefused', // turned into a RuleBroken or PrerequisiteFailed there
  'runner.ts HarnessTimeout', // the runner's own deadline, classified as an error verdict there
  'lenient-open.ts Refused', // the lenient opener's refusal, returned as a result there
  'open-sealed.ts Refused', // the mock opener's refusal, returned as a result there
  'key-cache.ts Unusable', // a key cache file that cannot be used: new keys are generated there
  'checks.ts ControlRaced', // QUOTA-02's control raced the filling: run again in a fresh window there
]);
const sentinelKey = (c: ErrorClass): string => `${basename(c.file)} ${c.name}`;
const BUILT_IN_ERRORS = new Set(['Error', 'TypeError', 'RangeError', 'SyntaxError', 'AggregateError']);

interface ErrorClass {
  file: string;
  name: string;
  base: string;
  exported: boolean;
}

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && !f.includes('node_modules'))
    .map((f) => join(dir, f));
}

/** every `class X extends Y` declared in the files (Y by its last name: `m.Y` is Y) */
function classesIn(files: string[]): ErrorClass[] {
  const out: ErrorClass[] = [];
  for (const file of files) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, false, ts.ScriptKind.TS);
    const visit = (node: ts.Node): void => {
      if (ts.isClassDeclaration(node) && node.name) {
        const ext = node.heritageClauses?.find((h) => h.token === ts.SyntaxKind.ExtendsKeyword)?.types[0];
        if (ext) {
          const expr = ext.expression;
          const base = ts.isPropertyAccessExpression(expr) ? expr.name.text : expr.getText(sf);
          const exported = !!ts.getModifiers(node)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
          out.push({ file: relative(ROOT, join(ROOT, file)), name: node.name.text, base, exported });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return out;
}

/** the names from the class up to a root (a built-in error, HarnessError, or a class not declared in the tree) */
function chain(c: ErrorClass, byName: Map<string, ErrorClass>): string[] {
  const names = [c.name];
  let base = c.base;
  for (let i = 0; i < 20; i += 1) {
    names.push(base);
    const next = byName.get(base);
    if (!next || BUILT_IN_ERRORS.has(base) || base === 'HarnessError') break;
    base = next.base;
  }
  return names;
}

const declared = classesIn([...sources('lib'), ...sources('suites'), ...sources('scripts')]);
const errorClasses = (() => {
  const byName = new Map(declared.map((c) => [c.name, c]));
  return declared
    .map((c) => ({ ...c, chain: chain(c, byName) }))
    .filter((c) => c.chain.some((n) => BUILT_IN_ERRORS.has(n) || n === 'HarnessError'));
})();

describe('one base for the harness errors', () => {
  it('finds the error classes it judges (the scan is not empty)', () => {
    const names = errorClasses.map((c) => c.name);
    for (const n of ['HarnessError', 'CheckFailed', 'Blocked', 'OpenRefusal', 'ProfileError', 'UnknownFaultError'])
      expect(names).toContain(n);
  });

  it('every error class under lib/, suites/ and scripts/ extends HarnessError (private sentinels listed apart)', () => {
    const outside = errorClasses
      .filter((c) => c.name !== 'HarnessError' && !c.chain.includes('HarnessError'))
      .filter((c) => c.exported || !PRIVATE_SENTINELS.has(sentinelKey(c)))
      .map((c) => `${c.file} ${c.name} (${c.chain.join(' → ')})`);
    expect(outside).toEqual([]);
  });

  it('every listed private sentinel still exists, is not exported and is a plain Error', () => {
    const plain = new Set(errorClasses.filter((c) => !c.exported && c.base === 'Error').map(sentinelKey));
    for (const s of PRIVATE_SENTINELS) expect(plain, s).toContain(s);
  });

  it('instanceof, name and code hold across the hierarchy', () => {
    const blocked = new Blocked('reach-api', 'refused');
    expect(blocked).toBeInstanceOf(Inconclusive);
    expect(blocked).toBeInstanceOf(HarnessError);
    expect(blocked).toBeInstanceOf(Error);
    expect([blocked.name, blocked.code]).toEqual(['Blocked', 'CHECK_BLOCKED']);
    expect(new Inconclusive('x').code).toBe('CHECK_INCONCLUSIVE');
    expect(new Throttled('x')).toBeInstanceOf(Inconclusive);
    const broken = new RuleBroken('x', 'TLS-05');
    expect(broken).toBeInstanceOf(PrerequisiteFailed);
    expect([broken.code, new PrerequisiteFailed('x').code]).toEqual([
      'PREREQUISITE_RULE_BROKEN',
      'PREREQUISITE_FAILED',
    ]);
    const refusal = new OpenRefusal('verify', 'SIGNATURE_INVALID', 'no');
    expect([refusal instanceof HarnessError, refusal.code, refusal.message]).toEqual([true, 'SIGNATURE_INVALID', 'no']);
    expect(new SecondSpelling('x').name).toBe('SecondSpelling');
  });

  it('configuration errors exit 2; a results file that does not read exits 2, invalid results 1; the others leave it to their command', () => {
    const config: HarnessError[] = [
      usage('--out is required'),
      new ProfileError('PROFILE_INVALID', 'p.yaml', ['target.baseUrl: required']),
      new PartnerConfigError('no cert'),
      new OutDirError('not a folder'),
      new SignError('SIGN_KEY_INVALID', 'bad key'),
      new UnknownFaultError(['nope']),
    ];
    for (const e of config) {
      expect(e, e.name).toBeInstanceOf(ConfigurationError);
      expect(e.exitCode, e.name).toBe(EXIT_CONFIGURATION);
    }
    expect(usage('x')).toBeInstanceOf(CliError);
    const others: HarnessError[] = [
      new CheckFailed('x'),
      new Inconclusive('x'),
      new NotRun('x'),
      new NotApplicable('x'),
      new QuotaAnswered('x'),
      new TransportError('x', 'ECONNRESET'),
      new TlsProbeError('TLS_PROBE_SERVER_UNTRUSTED', 'x'),
      new OAuthError('TOKEN_REQUEST_FAILED', 'x'),
      new JsonRefused('x', 'duplicate'),
    ];
    // a results file a command cannot read is bad input; results the run would write invalid are a harness defect
    expect(new ResultsError('RESULTS_NOT_JSON', 'x').exitCode).toBe(EXIT_CONFIGURATION);
    expect(new ResultsError('RESULTS_WOULD_BE_INVALID', 'x').exitCode).toBe(1);
    for (const e of others) {
      expect(e, e.name).not.toBeInstanceOf(ConfigurationError);
      expect(e.exitCode, e.name).toBeUndefined();
      expect(e.code, e.name).toMatch(/^[A-Z][A-Z0-9_]+$/);
    }
  });
});

describe('OpenFailure codes', () => {
  const jose = sources('lib/jose')
    .filter((f) => !f.endsWith('types.ts'))
    .map((f) => readFileSync(join(ROOT, f), 'utf8'))
    .join('\n');

  it('every code is produced by lib/jose (none dead), each listed once with its meaning', () => {
    const table = readFileSync(join(ROOT, 'lib/jose/types.ts'), 'utf8');
    expect(new Set(OPEN_FAILURE_CODES).size).toBe(OPEN_FAILURE_CODES.length);
    for (const code of OPEN_FAILURE_CODES) {
      expect(jose, `${code} is produced`).toContain(`'${code}'`);
      expect(table, `${code} has a line in the table`).toMatch(new RegExp(`^ \\* {3}${code} +\\S`, 'm'));
    }
  });

  it('every code is the expected refusal of some test of the opener (test/jose, test/mock)', () => {
    const tests = [...sources('test/jose'), ...sources('test/mock')]
      .map((f) => readFileSync(join(ROOT, f), 'utf8'))
      .join('\n');
    const untested = OPEN_FAILURE_CODES.filter((code) => !tests.includes(`'${code}'`));
    expect(untested).toEqual([]);
  });
});
