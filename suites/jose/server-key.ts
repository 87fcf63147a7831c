/**
 * The public key of the target's TLS server certificate, read from a handshake (JOSE-07: a request encrypted
 * to the bank's TLS key instead of its API-domain key must be refused). The handshake presents the calling
 * client's certificate (UAT requires one); the server certificate is not judged here (TLS-05 does that).
 */
import { connect } from 'node:tls';
import type { Identity } from '../../lib/http/types.ts';

const TIMEOUT_MS = 5_000;

/** SPKI PEM of the server certificate's key, or undefined (not https, no handshake, no certificate) */
export function serverPublicKey(url: string, identity: Identity | undefined): Promise<string | undefined> {
  const u = new URL(url);
  if (u.protocol !== 'https:') return Promise.resolve(undefined);
  const host = u.hostname.replace(/^\[|\]$/g, '');
  const servername = identity?.serverName ?? (/^[\d.]+$/.test(host) || host.includes(':') ? undefined : host);
  return new Promise((resolve) => {
    const socket = connect({
      host,
      port: Number(u.port || 443),
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
