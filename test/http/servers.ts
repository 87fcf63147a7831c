/** Small loopback servers for the HTTP-layer tests (no mock bank). */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer, type ServerOptions } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { TestPki } from '../../lib/pki/index.ts';

export type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

export interface TestServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

function withBody(handler: Handler) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handler(req, res, Buffer.concat(chunks).toString('utf8')));
  };
}

async function listen(server: Server, scheme: string): Promise<TestServer> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `${scheme}://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function startHttp(handler: Handler): Promise<TestServer> {
  return listen(createServer(withBody(handler)), 'http');
}

export function startHttps(opts: ServerOptions, handler: Handler): Promise<TestServer> {
  return listen(createHttpsServer(opts, withBody(handler)) as unknown as Server, 'https');
}

/** an HTTPS server with the test PKI's server certificate that asks for a client certificate and refuses none */
export function startMtls(pki: TestPki, handler: Handler): Promise<TestServer> {
  return startHttps(
    {
      key: pki.server.privateKeyPem,
      cert: pki.server.certPem,
      ca: [pki.partnerCa.certPem],
      requestCert: true,
      rejectUnauthorized: false,
    },
    handler,
  );
}

/** what a TLS server saw of the client */
export function peerInfo(req: IncomingMessage): { cn?: string; authorized: boolean; remote?: string } {
  const sock = req.socket as TLSSocket;
  const cert = typeof sock.getPeerCertificate === 'function' ? sock.getPeerCertificate() : undefined;
  const cn = cert && cert.subject ? (cert.subject.CN as string | undefined) : undefined;
  return {
    ...(cn ? { cn } : {}),
    authorized: Boolean(sock.authorized),
    remote: req.socket.remoteAddress?.replace(/^::ffff:/, ''),
  };
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}
