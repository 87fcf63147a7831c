/**
 * The run's transport as a value, handed down from the command line (lib/cli/certify-load.ts) through the run's
 * runtime (HarnessRuntime.transport) to the session's HTTP client and its bursts, so that a reader (and a tool)
 * can follow it: the wire tap of --har, and the route through --proxy (lib/tls/tunnel.ts) that every connector,
 * TLS probe and check of the run reads from here (CheckContext.proxy).
 */
import type { ProxyRoute } from '../tls/tunnel.ts';
import type { WireTap } from './record/tap.ts';

export interface Transport {
  /** --har: every exchange tapped as it crosses the wire (record/tap.ts) */
  har?: WireTap;
  /** --proxy (--proxy-ca): every connection to the target through it; none when the run connects directly */
  proxy?: ProxyRoute;
}
