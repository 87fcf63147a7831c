/** A small loopback HTTP proxy for the proxy tests: CONNECT tunnels (or a refusal, as told), counting what it saw. */
import { createServer, type Server } from 'node:http';
import net, { type AddressInfo } from 'node:net';

export interface ConnectProxy {
  url: string;
  /** the CONNECT targets asked, in order (host:port) */
  readonly connects: string[];
  /** answer the next CONNECTs with this status instead of a tunnel (undefined: tunnel) */
  refuseWith?: number;
  close(): Promise<void>;
}

export async function startConnectProxy(): Promise<ConnectProxy> {
  const sockets = new Set<net.Socket>();
  const server: Server = createServer((_req, res) => res.writeHead(405).end());
  const proxy: ConnectProxy = {
    url: '',
    connects: [],
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
  server.on('connect', (req, client: net.Socket, head: Buffer) => {
    sockets.add(client);
    proxy.connects.push(req.url ?? '');
    if (proxy.refuseWith) {
      client.end(`HTTP/1.1 ${proxy.refuseWith} Refused by the test proxy\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    const [host, port] = (req.url ?? '').replace(/^\[(.*)\](:\d+)$/, '$1$2').split(/:(?=\d+$)/);
    const upstream = net.connect({ host: host!, port: Number(port) }, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
    client.on('close', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return proxy;
}
