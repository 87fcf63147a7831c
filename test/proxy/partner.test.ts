/**
 * partner `--proxy`: the partner's client (here the shell client, curl) gets the proxy in HTTPS_PROXY/HTTP_PROXY and
 * its calls to the bank go through CONNECT tunnels, its client certificate intact (the mutual-TLS bank certifies it
 * as directly); `--proxy-ca` and a proxy that does not answer are refused, one line, exit 2.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proxyEnvironment } from '../../lib/cli/proxy-args.ts';
import { ROOT } from '../../lib/root.ts';
import { certify, failing, useReferenceClient } from '../partner/helpers.ts';
import { startConnectProxy, type ConnectProxy } from './connect-proxy.ts';

const fixture = useReferenceClient();
let proxy: ConnectProxy;
beforeAll(async () => {
  proxy = await startConnectProxy();
});
afterAll(async () => {
  await proxy?.close();
});

const partner = (args: string[]): ReturnType<typeof spawnSync> =>
  spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', 'partner.ts'), ...args], {
    encoding: 'utf8',
    timeout: 60_000,
    cwd: ROOT,
  });

describe('partner --proxy', () => {
  it("the client's calls go through the proxy's tunnels, its certificate intact: certified as directly", async () => {
    const { results, verdicts } = await certify(
      fixture.files(),
      ['bash', join(ROOT, 'examples', 'partner-client-sh', 'client.sh')],
      {
        mode: 'uat',
        flow: 'client-credentials',
        scenarios: ['normal'],
        clientEnv: proxyEnvironment(new URL(proxy.url)),
      },
    );
    expect(results.profiles[0]!.errors).toEqual([]);
    expect(failing(verdicts)).toEqual([]);
    expect(verdicts['CLI-03']).toBe('pass');
    expect(proxy.connects.length).toBeGreaterThan(0);
    expect(proxy.connects.every((c) => c.startsWith('127.0.0.1:'))).toBe(true);
  }, 240_000);

  it('--proxy-ca, a proxy URL that does not parse, a proxy that does not answer: one line, exit 2', async () => {
    const files = fixture.files();
    const base = [
      '--cert',
      files.cert,
      '--client-cert',
      files.cert,
      '--client-key',
      files.key,
      '--run',
      'true',
      '--out',
      join(files.dir, 'out'),
    ];
    const ca = partner([...base, '--proxy', proxy.url, '--proxy-ca', files.cert]);
    expect(ca.status).toBe(2);
    expect(String(ca.stderr).trim()).toMatch(
      /^partner: --proxy-ca: a proxy that re-terminates TLS would be judged in the client's place/,
    );
    const bad = partner([...base, '--proxy', 'nope']);
    expect(bad.status).toBe(2);
    expect(String(bad.stderr).trim()).toBe('partner: --proxy: "nope" is not a URL (expected http://host:port)');
    const closed = await startConnectProxy();
    await closed.close();
    const down = partner([...base, '--proxy', closed.url]);
    expect(down.status).toBe(2);
    expect(String(down.stderr).trim()).toBe(`partner: --proxy: the proxy ${closed.url} is unreachable: ECONNREFUSED`);
  }, 120_000);
});
