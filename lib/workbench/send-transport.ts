/**
 * How `npm run send` carries its one call: directly (the default), or through what `--proxy` and `--har` ask for.
 * The command parses both options and hands them to a transport factory; the default factory sends directly and
 * writes no HAR, and refuses the two options (a reviewer who asked for their proxy must not get a direct call that
 * looks as if it went through it). A factory that implements them is passed to runSend (lib/workbench/send.ts).
 */
import type { HarnessRuntime } from '../engine/run/runtime.ts';
import type { RecordedExchange } from '../http/types.ts';
import { SendUsage } from './send-args.ts';

export interface TransportOptions {
  /** --proxy: the HTTP proxy every request goes through */
  proxy?: string;
  /** --proxy-ca: the CA file of a proxy that re-terminates TLS */
  proxyCa?: string;
  /** --har: the file the exchanges are written to, as HAR 1.2 */
  har?: string;
}

export interface SendTransport {
  /** how the call travels, for the output's first lines ("direct") */
  readonly via: string;
  /** the runtime the send's session runs with (a proxy transport sets its dispatcher there) */
  runtime(r: HarnessRuntime): HarnessRuntime;
  /** the send's exchanges once it ended (token flow and call, already redacted); lines to print (e.g. "HAR: f") */
  finish(exchanges: readonly RecordedExchange[]): Promise<string[]>;
}

/**
 * the transport for the command line's options; may check them first (a proxy that answers): a SendUsage for one
 * that cannot be used (one line, exit 2, nothing sent)
 */
export type TransportFactory = (o: TransportOptions) => SendTransport | Promise<SendTransport>;

/** the default: no proxy, no HAR; asked for either, a usage error naming the option (nothing is sent) */
export const directTransport: TransportFactory = (o) => {
  if (o.proxy !== undefined) throw new SendUsage('--proxy: this build of send has no proxy transport');
  if (o.har !== undefined) throw new SendUsage('--har: this build of send has no HAR writer');
  return { via: 'direct', runtime: (r) => r, finish: async () => [] };
};
