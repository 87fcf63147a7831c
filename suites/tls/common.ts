/**
 * What the TLS checks share: the endpoint a probe connects to (from the profile), a probe whose error is
 * inconclusive, the registered client certificate, and the TLS 1.2 positive control.
 */
import { failValue, Inconclusive } from '../../lib/engine/check.ts';
import type { CheckContext } from '../../lib/engine/session/context.ts';
import { probeWhileThrottled } from '../../lib/engine/session/throttle/throttled-calls.ts';
import { TlsProbeError, probeProtocol } from '../../lib/tls/probe.ts';
import { interceptedReason, type ProxyRoute } from '../../lib/tls/tunnel.ts';

export interface Endpoint {
  host: string;
  port: number;
  ca: string;
  servername?: string;
  localAddress?: string;
  /** the run's proxy (CheckContext.proxy): the probes' handshakes in a tunnel through it */
  proxy?: ProxyRoute;
}

/** host and port of an https URL, with the profile's CA, server name and allow-listed source address */
export function endpointOf(ctx: CheckContext, url = ctx.profile.target.baseUrl): Endpoint {
  const tls = ctx.profile.tls;
  if (!tls) throw new Inconclusive('the profile has no tls section');
  const u = new URL(url);
  // through a proxy that re-terminates TLS, a handshake is the proxy's, and so is the client certificate the target sees
  const intercepted = interceptedReason(ctx.proxy);
  if (intercepted) throw new Inconclusive(intercepted);
  if (u.protocol !== 'https:') throw new Inconclusive(`${u.origin} is not an https URL: no TLS to probe`);
  return {
    host: u.hostname.replace(/^\[|\]$/g, ''),
    port: u.port ? Number(u.port) : 443,
    ca: tls.caCertificate,
    ...(tls.serverName ? { servername: tls.serverName } : {}),
    ...(tls.allowedSourceAddress ? { localAddress: tls.allowedSourceAddress } : {}),
    ...(ctx.proxy ? { proxy: ctx.proxy } : {}),
  };
}

/**
 * runs a probe; a probe error (network, timeout, client cannot offer it, untrusted server) is inconclusive. The
 * probe's connection takes a place among the calls in flight to the target (a small target, docs/design.md); one that
 * timed out among other calls is probed again alone (a handshake changes nothing at the target) before it counts.
 */
export async function probe<T>(ctx: CheckContext, what: string, probeOnce: () => Promise<T>): Promise<T> {
  const url = ctx.profile.target.baseUrl;
  // a gateway's throttle answer (lib/engine/session/throttle/throttled-calls.ts) is probed again after a wait, never judged
  const run = (): Promise<T> =>
    probeWhileThrottled(probeOnce, httpAnswerOf, {
      quotaStatus: ctx.profile.contract.quota.status,
      what,
      note: (t) => ctx.note(t),
      ...(ctx.options.waits ? { waits: ctx.options.waits } : {}),
    });
  try {
    try {
      return await (ctx.holding ? ctx.holding(url, run) : run());
    } catch (e) {
      if (!(e instanceof TlsProbeError && e.code === 'TLS_PROBE_TIMEOUT' && ctx.holding)) throw e;
      ctx.note(`${what}: no handshake result while other calls were in flight; probed again alone`);
      return await ctx.holding(url, run, { alone: true });
    }
  } catch (e) {
    if (e instanceof TlsProbeError) throw new Inconclusive(`${what}: ${e.code}: ${e.message}`);
    throw e;
  }
}

/** the HTTP answer of a probe's result, when it got one (ClientCertProbeResult: outcome 'http', status, body) */
function httpAnswerOf(r: unknown): { status: number; body?: string } | undefined {
  if (typeof r !== 'object' || r === null) return undefined;
  const x = r as { outcome?: unknown; status?: unknown; body?: unknown };
  if (x.outcome !== 'http' || typeof x.status !== 'number') return undefined;
  return { status: x.status, ...(typeof x.body === 'string' ? { body: x.body } : {}) };
}

/** the registered client certificate of the code client, for probes that should not fail for want of one */
export function codeCert(ctx: CheckContext): { cert: string; key: string } {
  const id = ctx.identity('code');
  if (!id?.certificate || !id.privateKey)
    throw new Inconclusive('the profile gives no certificate for the code client');
  return { cert: id.certificate, key: id.privateKey };
}

/** a TLS 1.2 handshake with the registered certificate: the positive control of the refusal checks */
export async function expectTls12(ctx: CheckContext, ep: Endpoint, control: boolean): Promise<void> {
  const r = await probe(ctx, 'TLS 1.2 probe', () => probeProtocol({ ...ep, ...codeCert(ctx), version: 'TLSv1.2' }));
  ctx.tls(r.evidence);
  if (r.accepted) return;
  if (control)
    throw new Inconclusive(
      `control: a TLS 1.2 handshake with the registered certificate failed too (${r.error ?? r.negotiated}); a refusal proves nothing`,
    );
  failValue(
    'TLS 1.2 handshake',
    `a TLS 1.2 handshake was refused: ${r.error ?? `negotiated ${r.negotiated}`}`,
    'TLS 1.2 accepted',
    r.error ?? r.negotiated,
  );
}
