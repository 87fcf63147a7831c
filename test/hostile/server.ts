/**
 * A hostile target on loopback: one behaviour per listener (hang, drip, reset, garbage, huge body, endless chunked,
 * bad JSON, HTML, off-host redirect, 500 with a stack trace, weird token answers, many headers, TLS garbage, close
 * before the handshake). In UAT mode it speaks TLS with the given certificate (asking for a client certificate) —
 * except the behaviours that break TCP or TLS itself, which act on the raw socket.
 */
import net from 'node:net';
import tls from 'node:tls';
import { randomBytes } from 'node:crypto';

export const BEHAVIOURS = [
  'hang',
  'drip',
  'reset',
  'garbage',
  'huge-body',
  'endless-chunked',
  'bad-json',
  'html',
  'off-host-redirect',
  'stack-500',
  'weird-token',
  'many-headers',
  'tls-garbage',
  'close-before-handshake',
] as const;
export type Behaviour = (typeof BEHAVIOURS)[number];

export interface HostileOptions {
  behaviour: Behaviour;
  /** TLS (UAT) or plain HTTP */
  tls?: { cert: string; key: string; ca: string };
  /** where off-host-redirect points (the canary) */
  redirectTo?: string;
}

export interface Hostile {
  url: string;
  /** connections accepted so far */
  readonly connections: number;
  close(): Promise<void>;
}

/** behaviours acting on the raw TCP socket, before any TLS */
const RAW = new Set<Behaviour>(['hang', 'tls-garbage', 'close-before-handshake']);

const STACK = `Error: boom
    at Object.<anonymous> (/srv/bank/app.js:12:9)
    at Module._compile (node:internal/modules/cjs/loader:1256:14)`;

function head(status: number, headers: Record<string, string>): string {
  const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}`);
  return `HTTP/1.1 ${status} X\r\n${lines.join('\r\n')}\r\n\r\n`;
}
function reply(s: net.Socket, status: number, type: string, body: string, extra: Record<string, string> = {}): void {
  s.end(head(status, { 'content-type': type, 'content-length': String(Buffer.byteLength(body)), ...extra }) + body);
}

/** streams while the peer reads; stops when the socket ends */
function stream(s: net.Socket, chunk: () => Buffer | string): void {
  const pump = (): void => {
    while (!s.destroyed && s.write(chunk()));
    if (!s.destroyed) s.once('drain', pump);
  };
  pump();
}

/** answers one HTTP request (after its head arrived) the hostile way */
function answer(s: net.Socket, raw: net.Socket, b: Behaviour, requestHead: string, o: HostileOptions): void {
  const path = requestHead.split(' ')[1] ?? '/';
  switch (b) {
    case 'drip': {
      s.write(head(200, { 'content-type': 'application/json', 'content-length': '1000000' }));
      const t = setInterval(() => (s.destroyed ? clearInterval(t) : s.write(' ')), 200);
      s.once('close', () => clearInterval(t));
      return;
    }
    case 'reset':
      return void raw.resetAndDestroy();
    case 'garbage':
      return void s.end(randomBytes(512));
    case 'huge-body': {
      s.write(head(200, { 'content-type': 'application/json', 'content-length': String(200 * 1024 * 1024) }));
      const block = Buffer.alloc(64 * 1024, 0x20);
      return stream(s, () => block);
    }
    case 'endless-chunked': {
      s.write(head(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }));
      const block = `10000\r\n${' '.repeat(0x10000)}\r\n`;
      return stream(s, () => block);
    }
    case 'bad-json':
      return reply(s, 200, 'application/json', '{"access_token": "abc", "token_type": ');
    case 'html':
      return reply(s, 200, 'text/html', '<!doctype html><html><body><h1>Welcome to the bank</h1></body></html>');
    case 'off-host-redirect':
      return reply(s, 302, 'text/plain', 'moved', { location: `${o.redirectTo ?? 'http://127.0.0.3:9'}${path}` });
    case 'stack-500':
      return reply(s, 500, 'text/plain', STACK);
    case 'weird-token':
      return path.includes('token')
        ? reply(s, 200, 'application/json', '{"access_token":42,"token_type":"mac","expires_in":-1}')
        : reply(s, 401, 'application/json', '{"error":"who are you"}');
    case 'many-headers': {
      const h: Record<string, string> = { 'content-type': 'application/json', 'content-length': '2' };
      for (let i = 0; i < 10_000; i++) h[`x-h${i}`] = 'v';
      return void s.end(head(200, h) + '{}');
    }
    default:
      return reply(s, 404, 'application/json', '{}');
  }
}

/** reads request heads off a (plain or TLS) socket and answers each */
function serveHttp(s: net.Socket, raw: net.Socket, o: HostileOptions): void {
  let buf = '';
  s.on('error', () => {});
  s.on('data', (d: Buffer) => {
    buf += d.toString('latin1');
    const end = buf.indexOf('\r\n\r\n');
    if (end < 0) return;
    const requestHead = buf.slice(0, end);
    buf = '';
    answer(s, raw, o.behaviour, requestHead, o);
  });
}

function rawBehaviour(s: net.Socket, b: Behaviour): void {
  s.on('error', () => {});
  if (b === 'tls-garbage') s.end(randomBytes(256));
  else if (b === 'close-before-handshake') s.end();
  // hang: accept and never answer
}

export async function startHostile(o: HostileOptions): Promise<Hostile> {
  let connections = 0;
  const sockets = new Set<net.Socket>();
  const secure =
    o.tls && tls.createSecureContext({ cert: o.tls.cert, key: o.tls.key, ca: o.tls.ca, minVersion: 'TLSv1.2' });
  const server = net.createServer((s) => {
    connections++;
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
    if (RAW.has(o.behaviour)) return rawBehaviour(s, o.behaviour);
    if (!secure) return serveHttp(s, s, o);
    const t = new tls.TLSSocket(s, {
      isServer: true,
      secureContext: secure,
      requestCert: true,
      rejectUnauthorized: false,
    });
    t.on('error', () => s.destroy());
    serveHttp(t, s, o);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `${o.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    get connections() {
      return connections;
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}

/** counts connections to an address no profile names: any is an off-profile request */
export async function startCanary(host = '127.0.0.3'): Promise<Hostile> {
  let connections = 0;
  const server = net.createServer((s) => {
    connections++;
    s.on('error', () => {});
    s.destroy();
  });
  await new Promise<void>((r) => server.listen(0, host, r));
  return {
    url: `http://${host}:${(server.address() as net.AddressInfo).port}`,
    get connections() {
      return connections;
    },
    close: () => new Promise((r) => server.close(() => r())),
  };
}
