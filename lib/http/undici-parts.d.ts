// Declarations of the undici modules lib/http/undici.ts loads one by one (undici declares only its index): each is
// the index's own export of the same name.
/* eslint-disable no-duplicate-imports -- each ambient module's block imports undici's types for itself */
declare module 'undici/lib/dispatcher/agent.js' {
  import type { Agent } from 'undici';
  const AgentImpl: typeof Agent;
  export default AgentImpl;
}
declare module 'undici/lib/core/connect.js' {
  import type { buildConnector } from 'undici';
  const buildConnectorImpl: typeof buildConnector;
  export default buildConnectorImpl;
}
declare module 'undici/lib/core/util.js' {
  const util: {
    parseURL(url: string | URL): URL;
    parseHeaders(headers: Buffer[]): Record<string, string | string[] | undefined>;
  };
  export default util;
}
