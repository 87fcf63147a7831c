/**
 * The run's transport as a value, handed down from the command line (lib/cli/certify-load.ts) through the run's
 * runtime (HarnessRuntime.transport) to the session's HTTP client and its bursts, so that a reader (and a tool)
 * can follow it: the wire tap of --har. The proxy route (lib/tls/tunnel.ts) is still set process-wide.
 */
import type { WireTap } from './record/tap.ts';

export interface Transport {
  /** --har: every exchange tapped as it crosses the wire (record/tap.ts) */
  har?: WireTap;
}
