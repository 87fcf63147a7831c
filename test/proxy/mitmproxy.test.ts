/**
 * certify of the UAT mock through a real intercepting proxy, Debian's mitmproxy (mitmdump, installed by .ci/run):
 *  - plain CONNECT (mitmdump --ignore-hosts '.*', passthrough): the verdicts of the run without it, the client
 *    certificate intact, except TLS-06 (the target sees the proxy's source address: inconclusive, said so);
 *  - re-terminating TLS, set up and run as README.md's mitmproxy recipe says (its lines read from the README: the
 *    client certificate in client_certs, the bank's CA trusted upstream, certify with --proxy-ca and --har): the
 *    checks it can judge give the verdicts of the direct run; the others are inconclusive and say why (the TLS
 *    suite's handshake checks; what needs another client's certificate than the one the proxy presents: the
 *    partner's client-credentials token and the checks behind it); nothing fails; the HAR holds one entry for each
 *    flow mitmdump saw;
 *  - a proxy never fails the bank: with --proxy alone (the proxy's certificate not trusted) TLS-05 is inconclusive,
 *    and a mitmdump that does not trust the bank's CA upstream leaves the prerequisite tls-handshake inconclusive,
 *    naming what to pass; neither is a FAIL.
 * The whole certification (--destructive: the races' bursts too), so every kind of connection the harness opens goes
 * through the proxy: API and OAuth calls, bursts, TLS probes, raw ClientHellos, the prerequisite handshake.
 * The mock closes in stages after its early 413 to an oversized body (lib/mock/server/http.ts closeInStages), so that
 * answer reaches through both proxies; a mock that closes at once (abortiveClose) has mitmproxy answer 502 or reset
 * instead, which is the proxy's answer, never judged as the bank's: what mitmdump saved says which it was.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockBank } from '../../lib/mock/index.ts';
import type { MockBank } from '../../lib/mock/types.ts';
import { testPki } from '../../lib/pki/index.ts';
import { parseResults } from '../../lib/report/json.ts';
import type { Har } from '../../lib/report/har.ts';
import { runCertify, type CertifyRun } from '../cli/run-certify.ts';
import { tempDirs } from '../fixtures/tmp.ts';
import { mitmdumpMissing, savedFlows, startMitmdump, type Mitmdump, type SavedFlow } from './mitmdump.ts';

const tmp = tempDirs('proxy-mitm-');
/** ids inconclusive through any proxy: the target sees the proxy's source address */
const THROUGH_ANY_PROXY = ['tls.source-address-allow-list'];

/** the lines of README.md's "Through your own proxy" shell blocks that start with `command`, comments cut */
function recipeLines(command: string): string[] {
  const readme = readFileSync(join(import.meta.dirname, '../../README.md'), 'utf8');
  const section = readme.split(/^### /m).find((x) => x.startsWith('Through your own proxy')) ?? '';
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)]
    .flatMap((m) => m[1]!.split('\n'))
    .map((l) => l.replace(/\s+#.*$/, '').trim())
    .filter((l) => l.startsWith(command));
}

/** the README's one line that starts with `command` and contains every marker, its words with `files` replaced */
function recipe(command: string, markers: string[], files: Record<string, string>): string[] {
  const lines = recipeLines(command).filter((l) => markers.every((m) => l.includes(m)));
  if (lines.length !== 1) throw new Error(`README.md: ${lines.length} lines "${command} … ${markers.join(' ')}"`);
  return lines[0]!
    .slice(command.length)
    .trim()
    .split(/\s+/)
    .map((w) => Object.entries(files).reduce((a, [from, to]) => a.split(from).join(to), w));
}

/** mitmdump as the README's recipe starts it, on a port the system picks, trusting `bankCa` upstream (client.pem in `dir`) */
async function recipeMitmdump(dir: string, bankCa: string): Promise<Mitmdump> {
  const args = recipe('mitmdump', ['client_certs'], {
    '8080': '0',
    'client.pem': join(dir, 'client.pem'),
    'bank-ca.pem': bankCa,
  });
  return startMitmdump(tmp(), args);
}

/** the README's certify line through `proxy`, its files replaced */
function recipeCertify(proxy: Mitmdump, profilePath: string, har: string): string[] {
  return recipe('npm run certify --', ['--proxy-ca', '--har'], {
    'http://127.0.0.1:8080': proxy.url,
    '~/.mitmproxy/mitmproxy-ca-cert.pem': proxy.caFile,
    'my.jsonc': profilePath,
    'run.har': har,
  });
}

let mock: MockBank | undefined;
let abortive: MockBank | undefined;
let quotaMock: MockBank | undefined;
const proxies: Mitmdump[] = [];
let profile: string;
let missing: string | undefined;
type RunName = 'direct' | 'passthrough' | 'intercepting' | 'abortive' | 'proxyAlone' | 'noUpstreamTrust' | 'quota';
const runs: Record<RunName, { run: CertifyRun; out: string }> = {} as never;
/** what the README-recipe mitmdump saw of the intercepting run, and of the abortive one (read once each stopped) */
let interceptedFlows: SavedFlow[] = [];
let abortiveFlows: SavedFlow[] = [];
let harFile = '';

interface Outcome {
  verdict: string;
  reason?: string;
}
function outcomes(out: string): Map<string, Outcome> {
  const r = parseResults(readFileSync(join(out, 'results.json'), 'utf8')).profiles[0]!;
  const m = new Map<string, Outcome>();
  for (const c of r.results) m.set(c.checkId, { verdict: c.verdict, ...(c.reason ? { reason: c.reason } : {}) });
  for (const p of r.prerequisites ?? [])
    m.set(`prerequisite ${p.id}`, { verdict: p.verdict, ...(p.reason ? { reason: p.reason } : {}) });
  return m;
}

beforeAll(async () => {
  missing = mitmdumpMissing();
  if (missing) return;
  mock = await startMockBank({ mode: 'uat', pki: await testPki() });
  const dir = tmp();
  const p = mock.profile('proxied-uat');
  profile = join(dir, 'proxied-uat.json');
  writeFileSync(profile, JSON.stringify(p));
  chmodSync(profile, 0o600);
  // the README's recipe: the code client's certificate and key for the proxy (its `cat` line, as written), the
  // bank's CA (the profile's tls.caCertificate) for the proxy's upstream trust
  const code = p.clients.code!;
  writeFileSync(join(dir, 'client.crt'), `${code.certificate}\n`);
  writeFileSync(join(dir, 'client.key'), `${code.privateKey}\n`, { mode: 0o600 });
  const [cat] = recipeLines('cat ');
  const made = spawnSync('sh', ['-c', cat!], { cwd: dir, encoding: 'utf8' });
  if (made.status !== 0) throw new Error(`README.md: ${cat}: ${made.stderr}`);
  const bankCa = join(dir, 'bank-ca.pem');
  writeFileSync(bankCa, String(p.tls!.caCertificate));
  const passthrough = await startMitmdump(tmp(), ['--ignore-hosts', '.*']);
  const intercepting = await recipeMitmdump(dir, bankCa);
  // the setup the README once gave: the client certificate only, the bank's CA not trusted upstream
  const untrusting = await startMitmdump(tmp(), ['--set', `client_certs=${join(dir, 'client.pem')}`]);
  proxies.push(passthrough, intercepting, untrusting);
  const certify = async (args: string[]): Promise<{ run: CertifyRun; out: string }> => {
    const out = join(dir, `out-${Math.random().toString(36).slice(2)}`);
    return { run: await runCertify([...args, '--out', out], 300_000), out };
  };
  harFile = join(dir, 'intercepted.har');
  runs.direct = await certify(['--profile', profile, '--destructive']);
  runs.passthrough = await certify(['--profile', profile, '--destructive', '--proxy', passthrough.url]);
  runs.intercepting = await certify(recipeCertify(intercepting, profile, harFile));
  // mitmdump writes its last flows when it stops
  await intercepting.stop();
  interceptedFlows = savedFlows(intercepting.flowsFile);
  runs.proxyAlone = await certify(['--profile', profile, '--only', 'TLS-05', '--proxy', untrusting.url]);
  runs.noUpstreamTrust = await certify([
    '--profile',
    profile,
    '--suite',
    'transfers',
    '--proxy',
    untrusting.url,
    '--proxy-ca',
    untrusting.caFile,
  ]);
  // a bank that closes at once after its early 413: the reset of the unread body reaches the proxy first
  abortive = await startMockBank({ mode: 'uat', pki: await testPki(), abortiveClose: true });
  const abortiveProfile = join(dir, 'abortive-uat.json');
  writeFileSync(abortiveProfile, JSON.stringify(abortive.profile('abortive-uat')));
  chmodSync(abortiveProfile, 0o600);
  const abortiveProxy = await recipeMitmdump(dir, bankCa);
  proxies.push(abortiveProxy);
  runs.abortive = await certify([
    '--profile',
    abortiveProfile,
    '--only',
    'HARD-04',
    '--proxy',
    abortiveProxy.url,
    '--proxy-ca',
    abortiveProxy.caFile,
  ]);
  await abortiveProxy.stop();
  abortiveFlows = savedFlows(abortiveProxy.flowsFile);
  // a bank whose plan allows one API call an hour: the masking checks' calls are answered 429, the bank's quota
  quotaMock = await startMockBank({ mode: 'uat', pki: await testPki(), planPerHour: 1 });
  const quotaProfile = join(dir, 'quota-uat.json');
  writeFileSync(quotaProfile, JSON.stringify(quotaMock.profile('quota-uat')));
  chmodSync(quotaProfile, 0o600);
  const quotaProxy = await recipeMitmdump(dir, bankCa);
  proxies.push(quotaProxy);
  runs.quota = await certify([
    '--profile',
    quotaProfile,
    '--suite',
    'masking',
    '--destructive',
    '--proxy',
    quotaProxy.url,
    '--proxy-ca',
    quotaProxy.caFile,
  ]);
}, 900_000);

afterAll(async () => {
  await Promise.allSettled(proxies.map((p) => p.stop()));
  await mock?.close();
  await abortive?.close();
  await quotaMock?.close();
});

/**
 * what the abortive run must say, from what mitmdump saved: the bank's 413 passed on in one attempt (pass), or every
 * attempt answered by the proxy (its 502) or reset (inconclusive, said as the proxy's)
 */
function abortiveExpected(): { verdict: string; reason: RegExp } {
  return abortiveFlows.some((f) => f.status === 413)
    ? { verdict: 'pass', reason: /^/ }
    : { verdict: 'inconclusive', reason: /no HTTP answer in \d+ attempts .*(PROXY_BAD_GATEWAY|ECONNRESET)/ };
}

describe('certify through mitmproxy', () => {
  it('mitmdump is installed (.ci/run installs it)', () => {
    expect(missing, missing).toBeUndefined();
  });

  it('the direct run breaks nothing (the clean UAT mock; exit 5: a rule the embedded mock cannot show stays unverified)', () => {
    expect(runs.direct.run.code, runs.direct.run.stderr).toBe(5);
    const broken = [...outcomes(runs.direct.out)].filter(([, o]) => o.verdict === 'fail' || o.verdict === 'error');
    expect(broken).toEqual([]);
    expect([...outcomes(runs.direct.out).values()].filter((o) => o.verdict === 'pass').length).toBeGreaterThan(60);
  });

  it("through a plain CONNECT tunnel: the direct run's verdicts, TLS-06 inconclusive naming the proxy", () => {
    const direct = outcomes(runs.direct.out);
    const through = outcomes(runs.passthrough.out);
    expect([...through.keys()].sort()).toEqual([...direct.keys()].sort());
    const differ = [...direct].filter(([id, o]) => through.get(id)!.verdict !== o.verdict).map(([id]) => id);
    expect(differ).toEqual(THROUGH_ANY_PROXY);
    for (const id of THROUGH_ANY_PROXY) {
      expect(through.get(id)!.verdict).toBe('inconclusive');
      expect(through.get(id)!.reason).toContain(`through the proxy ${proxies[0]!.url}`);
    }
    // the client certificates reached the bank intact: the mutual-TLS checks passed as they do directly
    expect(through.get('tls.client-certificate-required')!.verdict).toBe('pass');
    expect(through.get('tls.unregistered-client-certificate-refused')!.verdict).toBe('pass');
    expect(runs.passthrough.run.stderr).toContain(`certify: through the proxy ${proxies[0]!.url}`);
  });

  it("through the README's mitmproxy recipe: nothing fails; what differs is inconclusive and says why", () => {
    const direct = outcomes(runs.direct.out);
    const through = outcomes(runs.intercepting.out);
    expect(runs.intercepting.run.code, runs.intercepting.run.stderr).toBe(5);
    expect(runs.intercepting.run.stdout).not.toMatch(/\bfail\b/);
    const differ = [...direct].filter(([id, o]) => through.get(id)!.verdict !== o.verdict);
    for (const [id] of differ) {
      const o = through.get(id)!;
      expect(o.verdict, id).toBe('inconclusive');
      // said directly, or by the prerequisite that the proxy's client certificate broke
      expect(o.reason, id).toMatch(/re-terminates TLS/);
    }
    // named: every TLS handshake check, and the partner's token (the proxy presents the code client's certificate)
    const named = differ.map(([id]) => id);
    for (const id of [...direct.keys()].filter((i) => i.startsWith('tls.'))) expect(named).toContain(id);
    expect(named).toContain('prerequisite client-credentials-token');
    // the prerequisite handshake went through: the proxy trusted the bank's CA upstream, as the recipe says
    expect(through.get('prerequisite tls-handshake')!.verdict).toBe('pass');
    // the certificate the harness saw is the proxy's: not given as the target's fingerprint (a tunnel's is the bank's)
    const fingerprint = (out: string): string | undefined =>
      parseResults(readFileSync(join(out, 'results.json'), 'utf8')).profiles[0]!.target.serverCertificateSha256;
    expect(fingerprint(runs.intercepting.out)).toBeUndefined();
    expect(fingerprint(runs.passthrough.out)).toBe(fingerprint(runs.direct.out));
    expect(fingerprint(runs.direct.out)).toMatch(/^[0-9a-f]{64}$/);
    // the 413 to an oversized body, sent before the body was read, reaches through it (the mock closes in stages)
    expect(through.get('conventions.oversize-body-413')!.verdict).toBe('pass');
    // what the proxy does not change is judged as without it: the transfers suite, the code flow's tokens
    const same = [...direct].filter(([id, o]) => through.get(id)!.verdict === o.verdict && o.verdict === 'pass');
    expect(same.map(([id]) => id)).toEqual(
      expect.arrayContaining([
        'transfers.validate-pre-confirmation',
        'transfers.create-returns-reference',
        'tokens.code-token-fields',
      ]),
    );
  });

  it("a quota answer through the proxy is the bank's: not blamed on the proxy", () => {
    // the answers a reason names (not what it expected): all of them the bank's 429
    const quotaOnly = (r: string | undefined): boolean => {
      const named = [...(r ?? '').matchAll(/(?<!expected )HTTP (\d{3})|observed (\d{3})/g)].map((m) => m[1] ?? m[2]);
      return named.length > 0 && named.every((x) => x === '429');
    };
    const quota = [...outcomes(runs.quota.out)].filter(([, o]) => quotaOnly(o.reason));
    expect(quota.length, JSON.stringify([...outcomes(runs.quota.out)])).toBeGreaterThan(2);
    expect(
      quota.filter(([, o]) => /re-terminates TLS/.test(o.reason ?? '')).map(([id, o]) => `${id}: ${o.reason}`),
    ).toEqual([]);
  });

  it('a proxy never fails the bank: its own certificate with --proxy alone, and a proxy not trusting the bank upstream', () => {
    // --proxy alone through a proxy that re-terminates TLS: TLS-05 sees the proxy's certificate (issuer mitmproxy)
    expect(runs.proxyAlone.run.code, runs.proxyAlone.run.stderr).toBe(5);
    const tls05 = outcomes(runs.proxyAlone.out).get('tls.server-certificate-valid')!;
    expect(tls05.verdict).toBe('inconclusive');
    expect(tls05.reason).toContain(`through the proxy ${proxies[2]!.url} (issued by CN=mitmproxy`);
    expect(tls05.reason).toContain('--proxy-ca');
    // the proxy could not verify the bank's certificate: the prerequisite handshake (with the proxy) is inconclusive,
    // naming the proxy's upstream trust; the checks behind it are blocked, none failed
    expect(runs.noUpstreamTrust.run.code, runs.noUpstreamTrust.run.stderr).toBe(5);
    const o = outcomes(runs.noUpstreamTrust.out);
    expect(o.get('prerequisite tls-handshake')!.verdict).toBe('inconclusive');
    expect(o.get('prerequisite tls-handshake')!.reason).toContain('ssl_verify_upstream_trusted_ca');
    expect([...o.values()].filter((x) => x.verdict === 'fail')).toEqual([]);
  });

  it("a bank that closes at once after its early 413: mitmproxy's 502 is the proxy's answer, never the bank's", () => {
    const o = outcomes(runs.abortive.out).get('conventions.oversize-body-413')!;
    const expected = abortiveExpected();
    expect(o.verdict, o.reason).toBe(expected.verdict);
    expect(o.reason ?? '').toMatch(expected.reason);
  });

  it('the HAR holds one entry for each flow mitmdump saw, each request the same, bodies and sizes as sent', () => {
    const har = JSON.parse(readFileSync(harFile, 'utf8')) as Har;
    const key = (method: string, url: string): string => {
      const u = new URL(url);
      return `${method} ${u.origin}${u.pathname}`;
    };
    const entries = har.log.entries.map((e) => key(e.request.method, e.request.url)).sort();
    const flows = interceptedFlows.map((f) => key(f.method, f.url)).sort();
    // for the message: the entries mitmdump has no flow for (status, comment's last line)
    const left = [...flows];
    const unmatched = har.log.entries
      .filter((e) => {
        const i = left.indexOf(key(e.request.method, e.request.url));
        if (i >= 0) left.splice(i, 1);
        return i < 0;
      })
      .map((e) => `${e.request.method} ${e.request.url} ${e.response.status}: ${e.comment?.split('\n').at(-1) ?? ''}`);
    expect(entries, unmatched.slice(0, 5).join('\n')).toEqual(flows);
    expect(flows.filter((k) => k.endsWith('/v1/transfers/validate')).length).toBeGreaterThan(20);
    // a sealed body as sent (nothing in it to redact): its size the bytes sent
    const posted = har.log.entries.filter((e) => e.request.postData?.text.startsWith('{"protected":') === true);
    expect(posted.length).toBeGreaterThan(100);
    expect(posted.map((e) => e.request.bodySize)).toEqual(
      posted.map((e) => Buffer.byteLength(e.request.postData!.text)),
    );
  });
});
