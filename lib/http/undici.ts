/**
 * The parts of undici the harness uses (an Agent, its TLS connector, a request on a dispatcher), each from its own
 * module: undici's index loads all of undici (fetch, WebSocket, caches, mock agents: the largest chunk of certify's
 * bundle and some 50 ms of its main thread at every start, before the first call; docs/performance.md "Start-up").
 * `request` is undici's, called on the dispatcher given, as undici's index does once it has one (the URL parsed and
 * checked by undici's own parseURL, the same default method); typed by undici's declarations (undici-parts.d.ts).
 */
import type { Dispatcher } from 'undici';
import AgentImpl from 'undici/lib/dispatcher/agent.js';
import buildConnectorImpl from 'undici/lib/core/connect.js';
import requestOn from 'undici/lib/api/api-request.js';
import undiciUtil from 'undici/lib/core/util.js';

export const Agent = AgentImpl;
export type Agent = InstanceType<typeof AgentImpl>;
export const buildConnector = buildConnectorImpl;

/** undici's `request(url, opts)` on `opts.dispatcher` (never the global one: every call of the harness names its own) */
export function request(
  url: string,
  opts: { dispatcher: Dispatcher } & Omit<Dispatcher.RequestOptions, 'origin' | 'path' | 'method'> &
    Partial<Pick<Dispatcher.RequestOptions, 'method'>>,
): Promise<Dispatcher.ResponseData> {
  const u = undiciUtil.parseURL(url);
  const { dispatcher, ...rest } = opts;
  return requestOn.call(dispatcher, {
    ...rest,
    origin: u.origin,
    path: u.search ? `${u.pathname}${u.search}` : u.pathname,
    method: opts.method || (opts.body ? 'PUT' : 'GET'),
  });
}
