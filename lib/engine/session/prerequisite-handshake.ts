/**
 * The first prerequisite, a mutual-TLS handshake with the code client's certificate (lib/engine/session/prerequisites.ts
 * runs it), and the errors every establishing step throws.
 */
import tls from 'node:tls';
import type { CheckContext } from './context.ts';
import type { RecordedExchange } from '../results.ts';
import { isServerCertificateCode } from '../../http/types.ts';
import { caSubjects, inspectServerCertificate, serverCertificateProblems } from '../../tls/server-cert.ts';
import {
  interceptedReason,
  openTunnel,
  proxyCertificateReason,
  withProxyCa,
  type ProxyError,
} from '../../tls/tunnel.ts';
import { HarnessError } from '../../errors.ts';

/** thrown by an establishing step: the prerequisite failed (fail) or another one explains it (Blocked) */
export class PrerequisiteFailed extends HarnessError {
  readonly code: 'PREREQUISITE_FAILED' | 'PREREQUISITE_RULE_BROKEN' = 'PREREQUISITE_FAILED';
}
/** the target answered, and what it answered breaks one rule (`rule`): a failure, never an unreachable target */
export class RuleBroken extends PrerequisiteFailed {
  override readonly code = 'PREREQUISITE_RULE_BROKEN';
  constructor(
    message: string,
    readonly rule: string,
  ) {
    super(message);
  }
}

/**
 * the handshake failed or its certificate was refused because of the run's proxy (lib/tls/tunnel.ts
 * proxyCertificateReason): the prerequisite is inconclusive, naming the proxy and what to pass; never the target's
 */
export class ThroughProxy extends PrerequisiteFailed {}

/** what one step leaves for a later one */
export interface Shared {
  tokenAnswer?: RecordedExchange;
  /** the server certificate the handshake saw (lower-case hex SHA-256 of the DER) */
  serverCertificateSha256?: string;
}

/**
 * The tls-handshake prerequisite: a verifying handshake as the code client; a certificate it refuses breaks TLS-05
 * (read again without verifying it, for the evidence), anything else fails the prerequisite.
 */
export function tlsHandshake(ctx: CheckContext, shared: Shared): Promise<string> {
  return handshake(ctx, shared).catch(async (e: unknown) => {
    throw e instanceof CertificateRefused ? await certificateFailure(ctx, e, shared) : e;
  });
}

/** a TLS handshake as the code client; the connect budget bounds TCP connect and handshake together */
async function handshake(ctx: CheckContext, shared: Shared): Promise<string> {
  const url = new URL(ctx.url('validate'));
  const id = ctx.identity('code');
  const budgetMs = ctx.profile.run.connectTimeoutMs ?? ctx.profile.run.requestTimeoutMs;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const servername = id?.serverName ?? (/^[\d.]+$|:/.test(host) ? undefined : host);
  const port = Number(url.port || 443);
  // through the run's proxy (lib/tls/tunnel.ts): the handshake in a CONNECT tunnel; its refusal is the proxy's
  const proxy = ctx.proxy?.url;
  const tunnel = proxy
    ? await openTunnel(proxy, host, port, budgetMs, id?.localAddress).catch((e: ProxyError) => {
        throw new PrerequisiteFailed(`no TCP connection: ${e.code}: ${e.message}`);
      })
    : undefined;
  const ca = withProxyCa(ctx.proxy, id?.ca);
  return new Promise<string>((resolve, reject) => {
    let connected = tunnel !== undefined;
    const socket = tls.connect({
      ...(tunnel ? { socket: tunnel } : { host, port }),
      ...(servername ? { servername } : {}),
      ...(ca ? { ca } : {}),
      ...(id?.certificate ? { cert: id.certificate, key: id.privateKey } : {}),
      ...(id?.localAddress ? { localAddress: id.localAddress } : {}),
      rejectUnauthorized: true,
    });
    const end = (e?: Error): void => {
      clearTimeout(timer);
      socket.destroy();
      if (e) reject(e);
    };
    const timer = setTimeout(() => {
      const s = budgetMs / 1000;
      end(new PrerequisiteFailed(connected ? `no TLS handshake within ${s} s` : `no TCP connection within ${s} s`));
    }, budgetMs);
    socket.once('connect', () => (connected = true));
    socket.once('secureConnect', () => {
      ctx.tls({ label: 'prerequisite handshake', protocol: socket.getProtocol(), outcome: 'handshake completed' });
      const peer = socket.getPeerX509Certificate();
      // through a proxy that re-terminates TLS the certificate is the proxy's: not the target's fingerprint
      if (peer && !interceptedReason(ctx.proxy))
        shared.serverCertificateSha256 = peer.fingerprint256.replace(/:/g, '').toLowerCase();
      const note = `${socket.getProtocol() ?? 'TLS'} with ${host}:${url.port}`;
      end();
      resolve(note);
    });
    socket.once('error', (e: Error & { code?: string }) => {
      const code = e.code ?? 'ERROR';
      if (connected && isServerCertificateCode(code)) return end(new CertificateRefused(code, e.message));
      const why = connected
        ? `TLS handshake failed: ${code}: ${e.message}`
        : `no TCP connection: ${code}: ${e.message}`;
      // through a proxy that re-terminates TLS the handshake is the proxy's (it may have broken it upstream)
      const proxied =
        connected && ctx.proxy?.intercepting
          ? proxyCertificateReason(ctx.proxy, { issuedByTargetCa: false })
          : undefined;
      end(proxied ? new ThroughProxy(`${why}: ${proxied}`) : new PrerequisiteFailed(why));
    });
  });
}

/** the verifying handshake refused the server's certificate (the target did answer) */
class CertificateRefused extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * A handshake refused for the server certificate breaks TLS-05: the certificate is read over a connection that does
 * not verify it and judged (lib/tls/server-cert.ts), so that the reason and the evidence say what was presented.
 */
async function certificateFailure(ctx: CheckContext, refused: CertificateRefused, shared: Shared): Promise<Error> {
  const url = new URL(ctx.url('validate'));
  const id = ctx.identity('code');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const handshakeSaid = `the verifying handshake refused it: ${refused.code}: ${refused.message}`;
  try {
    const s = await inspectServerCertificate({
      host,
      port: Number(url.port || 443),
      ca: id?.ca ?? [],
      ...(id?.serverName ? { servername: id.serverName } : {}),
      ...(id?.certificate && id.privateKey ? { cert: id.certificate, key: id.privateKey } : {}),
      ...(id?.localAddress ? { localAddress: id.localAddress } : {}),
      timeoutMs: ctx.profile.run.connectTimeoutMs ?? ctx.profile.run.requestTimeoutMs,
      ...(ctx.proxy ? { proxy: ctx.proxy } : {}),
    });
    ctx.tls({ ...s.evidence, label: 'prerequisite: the server certificate presented (read without verifying it)' });
    shared.serverCertificateSha256 = s.sha256;
    const problems = serverCertificateProblems(s, id?.ca);
    const what = problems.length ? problems.join('; ') : 'was refused';
    // seen through the run's proxy: the proxy's certificate, unless it is shown to be the target's (its CA's)
    const issuedByTargetCa = s.chainsToCa || caSubjects(id?.ca).includes(s.issuer);
    const proxied = proxyCertificateReason(ctx.proxy, { issuer: s.issuer, issuedByTargetCa });
    if (proxied)
      return new ThroughProxy(
        `the server certificate was refused (${s.subject}: ${handshakeSaid}); TLS-05 not judged: ${proxied}`,
      );
    return new RuleBroken(
      `the server certificate fails TLS-05: it ${what} (presented: ${s.subject}, issued by ${s.issuer}; ${handshakeSaid})`,
      'TLS-05',
    );
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    // not read again through the run's proxy: nothing shows that the certificate refused was the target's
    const proxied = proxyCertificateReason(ctx.proxy, { issuedByTargetCa: false });
    if (proxied)
      return new ThroughProxy(
        `the server certificate was refused (${handshakeSaid}; not read again: ${why}): ${proxied}`,
      );
    return new RuleBroken(`the server certificate fails TLS-05: ${handshakeSaid} (not read again: ${why})`, 'TLS-05');
  }
}
