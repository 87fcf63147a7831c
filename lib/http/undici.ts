/**
 * The parts of undici the harness uses (an Agent, its TLS connector, its URL check and header parse), each from its
 * own module: undici's index loads all of undici (fetch, WebSocket, caches, mock agents: the largest chunk of certify's
 * bundle and some 50 ms of its main thread at every start, before the first call; docs/performance.md "Start-up").
 * A call is dispatched on an Agent with a handler of the harness's (answer.ts), not through undici's `request`;
 * typed by undici's declarations (undici-parts.d.ts).
 */
import AgentImpl from 'undici/lib/dispatcher/agent.js';
import buildConnectorImpl from 'undici/lib/core/connect.js';
import undiciUtil from 'undici/lib/core/util.js';

export const Agent = AgentImpl;
export type Agent = InstanceType<typeof AgentImpl>;
export const buildConnector = buildConnectorImpl;
/** undici's URL check (its `request`'s) and its parse of a response's raw headers (names in lower case) */
export const parseURL = (url: string): URL => undiciUtil.parseURL(url);
export const parseHeaders = (raw: Buffer[]): Record<string, string | string[] | undefined> =>
  undiciUtil.parseHeaders(raw);
