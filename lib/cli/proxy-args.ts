/**
 * `--proxy <url>` and `--proxy-ca <file>` (certify, partner): the run's traffic through an HTTP proxy
 * (lib/tls/tunnel.ts). Checked before any traffic: a URL that does not parse, a CA file that cannot be read or holds
 * no certificate, a proxy that does not accept a connection — one line naming the option, exit 2.
 */
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parseProxyUrl, ProxyConfigError, proxyUnreachable, proxyRouteOf, type ProxyRoute } from '../tls/tunnel.ts';
import { usage } from './errors.ts';

export const PROXY_OPTIONS = {
  proxy: { type: 'string' },
  'proxy-ca': { type: 'string' },
} as const;

export const PROXY_HELP = `  --proxy <url>        send every connection to the target through this HTTP proxy (http://host:port,
                       CONNECT tunnels; TLS end to end with the profile's client certificate)
  --proxy-ca <file>    the CA (PEM) of a proxy that re-terminates TLS (Burp, ZAP, mitmproxy): trusted for the
                       target's certificate besides the profile's CA; the checks of the target's own TLS
                       handshake are then inconclusive (the client certificate is the one the proxy presents)
`;

/** --proxy and --proxy-ca as typed (the URL checked; the file read later by useProxy) */
export interface ProxyArgs {
  proxy?: string;
  proxyCa?: string;
}

/** the two options of a parsed command line; a usage error (CliError) for a proxy URL that does not parse */
export function proxyArgsOf(str: (k: string) => string | undefined): ProxyArgs {
  const proxy = str('proxy');
  const proxyCa = str('proxy-ca');
  if (proxyCa !== undefined && proxy === undefined) throw usage('--proxy-ca needs --proxy <url>');
  if (proxyCa !== undefined && proxyCa.trim() === '') throw usage('--proxy-ca needs a file');
  if (proxy !== undefined) {
    try {
      parseProxyUrl(proxy);
    } catch (e) {
      if (e instanceof ProxyConfigError) throw usage(e.message);
      throw e;
    }
  }
  return { ...(proxy !== undefined ? { proxy } : {}), ...(proxyCa !== undefined ? { proxyCa } : {}) };
}

/** the PEM certificate(s) of `file`, or one line saying why not */
function readCa(file: string): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new ProxyConfigError(`--proxy-ca: cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  const pems = text.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
  if (pems.length === 0) throw new ProxyConfigError(`--proxy-ca: ${file} holds no PEM certificate`);
  for (const pem of pems)
    try {
      new X509Certificate(pem);
    } catch {
      throw new ProxyConfigError(`--proxy-ca: ${file} holds a certificate that does not parse`);
    }
  return pems.join('\n');
}

/**
 * The route through the proxy of `args` (undefined when none is given), once the proxy accepted a connection; `path`
 * resolves a typed file name. The caller carries the route in the run's Transport (lib/http/transport.ts); throws
 * ProxyConfigError (one line, exit 2).
 */
export async function useProxy(args: ProxyArgs, path: (typed: string) => string): Promise<ProxyRoute | undefined> {
  if (args.proxy === undefined) return undefined;
  const url = parseProxyUrl(args.proxy);
  const ca = args.proxyCa !== undefined ? readCa(path(args.proxyCa)) : undefined;
  const down = await proxyUnreachable(url);
  if (down) throw new ProxyConfigError(`--proxy: ${down}`);
  return proxyRouteOf({ url, ...(ca ? { ca } : {}) });
}

/**
 * partner `--proxy`: the partner's client is the one that connects (to the bank the harness plays), so the proxy is
 * handed to it in the variables HTTP clients read (curl, most libraries): HTTPS_PROXY, HTTP_PROXY and their lower-case
 * spellings, NO_PROXY emptied (the bank listens on loopback, which some clients would otherwise reach directly)
 */
export function proxyEnvironment(url: URL): Record<string, string> {
  const u = url.origin;
  return { HTTPS_PROXY: u, HTTP_PROXY: u, https_proxy: u, http_proxy: u, NO_PROXY: '', no_proxy: '' };
}
