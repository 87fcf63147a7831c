/**
 * certify of the UAT mock through a real intercepting proxy, Debian's mitmproxy (mitmdump, installed by .ci/run):
 *  - plain CONNECT (mitmdump --ignore-hosts '.*', passthrough): the verdicts of the run without it, the client
 *    certificate intact, except TLS-06 (the target sees the proxy's source address: inconclusive, said so);
 *  - re-terminating TLS (its CA given by --proxy-ca, the code client's certificate in mitmdump's client_certs):
 *    the checks it can judge give the verdicts of the direct run; the others are inconclusive and say why (the TLS
 *    suite's handshake checks; what needs another client's certificate than the one the proxy presents: the
 *    partner's client-credentials token and the checks behind it); nothing fails; the flows mitmdump saved hold
 *    every request of the run's HAR.
 * The whole certification (--destructive: the races' bursts too), so every kind of connection the harness opens goes
 * through the proxy: API and OAuth calls, bursts, TLS probes, raw ClientHellos, the prerequisite handshake.
 * The mock closes in stages after its early 413 to an oversized body (lib/mock/server/http.ts closeInStages), so that
 * answer reaches through both proxies; a mock that closes at once (abortiveClose) has mitmproxy answer 502 or reset
 * instead, which is the proxy's answer, never judged as the bank's.
 */
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
import { mitmdumpMissing, savedRequests, startMitmdump, type Mitmdump } from './mitmdump.ts';

const tmp = tempDirs('proxy-mitm-');
/** the whole certification, quota exhaustion and races (bursts) included */
const SUITES = ['--destructive'];
/** ids inconclusive through any proxy: the target sees the proxy's source address */
const THROUGH_ANY_PROXY = ['tls.source-address-allow-list'];

let mock: MockBank | undefined;
let abortive: MockBank | undefined;
const proxies: Mitmdump[] = [];
let profile: string;
let missing: string | undefined;
const runs: Record<'direct' | 'passthrough' | 'intercepting' | 'abortive', { run: CertifyRun; out: string }> =
  {} as never;

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
  // the client certificate the intercepting proxy presents upstream: the code client's
  const code = p.clients.code!;
  const clientPem = join(dir, 'client.pem');
  writeFileSync(clientPem, `${code.certificate}\n${code.privateKey}\n`);
  chmodSync(clientPem, 0o600);
  const passthrough = await startMitmdump(tmp(), ['--ignore-hosts', '.*']);
  const intercepting = await startMitmdump(tmp(), ['--set', `client_certs=${clientPem}`, '--set', 'ssl_insecure=true']);
  proxies.push(passthrough, intercepting);
  const certify = async (args: string[]): Promise<{ run: CertifyRun; out: string }> => {
    const out = join(dir, `out-${proxies.length}-${Math.random().toString(36).slice(2)}`);
    return { run: await runCertify(['--profile', profile, ...SUITES, '--out', out, ...args], 300_000), out };
  };
  runs.direct = await certify([]);
  runs.passthrough = await certify(['--proxy', passthrough.url]);
  runs.intercepting = await certify([
    '--proxy',
    intercepting.url,
    '--proxy-ca',
    intercepting.caFile,
    '--har',
    join(dir, 'intercepted.har'),
  ]);
  // a bank that closes at once after its early 413: the reset of the unread body reaches the proxy first
  abortive = await startMockBank({ mode: 'uat', pki: await testPki(), abortiveClose: true });
  const abortiveProfile = join(dir, 'abortive-uat.json');
  writeFileSync(abortiveProfile, JSON.stringify(abortive.profile('abortive-uat')));
  chmodSync(abortiveProfile, 0o600);
  const out = join(dir, 'out-abortive');
  runs.abortive = {
    run: await runCertify(
      [
        '--profile',
        abortiveProfile,
        '--only',
        'HARD-04',
        '--out',
        out,
        '--proxy',
        intercepting.url,
        '--proxy-ca',
        intercepting.caFile,
      ],
      300_000,
    ),
    out,
  };
}, 900_000);

afterAll(async () => {
  await Promise.allSettled(proxies.map((p) => p.stop()));
  await mock?.close();
  await abortive?.close();
});

describe('certify through mitmproxy', () => {
  it('mitmdump is installed (.ci/run installs it)', () => {
    expect(missing, missing).toBeUndefined();
  });

  it('the direct run breaks nothing (the clean UAT mock; exit 5: a rule the embedded mock cannot show stays unverified)', () => {
    expect([0, 5], runs.direct.run.stderr).toContain(runs.direct.run.code);
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

  it('through a proxy that re-terminates TLS: nothing fails; what differs is inconclusive and says why', () => {
    const direct = outcomes(runs.direct.out);
    const through = outcomes(runs.intercepting.out);
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

  it("a bank that closes at once after its early 413: mitmproxy's 502 is the proxy's answer, never the bank's", () => {
    const o = outcomes(runs.abortive.out).get('conventions.oversize-body-413')!;
    // each attempt the proxy answered (the reset erased the 413 on its way) is sent again, a few times at most
    expect(['pass', 'inconclusive']).toContain(o.verdict);
    // inconclusive: every attempt got the proxy's 502 (or a reset), said as the proxy's
    expect(
      o.verdict === 'pass' || /no HTTP answer in \d+ attempts .*(PROXY_BAD_GATEWAY|ECONNRESET)/.test(o.reason ?? ''),
      o.reason,
    ).toBe(true);
  });

  it("the flows mitmdump saved hold every request of the run's HAR", () => {
    const har = JSON.parse(readFileSync(join(runs.intercepting.out, '..', 'intercepted.har'), 'utf8')) as Har;
    expect(har.log.entries.length).toBeGreaterThan(20);
    const key = (method: string, url: string): string => {
      const u = new URL(url);
      return `${method} ${u.origin}${u.pathname}`;
    };
    const saved = new Set(savedRequests(proxies[1]!.flowsFile).map((l) => key(l.split(' ')[0]!, l.split(' ')[1]!)));
    const missingFromFlows = har.log.entries
      .filter((e) => e.response.status !== 0)
      .map((e) => key(e.request.method, e.request.url))
      .filter((k) => !saved.has(k));
    expect(missingFromFlows).toEqual([]);
    expect([...saved].some((k) => k.endsWith('/v1/transfers/validate'))).toBe(true);
  });
});
