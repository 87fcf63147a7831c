/**
 * A TLS 1.2 ClientHello built by hand, for cipher suites no OpenSSL on this machine can offer (OpenSSL 3 has no
 * EXPORT suites; this build of Node's OpenSSL and of the system's has no RC4 or 3DES suites, even at SECLEVEL=0
 * with the legacy provider: measured with `openssl ciphers`). Whether a server accepts a suite is decided by its
 * ServerHello, before any key is used: a server that chooses one of the offered suites has accepted it; one that
 * answers with an alert, or closes, has refused them all. This is how sslscan and testssl.sh test suites their
 * own library lacks. The handshake is not completed (this client could not), so only the ServerHello is read.
 *
 * Bounded: one connection, a timeout, at most 16 KiB read; the socket is always destroyed.
 */
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { DEFAULT_TIMEOUT_MS, TlsProbeError } from './connect.ts';
import { openTunnel, type ProxyError, type ProxyRoute } from './tunnel.ts';

export interface HelloTarget {
  host: string;
  port: number;
  /** SNI host name (never an IP address) */
  servername?: string;
  localAddress?: string;
  timeoutMs?: number;
  /** the run's proxy (lib/http/transport.ts): the ClientHello in a CONNECT tunnel through it */
  proxy?: ProxyRoute;
}

export type HelloAnswer =
  /** the server chose `suite` (one of the offered) in its ServerHello */
  | { outcome: 'chosen'; suite: number; version: number }
  /** the server answered with a TLS alert (e.g. 40 handshake_failure) */
  | { outcome: 'alert'; level: number; description: number }
  /** the server closed the connection without a ServerHello or an alert */
  | { outcome: 'closed' }
  /** the server answered something that is not a TLS 1.2 ServerHello for this offer (a suite not offered, ...) */
  | { outcome: 'unreadable'; detail: string };

const u16 = (n: number): Buffer => Buffer.from([(n >> 8) & 0xff, n & 0xff]);
const u24 = (n: number): Buffer => Buffer.from([(n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff]);
/** a vector with a 2-byte length */
const vec16 = (b: Buffer): Buffer => Buffer.concat([u16(b.length), b]);
const list16 = (xs: readonly number[]): Buffer => Buffer.concat(xs.map(u16));
const extension = (type: number, body: Buffer): Buffer => Buffer.concat([u16(type), vec16(body)]);

/** x25519, secp256r1, secp384r1, secp521r1, ffdhe2048, ffdhe3072 */
const GROUPS = [0x001d, 0x0017, 0x0018, 0x0019, 0x0100, 0x0101];
/** RSA PKCS#1, RSA-PSS, ECDSA with SHA-2, then SHA-1 (an old server may know no other) */
const SIGNATURE_ALGORITHMS = [0x0401, 0x0501, 0x0601, 0x0804, 0x0805, 0x0806, 0x0403, 0x0503, 0x0603, 0x0201, 0x0203];
/** TLS_EMPTY_RENEGOTIATION_INFO_SCSV: a server that insists on secure renegotiation is not refusing the suites */
const RENEGOTIATION_SCSV = 0x00ff;

/** The ClientHello record offering exactly `suites` (and the renegotiation SCSV) at TLS 1.2. */
export function clientHello(suites: readonly number[], servername?: string): Buffer {
  const extensions = [
    ...(servername
      ? [extension(0x0000, vec16(Buffer.concat([Buffer.from([0]), vec16(Buffer.from(servername, 'ascii'))])))]
      : []),
    extension(0x000a, vec16(list16(GROUPS))),
    extension(0x000b, Buffer.from([1, 0])), // ec_point_formats: uncompressed
    extension(0x000d, vec16(list16(SIGNATURE_ALGORITHMS))),
  ];
  const body = Buffer.concat([
    u16(0x0303), // TLS 1.2
    randomBytes(32),
    Buffer.from([0]), // no session id
    vec16(list16([...suites, RENEGOTIATION_SCSV])),
    Buffer.from([1, 0]), // compression: null only
    vec16(Buffer.concat(extensions)),
  ]);
  const handshake = Buffer.concat([Buffer.from([1]), u24(body.length), body]);
  return Buffer.concat([Buffer.from([0x16, 0x03, 0x01]), vec16(handshake)]);
}

/** Reads the server's first record: a ServerHello (its chosen suite), an alert, or nothing readable. */
export function readServerAnswer(data: Buffer, offered: readonly number[]): HelloAnswer | undefined {
  if (data.length < 5) return undefined;
  const type = data[0]!;
  const length = data.readUInt16BE(3);
  if (type === 0x15) return data.length < 7 ? undefined : { outcome: 'alert', level: data[5]!, description: data[6]! };
  if (type !== 0x16) return { outcome: 'unreadable', detail: `record type ${type}, not a handshake` };
  if (data.length < 5 + Math.min(length, 4 + 2 + 32 + 1)) return undefined;
  const hs = data.subarray(5, 5 + length);
  if (hs[0] !== 2) return { outcome: 'unreadable', detail: `handshake message ${hs[0]}, not a ServerHello` };
  const sid = hs[4 + 2 + 32];
  const at = 4 + 2 + 32 + 1 + (sid ?? 0);
  if (sid === undefined || hs.length < at + 2) {
    // a ServerHello split over records: wait for the whole record, then give up
    return data.length < 5 + length ? undefined : { outcome: 'unreadable', detail: 'a truncated ServerHello' };
  }
  const version = hs.readUInt16BE(4);
  const suite = hs.readUInt16BE(at);
  if (!offered.includes(suite))
    return { outcome: 'unreadable', detail: `the ServerHello chose 0x${suite.toString(16)}, which was not offered` };
  return { outcome: 'chosen', suite, version };
}

/**
 * Offers `suites` in a hand-built TLS 1.2 ClientHello and reports the server's answer. Throws TlsProbeError
 * (TLS_PROBE_NETWORK, TLS_PROBE_TIMEOUT) when there was no TCP connection or no answer in time.
 */
export function offerSuites(o: HelloTarget, suites: readonly number[]): Promise<HelloAnswer> {
  const proxy = o.proxy?.url;
  if (!proxy) return offerOver(o, suites);
  // through the run's proxy (tunnel.ts): the ClientHello goes in a CONNECT tunnel
  return openTunnel(proxy, o.host, o.port, o.timeoutMs ?? DEFAULT_TIMEOUT_MS, o.localAddress).then(
    (tunnel) => offerOver(o, suites, tunnel),
    (e: ProxyError) => {
      throw new TlsProbeError('TLS_PROBE_NETWORK', e.message, e.code);
    },
  );
}

/** offerSuites, on a tunnel through the run's proxy when one is given */
function offerOver(o: HelloTarget, suites: readonly number[], tunnel?: net.Socket): Promise<HelloAnswer> {
  const timeoutMs = o.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    const socket =
      tunnel ??
      net.connect({
        host: o.host,
        port: o.port,
        ...(o.localAddress ? { localAddress: o.localAddress } : {}),
      });
    let connected = false;
    let data = Buffer.alloc(0);
    let settled = false;
    const settle = (f: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      f();
    };
    const timer = setTimeout(
      () =>
        settle(() =>
          reject(
            new TlsProbeError(
              'TLS_PROBE_TIMEOUT',
              `no answer to a ClientHello from ${o.host}:${o.port} within ${timeoutMs} ms`,
            ),
          ),
        ),
      timeoutMs,
    );
    const hello = (): void => {
      connected = true;
      socket.write(clientHello(suites, o.servername));
    };
    if (tunnel) hello();
    else socket.once('connect', hello);
    socket.on('data', (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]).subarray(0, 16 * 1024);
      const answer = readServerAnswer(data, suites);
      if (answer) settle(() => resolve(answer));
      else if (data.length >= 16 * 1024)
        settle(() => resolve({ outcome: 'unreadable', detail: 'no ServerHello in 16 KiB' }));
    });
    socket.on('error', (e: NodeJS.ErrnoException) => {
      if (connected) return settle(() => resolve({ outcome: 'closed' }));
      settle(() =>
        reject(
          new TlsProbeError('TLS_PROBE_NETWORK', `cannot reach ${o.host}:${o.port}: ${e.code ?? e.message}`, e.code),
        ),
      );
    });
    socket.on('close', () => settle(() => resolve({ outcome: 'closed' })));
  });
}
