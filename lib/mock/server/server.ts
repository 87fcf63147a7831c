/**
 * The API listener: plain node:http (sandbox) or node:https (UAT), no framework. UAT requests a client
 * certificate without rejecting the handshake, so the refusals of tls-gate.ts carry their reasons. The TLS
 * context follows the faults (legacy protocol versions, weak ciphers, a weak server key) via
 * setSecureContext, which applies to new connections.
 */
import http from 'node:http';
import https from 'node:https';
import type net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { SecureContextOptions } from 'node:tls';
import { startAcceptQueue } from './accept-queue.ts';
import type { MockContext } from '../context.ts';
import { apiError, apiErrorBody } from '../errors.ts';
import { closeInStages, readBody, sendJson, setPrebuffered } from './http.ts';
import { Gateway } from './gateway.ts';
import { handleAuthorize, handleCcToken, handleCodeToken, handleConsent, handleIntrospect } from '../oauth/oauth.ts';
import { serverCertificate } from './server-cert.ts';
import { networkGate } from './tls-gate.ts';
import { handleTransfers } from '../transfers/transfers.ts';
import type { ThrottleOptions } from '../types.ts';
import type { Waits } from '../../waits.ts';

export const PATHS = {
  transfersBasepath: '/v1',
  unversionedBasepath: '/api',
  authorize: '/oauth/v1/authorize',
  consent: '/oauth/v1/authorize/consent',
  token: '/oauth/v1/token',
  partnerToken: '/oauth/partner_auth/token',
  internalToken: '/oauth/internal_auth/token',
  introspect: '/oauth/v1/introspect',
} as const;

export function transfersBasepath(ctx: MockContext): string {
  return ctx.faults.on('basepath-unversioned') ? PATHS.unversionedBasepath : PATHS.transfersBasepath;
}

/** the answer to a request the network gate refused (source address, client certificate) */
function refuseByGate(
  ctx: MockContext,
  res: http.ServerResponse,
  gate: { kind: string; reason: string },
  isOAuth: boolean,
): void {
  if (gate.kind === 'source_address') {
    return sendJson(
      res,
      403,
      apiErrorBody(
        apiError(403, 2, 'source_address', 'Source address not allowed', `The call was refused: ${gate.reason}.`),
        ctx.faults,
      ),
    );
  }
  if (isOAuth) {
    return sendJson(
      res,
      401,
      { error: 'invalid_client', error_description: `client certificate refused: ${gate.reason}` },
      { headers: { 'Cache-Control': 'no-store', 'WWW-Authenticate': 'Basic realm="oauth"' } },
    );
  }
  return sendJson(
    res,
    403,
    apiErrorBody(
      apiError(
        403,
        3,
        'client_certificate',
        'Client certificate refused',
        `The client certificate was refused: ${gate.reason}.`,
      ),
      ctx.faults,
    ),
  );
}

type Gate = Extract<ReturnType<typeof networkGate>, { ok: true }>;

/** the OAuth endpoints; undefined when the path is not one of them */
function routeOAuth(
  ctx: MockContext,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  path: string,
  url: () => URL,
  gate: Gate,
): Promise<void> | undefined {
  const method = req.method ?? 'GET';
  const route = (expected: string, run: () => Promise<void>): Promise<void> => {
    if (method === expected) return run();
    sendJson(
      res,
      405,
      { error: 'invalid_request', error_description: `use ${expected}` },
      { headers: { Allow: expected, 'Cache-Control': 'no-store' } },
    );
    return Promise.resolve();
  };
  switch (path) {
    case PATHS.authorize:
      return route('GET', () => handleAuthorize(ctx, req, res, url(), gate));
    case PATHS.consent:
      return route('POST', () => handleConsent(ctx, req, res, gate));
    case PATHS.token:
      return route('POST', () => handleCodeToken(ctx, req, res, gate));
    case PATHS.partnerToken:
      return route('POST', () => handleCcToken(ctx, req, res, gate, 'partner'));
    case PATHS.internalToken:
      return route('POST', () => handleCcToken(ctx, req, res, gate, 'internal'));
    case PATHS.introspect:
      return route('POST', () => handleIntrospect(ctx, req, res, gate));
    default:
      return undefined;
  }
}

/**
 * a request target that the URL parser leaves as it is: a path of unreserved characters and slashes, not starting with
 * two slashes (an authority), no dot segment, percent sign, query or fragment; its URL is parsed only where read
 */
const PLAIN_PATH = /^\/(?!\/)[A-Za-z0-9_~/-]*$/;

const BASE_URL = 'http://mock.invalid';

/** a request target's path and its URL (parsed when first asked for); throws as the URL parser does */
export function requestTarget(target: string): { path: string; url: () => URL } {
  if (PLAIN_PATH.test(target)) {
    let parsed: URL | undefined;
    return { path: target, url: () => (parsed ??= new URL(target, BASE_URL)) };
  }
  const url = new URL(target, BASE_URL);
  return { path: url.pathname, url: () => url };
}

export async function handleRequest(
  ctx: MockContext,
  req: http.IncomingMessage,
  res: http.ServerResponse,
): Promise<void> {
  let target: ReturnType<typeof requestTarget>;
  try {
    target = requestTarget(req.url ?? '/');
  } catch {
    return sendJson(
      res,
      400,
      apiErrorBody(apiError(400, 5, 'path', 'Malformed request', 'The request target is malformed.'), ctx.faults),
    );
  }
  const { path } = target;
  const gate = networkGate(ctx, req);
  if (!gate.ok) return refuseByGate(ctx, res, gate, path.startsWith('/oauth/'));
  const oauth = routeOAuth(ctx, req, res, path, target.url, gate);
  if (oauth) return oauth;
  // an authorization server alone (MockOptions.oauth.noApi): no API behind it
  if (ctx.oauth.noApi) return sendJson(res, 404, { error: 'not_found' });
  // lenient: the unversioned path is served too (CONV-01 is a SHOULD); the advertised basepath stays versioned
  const bases = ctx.faults.on('basepath-unversioned')
    ? [PATHS.transfersBasepath, PATHS.unversionedBasepath]
    : ctx.lenient
      ? [PATHS.transfersBasepath, '']
      : [PATHS.transfersBasepath];
  for (const base of bases) {
    if (path.startsWith(`${base}/`)) return handleTransfers(ctx, req, res, path.slice(base.length), gate);
  }
  return sendJson(
    res,
    404,
    apiErrorBody(apiError(404, 2, 'path', 'Resource not found', 'No resource exists at this path.'), ctx.faults),
  );
}

export interface ApiListener {
  url: string;
  close(): Promise<void>;
}

export interface ListenerOptions {
  /** every answer is sent this many ms late (a distant target) */
  latencyMs?: number;
  /** drop a client that has not sent its request head within this (default 10 s) */
  headersTimeoutMs?: number;
  /** drop a client that has not sent its whole request within this (default 30 s) */
  requestTimeoutMs?: number;
  /** a small server: the listen backlog (accept-queue.ts) */
  backlog?: number;
  /** a small server: connections served at once, the others wait (accept-queue.ts); one request per connection */
  maxConnections?: number;
  /** every answer carries `Connection: close` and its connection is closed after it (MockOptions.connectionClose) */
  connectionClose?: boolean;
  /** a new connection is served only `latencyMs` after it was accepted (MockOptions.connectRoundTrip) */
  connectRoundTrip?: boolean;
  /** a gateway that throttles in front of the bank (gateway.ts) */
  throttle?: ThrottleOptions;
  /** the time of the gateway's bucket (MockOptions.waits) */
  waits?: Waits;
  /** close at once after an answer that left a body unread, not in stages (MockOptions.abortiveClose) */
  abortiveClose?: boolean;
}

/** delays every answer (writeHead and end) by the latency, keeping their order */
export function delayAnswers(res: http.ServerResponse, ms: number): void {
  const started = Date.now();
  const end = res.end.bind(res) as (...a: unknown[]) => http.ServerResponse;
  res.end = ((...a: unknown[]) => {
    const wait = started + ms - Date.now();
    if (wait <= 0) return end(...a);
    setTimeout(() => end(...a), wait).unref();
    return res;
  }) as typeof res.end;
}

/**
 * a new connection is served (its TLS handshake, its requests read) only `ms` after it was accepted: a distant
 * target's connect costs a round trip before its first answer, which a connection opened ahead of its call has paid
 */
export function delayConnections(server: net.Server, ms: number): void {
  const serve = server.listeners('connection') as ((socket: net.Socket) => void)[];
  server.removeAllListeners('connection');
  // nothing is read from a new connection until it is served (what the client sends meanwhile waits in the kernel)
  (server as net.Server & { pauseOnConnect: boolean }).pauseOnConnect = true;
  server.on('connection', (socket: net.Socket) => {
    const timer = setTimeout(() => {
      socket.off('close', cancel);
      for (const l of serve) l.call(server, socket);
      socket.resume();
    }, ms);
    const cancel = (): void => clearTimeout(timer);
    socket.once('close', cancel);
    socket.on('error', () => {});
  });
}

/**
 * the answer says `Connection: close` and its connection is closed once it is sent (node:http does both when the
 * response may not keep the connection alive), whatever the request asked for
 */
export function closeAfter(res: http.ServerResponse): void {
  res.shouldKeepAlive = false;
}

export async function startApiListener(
  ctx: MockContext,
  host: string,
  port: number,
  o: ListenerOptions = {},
): Promise<ApiListener> {
  // partner certification: an intercept sees the request (body read) first and may answer it itself
  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    if (!ctx.intercept) return handleRequest(ctx, req, res);
    const read = await readBody(req, ctx.maxBodyBytes);
    setPrebuffered(req, read);
    return ctx.intercept({ req, res, body: read.ok ? read.body : undefined }, () => handleRequest(ctx, req, res));
  };
  const gateway = o.throttle ? new Gateway(o.throttle, o.waits) : undefined;
  const onRequest = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    if (o.latencyMs) delayAnswers(res, o.latencyMs);
    if (o.connectionClose) closeAfter(res);
    if (!o.abortiveClose) closeInStages(req);
    // a gateway that throttles answers before the bank sees the call
    if (gateway?.refuse(req, res)) return;
    // a small server closes a connection after its answer while others wait for a place (an idle one would hold
    // it); idle connections are dropped after 2 s (keepAliveTimeout below)
    if (o.maxConnections !== undefined && waiting() > 0) res.shouldKeepAlive = false;
    handle(req, res).catch((e: unknown) => {
      if (process.env.MOCK_DEBUG)
        process.stderr.write(`mock: internal error: ${e instanceof Error ? e.stack : String(e)}\n`);
      if (!res.headersSent)
        sendJson(
          res,
          500,
          apiErrorBody(apiError(500, 1, 'server', 'Internal error', 'The request could not be processed.'), ctx.faults),
        );
      else res.destroy();
    });
  };

  /** connections waiting for a place at a small server (listenOn) */
  let waiting = (): number => 0;
  // slow clients cannot hold the listener: a head or a request that does not arrive in time is dropped
  const headersTimeout = o.headersTimeoutMs ?? 10_000;
  const requestTimeout = Math.max(o.requestTimeoutMs ?? 30_000, headersTimeout + 1);
  const limits = {
    headersTimeout,
    requestTimeout,
    connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(headersTimeout / 4))),
    keepAliveTimeout: o.maxConnections !== undefined ? 2000 : 5000,
  };
  let server: http.Server | https.Server;
  if (ctx.mode === 'uat') {
    const variants = new Map<string, { cert: string; key: string }>();
    const contextOptions = (): SecureContextOptions => {
      const f = ctx.faults;
      const legacy = f.on('tls-accept-tls1_1');
      const weak = f.on('tls-weak-ciphers');
      const server = serverCertificate(ctx.pki, f, variants);
      return {
        ...server,
        ca: ctx.pki.partnerCa.certPem,
        minVersion: legacy ? 'TLSv1' : f.on('tls12-refused') ? 'TLSv1.3' : 'TLSv1.2',
        // TLS 1.0/1.1 need SECLEVEL=0 in OpenSSL 3 (docs/design.md, "TLS as Node and OpenSSL do it"); ALL adds
        // anonymous suites
        ...(weak ? { ciphers: 'ALL:@SECLEVEL=0' } : legacy ? { ciphers: 'DEFAULT:@SECLEVEL=0' } : {}),
        ...ctx.tls,
      };
    };
    const s = https.createServer(
      { ...contextOptions(), ...limits, requestCert: true, rejectUnauthorized: false },
      onRequest,
    );
    ctx.faults.onChange(() => s.setSecureContext(contextOptions()));
    server = s;
  } else {
    server = http.createServer(limits, onRequest);
  }
  if (o.connectRoundTrip && o.latencyMs) delayConnections(server, o.latencyMs);
  const { addr, close, queue } = await listenOn(server, host, port, o);
  waiting = queue;
  const shownHost = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  return {
    url: `${ctx.mode === 'uat' ? 'https' : 'http'}://${shownHost}:${addr.port}`,
    close,
  };
}

/** listens directly, or behind a small server's accept queue when the options give a backlog or a maximum */
async function listenOn(
  server: http.Server,
  host: string,
  port: number,
  o: ListenerOptions,
): Promise<{ addr: AddressInfo; close: () => Promise<void>; queue: () => number }> {
  if (o.backlog !== undefined || o.maxConnections !== undefined) {
    const front = await startAcceptQueue(server, host, port, {
      ...(o.backlog !== undefined ? { backlog: o.backlog } : {}),
      ...(o.maxConnections !== undefined ? { maxConnections: o.maxConnections } : {}),
    });
    return {
      addr: front.address(),
      queue: () => front.waiting(),
      close: async () => {
        server.closeAllConnections();
        await front.close();
      },
    };
  }
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return { addr: server.address() as AddressInfo, close: () => closeServer(server), queue: () => 0 };
}

export function closeServer(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
