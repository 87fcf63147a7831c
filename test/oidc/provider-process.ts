/**
 * The off-the-shelf provider (provider.ts: oidc-provider, unmodified) and its resource server in a process of their
 * own, with a test clock on its own listener, as a bank's UAT offers one: POST /clock {"advance_seconds": N} moves
 * this process's clock (Date.now, which oidc-provider reads for every issue and expiry: lib/helpers/epoch_time.js)
 * N seconds ahead, as libfaketime would; the harness's process keeps the real time. Prints one JSON line with the
 * URLs, then serves until SIGTERM.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const realNow = Date.now.bind(Date);
let offsetMs = 0;
Date.now = (): number => realNow() + offsetMs;

const { startProvider, startResourceServer } = await import('./provider.ts');
const op = await startProvider();
const api = await startResourceServer(op.issuer);
const admin = createServer((req, res) => {
  let body = '';
  req.on('data', (d: Buffer) => (body += d.toString()));
  req.on('end', () => {
    const n =
      req.method === 'POST' && req.url === '/clock'
        ? (JSON.parse(body || '{}') as { advance_seconds?: unknown }).advance_seconds
        : undefined;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) {
      res.writeHead(req.url === '/clock' ? 400 : 404).end();
      return;
    }
    offsetMs += n * 1000;
    res.writeHead(204).end();
  });
});
await new Promise<void>((resolve) => admin.listen(0, '127.0.0.1', resolve));
const clock = `http://127.0.0.1:${(admin.address() as AddressInfo).port}/clock`;
process.stdout.write(`${JSON.stringify({ issuer: op.issuer, api: api.issuer, clock })}\n`);
process.on('SIGTERM', () => {
  admin.close();
  void Promise.all([api.close(), op.close()]).then(() => process.exit(0));
});
