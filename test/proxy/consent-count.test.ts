/**
 * The up-front consent count of a script-consent profile (lib/cli/certify-run.ts announceConsents) runs against the
 * embedded mock on loopback, never through the user's --proxy: the proxy route is a value of the run's transport,
 * which the count's session does not get. A proxy that tunnels and records each CONNECT sees the target's only.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCertify } from '../cli/run-certify.ts';
import { tempDirs } from '../fixtures/tmp.ts';
import { startConnectProxy, type ConnectProxy } from './connect-proxy.ts';

const tmp = tempDirs('consent-count-');
let proxy: ConnectProxy;
let server: Server;
let target = '';

beforeAll(async () => {
  proxy = await startConnectProxy();
  // the bank: answers every call with an empty 401 (the run's verdicts are not this test's)
  server = createServer((_req, res) => res.writeHead(401).end());
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  target = `127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await proxy?.close();
  await new Promise<void>((r) => server.close(() => r()));
});

it('a script-consent profile through --proxy: the consents are counted up front, none of it through the proxy', async () => {
  const dir = tmp();
  const script = join(dir, 'login.mjs');
  writeFileSync(script, 'process.exit(1);\n');
  const profile = join(dir, 'bank.json');
  writeFileSync(
    profile,
    JSON.stringify({
      name: 'script-consent-bank',
      environment: 'sandbox',
      target: {
        baseUrl: `http://${target}`,
        consent: { mode: 'script', command: `"${process.execPath}" "${script}"`, timeoutSeconds: 5 },
      },
      clients: {
        code: { clientId: 'c1', clientSecret: 'code-secret', redirectUri: 'http://127.0.0.1:2/cb' },
        partner: { clientId: 'p1', clientSecret: 'partner-secret' },
      },
      customers: [
        { name: 'a', uuid: 'u1', accountId: '1234567890123', beneficiaryId: 'B1' },
        { name: 'b', uuid: 'u2', accountId: '9876543210987654', beneficiaryId: 'B2', workflow: true },
      ],
    }),
  );
  const r = await runCertify(
    ['--profile', profile, '--only', 'TOK-03', '--out', join(dir, 'out'), '--proxy', proxy.url],
    180_000,
  );
  expect(r.stderr).toMatch(/script-consent-bank: this run will ask for about [1-9]\d* consents?, one at a time/);
  // the run itself went through the proxy, to the bank only: the count's mock was never a CONNECT target
  expect(proxy.connects.length, r.stdout + r.stderr).toBeGreaterThan(0);
  expect([...new Set(proxy.connects)]).toEqual([target]);
});
