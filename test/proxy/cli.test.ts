/**
 * `--proxy` / `--proxy-ca` / `--har` bad input on certify: one line naming the option and the cause, exit 2 (nothing
 * sent), no stack trace; and a run through a proxy that refuses every tunnel says so as the proxy's, never as a
 * verdict against the bank.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCertifyArgs, CliError } from '../../lib/cli/args.ts';
import { runCertify } from '../cli/run-certify.ts';
import { tempDirs } from '../fixtures/tmp.ts';
import { startConnectProxy, type ConnectProxy } from './connect-proxy.ts';

const tmp = tempDirs('proxy-cli-');
let proxy: ConnectProxy;
let closedUrl: string;

beforeAll(async () => {
  proxy = await startConnectProxy();
  const closed = await startConnectProxy();
  closedUrl = closed.url;
  await closed.close();
});
afterAll(async () => {
  await proxy?.close();
});

/** the run printed one line on stderr, naming `what`, and exited 2 */
async function refused(args: string[], what: RegExp): Promise<void> {
  const r = await runCertify(
    ['--profile', 'profiles/mock-uat.json', '--only', 'XFER-01', '--out', join(tmp(), 'o'), ...args],
    120_000,
  );
  expect(r.code, r.stderr).toBe(2);
  const lines = r.stderr.trim().split('\n');
  expect(lines, r.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(what);
  expect(r.stderr).not.toMatch(/^\s+at /m);
}

describe('certify --proxy: bad input', () => {
  it('options: a URL that does not parse, --proxy-ca without --proxy, an empty --har, --har-keep-tokens without --har', () => {
    expect(parseCertifyArgs(['--proxy', 'http://127.0.0.1:8080', '--har', 'x.har'])).toMatchObject({
      proxy: 'http://127.0.0.1:8080',
      har: 'x.har',
    });
    expect(() => parseCertifyArgs(['--proxy', 'localhost:8080'])).toThrow(CliError);
    expect(() => parseCertifyArgs(['--proxy', 'ftp://127.0.0.1:21'])).toThrow(
      /--proxy: ftp: proxies are not supported/,
    );
    expect(() => parseCertifyArgs(['--proxy-ca', 'ca.pem'])).toThrow(/--proxy-ca needs --proxy/);
    expect(() => parseCertifyArgs(['--har', ''])).toThrow(/--har needs a file/);
    expect(() => parseCertifyArgs(['--har-keep-tokens'])).toThrow(/--har-keep-tokens needs --har <file>/);
    expect(parseCertifyArgs(['--har', 'x.har', '--har-keep-tokens'])).toMatchObject({
      har: 'x.har',
      harKeepTokens: true,
    });
  });

  it('a proxy URL that does not parse: one line, exit 2', async () => {
    await refused(
      ['--proxy', 'not a url'],
      /^certify: --proxy: "not a url" is not a URL \(expected http:\/\/host:port\)$/,
    );
  });

  it('an unreachable proxy: one line naming it, exit 2, before any traffic', async () => {
    await refused(
      ['--proxy', closedUrl],
      new RegExp(`^certify: --proxy: the proxy ${closedUrl} is unreachable: ECONNREFUSED$`),
    );
  });

  it('a --har file in a folder that does not exist: one line, exit 2', async () => {
    await refused(['--har', join(tmp(), 'absent', 'run.har')], /^certify: --har: the folder .*absent does not exist$/);
  });

  it('a --proxy-ca file that cannot be read or holds no certificate: one line, exit 2', async () => {
    const dir = tmp();
    await refused(
      ['--proxy', proxy.url, '--proxy-ca', join(dir, 'absent.pem')],
      /^certify: --proxy-ca: cannot read .*absent\.pem \(ENOENT\)$/,
    );
    writeFileSync(join(dir, 'junk.pem'), 'not a certificate\n');
    await refused(
      ['--proxy', proxy.url, '--proxy-ca', join(dir, 'junk.pem')],
      /^certify: --proxy-ca: .*junk\.pem holds no PEM certificate$/,
    );
  });

  it("a proxy that refuses every tunnel: the run says the proxy's refusal, no check fails against the bank", async () => {
    proxy.refuseWith = 403;
    try {
      const out = join(tmp(), 'o');
      const r = await runCertify(
        ['--profile', 'profiles/mock-uat.json', '--only', 'XFER-01', '--out', out, '--proxy', proxy.url],
        120_000,
      );
      // the target unreachable through the proxy (exit 4), said as the proxy's refusal
      expect(r.code, r.stdout + r.stderr).toBe(4);
      expect(r.stdout + r.stderr).toContain(`the proxy ${proxy.url} refused CONNECT`);
      expect(r.stdout).not.toMatch(/\bfail\b/);
    } finally {
      proxy.refuseWith = undefined;
    }
  });
});
