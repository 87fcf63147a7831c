/**
 * A canary: an HTTP listener that a `jku` or `x5u` header points at. The target must never fetch it; the
 * listener counts every request it gets (any path, any method), per path too. It binds to the profile's
 * run.canaryHost (an address the target can reach; loopback for the embedded mock), run.canaryPort (default
 * any), and is advertised as run.canaryUrl when the target reaches it under another address. Closed by the check.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Canary {
  url(path: string): string;
  /** the URL the harness itself uses (the bound address) */
  localUrl(path: string): string;
  /** requests received so far */
  readonly hits: number;
  /** requests received so far for one path */
  hitsOn(path: string): number;
  close(): Promise<void>;
}

export interface CanaryRoute {
  contentType: string;
  body: string;
}

export interface CanaryPlace {
  host: string;
  port?: number;
  /** the base URL the target uses, when it is not http://host:port */
  publicUrl?: string;
}

export async function startCanary(place: CanaryPlace, routes: Record<string, CanaryRoute>): Promise<Canary> {
  const byPath = new Map<string, number>();
  let hits = 0;
  const server: Server = createServer((req, res) => {
    hits += 1;
    const path = (req.url ?? '/').split('?')[0]!;
    byPath.set(path, (byPath.get(path) ?? 0) + 1);
    const route = routes[path];
    // drain whatever was sent, answer, and never keep the connection
    req.resume();
    res.writeHead(route ? 200 : 404, { 'Content-Type': route?.contentType ?? 'text/plain', Connection: 'close' });
    res.end(route?.body ?? 'not found');
  });
  server.requestTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(place.port ?? 0, place.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const hostPart = place.host.includes(':') ? `[${place.host}]` : place.host;
  const local = `http://${hostPart}:${port}`;
  const base = (place.publicUrl ?? local).replace(/\/+$/, '');
  return {
    url: (path) => `${base}${path}`,
    localUrl: (path) => `${local}${path}`,
    get hits() {
      return hits;
    },
    hitsOn: (path) => byPath.get(path) ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
