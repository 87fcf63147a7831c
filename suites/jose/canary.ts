/**
 * A canary: a loopback HTTP listener that a `jku` or `x5u` header points at. The target must never fetch it;
 * the listener counts every request it gets (any path, any method). Port 0, closed by the check.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Canary {
  url(path: string): string;
  /** requests received so far */
  readonly hits: number;
  close(): Promise<void>;
}

export interface CanaryRoute {
  contentType: string;
  body: string;
}

export async function startCanary(host: string, routes: Record<string, CanaryRoute>): Promise<Canary> {
  let hits = 0;
  const server: Server = createServer((req, res) => {
    hits += 1;
    const route = routes[(req.url ?? '/').split('?')[0]!];
    // drain whatever was sent, answer, and never keep the connection
    req.resume();
    res.writeHead(route ? 200 : 404, { 'Content-Type': route?.contentType ?? 'text/plain', Connection: 'close' });
    res.end(route?.body ?? 'not found');
  });
  server.requestTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const hostPart = host.includes(':') ? `[${host}]` : host;
  return {
    url: (path) => `http://${hostPart}:${port}${path}`,
    get hits() {
      return hits;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
