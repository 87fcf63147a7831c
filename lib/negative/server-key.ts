/**
 * The public key of the target's TLS server certificate, read from a handshake (JOSE-07: a request encrypted
 * to the bank's TLS key instead of its API-domain key must be refused). The handshake presents the calling
 * client's certificate (UAT requires one); the server certificate is not judged here (TLS-05 does that).
 */
import type { Socket } from 'node:net';
import { connect } from 'node:tls';
import type { Identity } from '../http/types.ts';
import { interceptedReason, openTunnel, type ProxyRoute } from '../tls/tunnel.ts';

const TIMEOUT_MS = 5_000;

/**
 * SPKI PEM of the server certificate's key, or undefined (not https, no handshake, no certificate); through the run's
 * proxy (`route`, lib/http/transport.ts) when it has one
 */
export function serverPublicKey(
  url: string,
  identity: Identity | undefined,
  route?: ProxyRoute,
): Promise<string | undefined> {
  const u = new URL(url);
  if (u.protocol !== 'https:') return Promise.resolve(undefined);
  const host = u.hostname.replace(/^\[|\]$/g, '');
  const servername = identity?.serverName ?? (/^[\d.]+$/.test(host) || host.includes(':') ? undefined : host);
  const port = Number(u.port || 443);
  // through a proxy that re-terminates TLS the key read would be the proxy's: none is read (interceptedReason)
  if (interceptedReason(route)) return Promise.resolve(undefined);
  const proxy = route?.url;
  if (!proxy) return keyOver(host, port, servername, identity);
  return openTunnel(proxy, host, port, TIMEOUT_MS, identity?.localAddress).then(
    (tunnel) => keyOver(host, port, servername, identity, tunnel),
    () => undefined,
  );
}

/** the handshake of serverPublicKey, in a tunnel through the run's proxy when one is given */
function keyOver(
  host: string,
  port: number,
  servername: string | undefined,
  identity: Identity | undefined,
  tunnel?: Socket,
): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = connect({
      ...(tunnel ? { socket: tunnel } : { host, port }),
      ...(servername ? { servername } : {}),
      ...(identity?.ca ? { ca: identity.ca } : {}),
      ...(identity?.certificate ? { cert: identity.certificate } : {}),
      ...(identity?.privateKey ? { key: identity.privateKey } : {}),
      ...(identity?.localAddress ? { localAddress: identity.localAddress } : {}),
      minVersion: 'TLSv1.2',
      // only the key is read: verification is TLS-05's business
      rejectUnauthorized: false,
      ALPNProtocols: ['http/1.1'],
    });
    const done = (v: string | undefined): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(v);
    };
    const timer = setTimeout(() => done(undefined), TIMEOUT_MS);
    socket.once('secureConnect', () => {
      const x = socket.getPeerX509Certificate();
      done(x ? (x.publicKey.export({ type: 'spki', format: 'pem' }) as string) : undefined);
    });
    socket.once('error', () => done(undefined));
  });
}
