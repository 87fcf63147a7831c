/** Local node:tls test servers on 127.0.0.1:0 built from the test PKI. */
import net from 'node:net';
import tls from 'node:tls';
import type { AddressInfo } from 'node:net';

export interface Running {
  port: number;
  close(): Promise<void>;
}

function listen(server: net.Server): Promise<Running> {
  // track sockets so close() never waits on a lingering connection
  const sockets = new Set<net.Socket>();
  server.on('connection', (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('secureConnection', (s: net.Socket) => s.on('error', () => {}));
  server.on('tlsClientError', () => {});
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () =>
          new Promise<void>((res) => {
            for (const s of sockets) s.destroy();
            server.close(() => res());
          }),
      });
    });
  });
}

/**
 * A TLS server answering every request with a tiny HTTP/1.1 response:
 * 200 "ok CN=<client CN> from <remote address>" when the client certificate verified (or none was requested),
 * 403 otherwise (only reachable with rejectUnauthorized:false).
 */
export function startTlsServer(opts: tls.TlsOptions): Promise<Running> {
  const server = tls.createServer(opts, (socket) => {
    socket.once('data', () => {
      let status = 200;
      let body: string;
      if (opts.requestCert && !socket.authorized) {
        status = 403;
        body = `client certificate not accepted: ${String(socket.authorizationError)}`;
      } else {
        const cn = socket
          .getPeerX509Certificate()
          ?.subject.split('\n')
          .find((l) => l.startsWith('CN='));
        body = `ok ${cn ?? 'anonymous'} from ${socket.remoteAddress}`;
      }
      socket.end(
        `HTTP/1.1 ${status} ${status === 200 ? 'OK' : 'Forbidden'}\r\nContent-Type: text/plain\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    });
  });
  return listen(server);
}

/** Accepts TCP and never answers (to exercise timeouts). */
export function startSilentServer(): Promise<Running> {
  return listen(net.createServer(() => {}));
}

/** A port on 127.0.0.1 that nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const r = await listen(net.createServer());
  await r.close();
  return r.port;
}
