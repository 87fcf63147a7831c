/**
 * `npm run send`'s transport (lib/workbench/send-transport.ts): --proxy and --proxy-ca route the call through the
 * reviewer's proxy as certify's do (lib/cli/proxy-args.ts: checked to answer first, one line and exit 2 otherwise),
 * --har writes the exchanges as HAR 1.2 (lib/report/har.ts), each sent by "send".
 */
import { writeHar } from '../report/har.ts';
import { ProxyConfigError } from '../tls/tunnel.ts';
import { SendUsage } from '../workbench/send-args.ts';
import type { TransportFactory } from '../workbench/send-transport.ts';
import { useProxy } from './proxy-args.ts';

export const proxyHarTransport: TransportFactory = async (o) => {
  let route;
  try {
    route = await useProxy(o, (p) => p);
  } catch (e) {
    if (e instanceof ProxyConfigError) throw new SendUsage(e.message);
    throw e;
  }
  const tls = route?.intercepting ? ' (re-terminating TLS: its CA trusted)' : '';
  return {
    via: route ? `through the proxy ${route.url.origin}${tls}` : 'direct',
    // the route travels in the session's runtime (lib/http/transport.ts), as certify's does
    runtime: (r) => (route ? { ...r, transport: { ...r.transport, proxy: route } } : r),
    finish: async (exchanges) => {
      if (!o.har) return [];
      const har = writeHar(
        o.har,
        exchanges.map((exchange) => ({ exchange, sentBy: 'send' })),
      );
      return [`har: ${o.har} (${har.log.entries.length} exchanges)`];
    },
  };
};
