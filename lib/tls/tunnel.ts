/**
 * The run's HTTP proxy (certify/partner `--proxy`, profile `run.proxy`): when one is set, every connection the
 * harness opens to a target — undici's (lib/http/connections/connect.ts), bursts', the TLS probes' (lib/tls/connect.ts,
 * hello.ts), the prerequisite handshake's — is a CONNECT tunnel through it, and TLS runs inside the tunnel end to
 * end (the client certificate is the harness's own). An intercepting proxy re-terminates TLS with certificates of
 * its own CA (`ca`): that CA is then trusted for the target's server certificate besides the profile's, and the
 * checks of the server's own handshake cannot be judged through it (`intercepting`).
 *
 * One proxy per run, held by no module: the route is a value (`proxyRouteOf`), made once by the command line and
 * carried in the run's Transport (lib/http/transport.ts) to every connector, probe and check that needs it. A
 * primitive: the TLS probes below lib/http use it too.
 */
import net from 'node:net';
import tls from 'node:tls';
import { ConfigurationError, HarnessError } from '../errors.ts';

/** the run's proxy, as proxyRouteOf made it */
export interface ProxyRoute {
  /** http://host:port, as given (credentials never kept: a proxy URL with a user or password is refused) */
  url: URL;
  /** the intercepting proxy's CA (PEM): trusted for the target's certificate besides the profile's */
  ca?: string;
  /** the proxy re-terminates TLS (a CA was given): the server's own handshake is not what the harness sees */
  intercepting: boolean;
}

/** a proxy URL or CA that cannot be used: one line naming it (the caller exits 2) */
export class ProxyConfigError extends ConfigurationError {
  override readonly name = 'ProxyConfigError';
  readonly code = 'PROXY_CONFIG' as const;
}

/** the proxy answered a CONNECT with a refusal, or could not be reached: the proxy's doing, never the target's */
export class ProxyError extends HarnessError {
  override readonly name = 'ProxyError';
  constructor(
    message: string,
    /** PROXY_REFUSED (a CONNECT answered other than 2xx), PROXY_UNREACHABLE, PROXY_PROTOCOL (not an HTTP answer) */
    readonly code: 'PROXY_REFUSED' | 'PROXY_UNREACHABLE' | 'PROXY_PROTOCOL',
    /** the proxy's status, for a refusal */
    readonly status?: number,
  ) {
    super(message);
  }
}

/** `--proxy`'s value as a URL: http://host:port (no credentials, no path); ProxyConfigError otherwise */
export function parseProxyUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ProxyConfigError(`--proxy: ${JSON.stringify(text)} is not a URL (expected http://host:port)`);
  }
  if (url.protocol !== 'http:')
    throw new ProxyConfigError(`--proxy: ${url.protocol} proxies are not supported (expected http://host:port)`);
  if (url.username || url.password)
    throw new ProxyConfigError('--proxy: credentials in the proxy URL are not supported (they would reach the logs)');
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash)
    throw new ProxyConfigError(`--proxy: expected http://host:port, without a path (${url.href})`);
  return url;
}

/** the route through `proxy` (its URL checked), with its CA when it re-terminates TLS; ProxyConfigError otherwise */
export function proxyRouteOf(proxy: { url: string | URL; ca?: string }): ProxyRoute {
  const url = typeof proxy.url === 'string' ? parseProxyUrl(proxy.url) : proxy.url;
  return { url, ...(proxy.ca ? { ca: proxy.ca } : {}), intercepting: proxy.ca !== undefined };
}

/**
 * why a check of the target's own TLS handshake (its versions, ciphers, certificate, its refusal of a client
 * certificate) cannot be judged: the run goes through a proxy that re-terminates TLS; undefined otherwise
 */
export function interceptedReason(route: ProxyRoute | undefined): string | undefined {
  if (!route?.intercepting) return undefined;
  return `not judged through ${proxyName(route.url)}, which re-terminates TLS (--proxy-ca): the handshake it judges would be the proxy's, and the client certificate the target sees the one the proxy presents`;
}

/**
 * what to pass so that a proxy's certificates are not taken for the target's: its CA (--proxy-ca), and the proxy's
 * own trust of the target's CA (each proxy's setting, README "Through your own proxy")
 */
export const PROXY_TRUST_HINT =
  "pass the proxy's CA with --proxy-ca, and have the proxy trust the target's CA (tls.caCertificate) upstream " +
  '(mitmproxy: --set ssl_verify_upstream_trusted_ca=<that CA file>; README "Through your own proxy" for Burp and ZAP)';

/**
 * why a server certificate the harness refused (or a TLS handshake that failed) is not the target's to answer for:
 * through a proxy that re-terminates TLS (--proxy-ca) every certificate and handshake the harness sees is the
 * proxy's; through any other proxy, a certificate that was not issued by the profile's CA (`issuedByTargetCa`
 * false) is one a re-terminating proxy presents as well as a target's, and the harness cannot tell them apart.
 * Undefined without a proxy, and for a certificate of the profile's CA seen through a plain tunnel (the target's:
 * judged).
 */
export function proxyCertificateReason(
  route: ProxyRoute | undefined,
  seen: { issuer?: string; issuedByTargetCa: boolean },
): string | undefined {
  if (!route) return undefined;
  const by = seen.issuer !== undefined ? ` (issued by ${seen.issuer})` : '';
  if (route.intercepting)
    return `the certificate and the handshake came from ${proxyName(route.url)}, which re-terminates TLS${by}: not the target's to answer for; the proxy presents a certificate the harness refuses when it could not verify the target's itself: ${PROXY_TRUST_HINT}`;
  if (seen.issuedByTargetCa) return undefined;
  return `the certificate presented through ${proxyName(route.url)}${by} was not issued by the profile's CA: a proxy that re-terminates TLS presents one of its own, so TLS-05 is not judged through it (${PROXY_TRUST_HINT}; or run without --proxy to judge the target's certificate)`;
}

/**
 * a 502 through a proxy that re-terminates TLS is the proxy's (it had no answer of the target's to pass on: the
 * target closed, reset or timed out), never the target's: why, or undefined for any other answer or route. The API
 * client and the bursts alike turn it into the transport error PROXY_BAD_GATEWAY
 */
export function proxyGatewayError(route: ProxyRoute | undefined, status: number): string | undefined {
  if (status !== 502 || !route?.intercepting) return undefined;
  return `${proxyName(route.url)}, which re-terminates TLS, answered 502 Bad Gateway: the target's own answer, if any, did not come through it`;
}

/** the proxy as the messages name it */
export const proxyName = (url: URL): string => `the proxy ${url.origin}`;

/** the profile's CA(s) plus the intercepting proxy's (when one is set): what the target's certificate may chain to */
export function withProxyCa(
  route: ProxyRoute | undefined,
  ca: string | Buffer | (string | Buffer)[] | undefined,
): string | Buffer | (string | Buffer)[] | undefined {
  const extra = route?.ca;
  if (!extra) return ca;
  // no CA in the profile: the system's, plus the proxy's
  if (ca === undefined) return [...tls.rootCertificates, extra];
  return [...(Array.isArray(ca) ? ca : [ca]), extra];
}

/** the host as a CONNECT request names it (an IPv6 address in brackets) */
const authority = (host: string, port: number): string => `${net.isIPv6(host) ? `[${host}]` : host}:${port}`;

/** the end of the proxy's answer head, at most this long */
const MAX_HEAD = 16 * 1024;

/**
 * Asks the proxy on `socket` (connected to it) for a tunnel to host:port; resolves once it answered 2xx (the socket
 * is then the tunnel), rejects with a ProxyError naming the proxy otherwise. Bounded by the caller's budget (it
 * destroys the socket on its deadline).
 */
export function requestTunnel(socket: net.Socket, proxy: URL, host: string, port: number): Promise<net.Socket> {
  const target = authority(host, port);
  return new Promise((resolve, reject) => {
    let head = Buffer.alloc(0);
    const done = (e?: Error): void => {
      socket.off('data', onData);
      socket.off('error', onError);
      socket.off('close', onClose);
      if (e) {
        socket.destroy();
        reject(e);
      } else resolve(socket);
    };
    const onError = (e: Error): void =>
      done(new ProxyError(`${proxyName(proxy)} broke the CONNECT to ${target}: ${e.message}`, 'PROXY_UNREACHABLE'));
    const onClose = (): void =>
      done(
        new ProxyError(
          `${proxyName(proxy)} closed the connection before answering CONNECT ${target}`,
          'PROXY_PROTOCOL',
        ),
      );
    const onData = (chunk: Buffer): void => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) {
        if (head.length > MAX_HEAD)
          done(new ProxyError(`${proxyName(proxy)} sent no HTTP answer to CONNECT ${target}`, 'PROXY_PROTOCOL'));
        return;
      }
      const statusLine = head.subarray(0, head.indexOf('\r\n')).toString('latin1');
      const m = /^HTTP\/1\.[01] (\d{3})\s?(.*)$/.exec(statusLine);
      if (!m)
        return done(
          new ProxyError(
            `${proxyName(proxy)} answered CONNECT ${target} with ${JSON.stringify(statusLine.slice(0, 80))}`,
            'PROXY_PROTOCOL',
          ),
        );
      const status = Number(m[1]);
      if (status < 200 || status > 299)
        return done(
          new ProxyError(
            `${proxyName(proxy)} refused CONNECT ${target}: ${status} ${m[2] ?? ''}`.trim() +
              ' (the proxy answered, not the target)',
            'PROXY_REFUSED',
            status,
          ),
        );
      // whatever followed the head is the tunnel's first bytes (a target that speaks first)
      const rest = head.subarray(end + 4);
      done();
      if (rest.length) socket.unshift(rest);
    };
    socket.on('data', onData);
    socket.once('error', onError);
    socket.once('close', onClose);
    socket.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`);
  });
}

/**
 * A tunnel to host:port through the run's proxy: TCP to the proxy, then CONNECT, all within `budgetMs`. Rejects
 * with a ProxyError (the proxy unreachable, its refusal) naming the proxy.
 */
export function openTunnel(
  proxy: URL,
  host: string,
  port: number,
  budgetMs: number,
  localAddress?: string,
): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({
      host: proxy.hostname.replace(/^\[(.*)\]$/, '$1'),
      port: Number(proxy.port) || 80,
      ...(localAddress ? { localAddress } : {}),
    });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(
        new ProxyError(
          `${proxyName(proxy)}: no tunnel to ${authority(host, port)} within ${budgetMs} ms`,
          'PROXY_UNREACHABLE',
        ),
      );
    }, budgetMs);
    socket.once('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(new ProxyError(`${proxyName(proxy)} is unreachable: ${e.code ?? e.message}`, 'PROXY_UNREACHABLE'));
    });
    socket.once('connect', () => {
      socket.removeAllListeners('error');
      requestTunnel(socket, proxy, host, port).then(
        (s) => {
          clearTimeout(timer);
          resolve(s);
        },
        (e: Error) => {
          clearTimeout(timer);
          reject(e);
        },
      );
    });
  });
}

/** the proxy answers a TCP connection within `budgetMs` (a run checks it before any traffic); the reason otherwise */
export function proxyUnreachable(proxy: URL, budgetMs = 3000): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: proxy.hostname.replace(/^\[(.*)\]$/, '$1'), port: Number(proxy.port) || 80 });
    const end = (why?: string): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(why);
    };
    const timer = setTimeout(
      () => end(`${proxyName(proxy)} did not accept a connection within ${budgetMs} ms`),
      budgetMs,
    );
    socket.once('connect', () => end());
    socket.once('error', (e: NodeJS.ErrnoException) =>
      end(`${proxyName(proxy)} is unreachable: ${e.code ?? e.message}`),
    );
  });
}
