import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TestPki } from '../pki/types.ts';
import type { Waits } from '../waits.ts';
import type { Environment, FullProfileInput } from '../profile/schema.ts';

/** A fault breaks exactly one rule of the mock, so that the check for that rule can be shown to fail. */
export interface FaultDefinition {
  /** kebab-case id, e.g. "jose-accept-plain" */
  id: string;
  /** requirement ids whose checks must fail with this fault on (and no others) */
  requirements: string[];
  /** environments in which the fault has an effect */
  environments: Environment[];
  description: string;
}

export interface MockOptions {
  mode: Environment;
  pki: TestPki;
  /** API listener host, default 127.0.0.1; port 0 = any */
  host?: string;
  port?: number;
  /** admin listener (clock, faults, consent): always loopback; port 0 = any */
  adminPort?: number;
  faults?: string[];
  /** /authorize answers 302 with the code at once (default true) */
  autoConsent?: boolean;
  /** source addresses allowed in UAT (default ["127.0.0.1", "::1"]) */
  allowList?: string[];
  /** plan-wide quota per hour, when set */
  planPerHour?: number;
  /**
   * a gateway's spike arrest in front of the quota: a client's API calls beyond `perSecond` within one second of
   * real time are refused with 429 and Retry-After: 1, and not counted (what the quota checks must wait out)
   */
  spikeArrest?: SpikeArrest;
  /** largest request body accepted, bytes (default 1 MiB; lenient: no limit) */
  maxBodyBytes?: number;
  /**
   * Lenient but conformant: every leniency the rules allow at once (JOSE: last-wins duplicated members, zip DEF,
   * several recipients/signatures; invalid_token on a missing token, 404 for GET /transfers/validate, extra members
   * in amounts, `approvers: []` without a workflow, other wording of messages, the unversioned path served too, a
   * `Via` header, no size limit, JSON token requests in sandbox, ...). Certification must give no MUST failure.
   */
  lenient?: boolean;
  /**
   * a request member written in a second spelling of its bytes (non-canonical base64url) is read as those bytes, as
   * the lenient mock reads it (the clean mock refuses it: HARD-07); the partner certification's bank, whose clients'
   * spelling no rule judges, reads it so
   */
  readSpellings?: boolean;
  /** shorter token lifetimes (seconds), e.g. to show a --long run really waits (default: the contract's) */
  limits?: { accessTokenSeconds?: number; codeSeconds?: number };
  /** every API answer is sent this many ms late (a distant target, for npm run bench -- --latency) */
  latencyMs?: number;
  /** every answer of the admin listener (the test clock) is sent this many ms late */
  clockLatencyMs?: number;
  /** a client that has not sent its request head within this is dropped (default 10 s): slow clients */
  headersTimeoutMs?: number;
  /** a client that has not sent its whole request within this is dropped (default 30 s) */
  requestTimeoutMs?: number;
  /**
   * a small server (a small target, docs/design.md): the API listener's listen backlog, also its queue of waiting
   * connections
   */
  backlog?: number;
  /** a small server: API connections served at once (others wait unread); one request per connection */
  maxConnections?: number;
  /**
   * the run's data seed: the customers' clear account ids, Emirates ids and uuids are drawn from it (the same for
   * the same seed, so two runs of one `--seed` compare field by field); absent: random per start
   */
  seed?: number;
  /** partner certification: more registered clients (e.g. a partner's onboarding certificate, no private key) */
  extraClients?: ExtraClient[];
  /**
   * partner certification: sees every API request (body already read) before the bank handles it, and may answer
   * it itself (a scenario in which the bank misbehaves on purpose) or call `next()` to let the bank answer.
   */
  intercept?: MockIntercept;
  /** partner certification (UAT): overrides of the API listener's TLS context (another server certificate, versions) */
  tls?: MockTlsOverrides;
  /**
   * the shape of an off-the-shelf authorization server (docs/authorization-server-product.md): each one conformant,
   * each a profile setting
   */
  oauth?: MockOAuthShape;
  /**
   * every answer carries `Connection: close` and the connection is closed after it, as Python's http.server, many
   * WSGI servers and some gateways do (a style, not a limit: the harness serves such a target at full width); the
   * admin listener (the test clock) does the same
   */
  connectionClose?: boolean;
  /**
   * a new connection is served only `latencyMs` after it was accepted (the admin listener's: `clockLatencyMs`), as a
   * distant target's connect costs a round trip before its first answer; a connection opened ahead of its call has
   * paid it by then (npm run bench -- --latency)
   */
  connectRoundTrip?: boolean;
  /**
   * a connection closed after an answer that left the request body unread (a 413 before the body) is closed at once,
   * not in stages (lib/mock/server/http.ts closeInStages): the server's reset for the unread bytes may erase the
   * answer in a relay on the way, as mitmproxy shows (a 502, or a reset, instead of the 413)
   */
  abortiveClose?: boolean;
  /**
   * what the quota counts (contract "Quotas"): 'every' (the default) every call that passed the API key, token and
   * scope checks, refused later or not (by JOSE, validation, masking...); 'accepted' only the calls it accepted
   */
  quotaCounts?: 'every' | 'accepted';
  /**
   * one client id registered for the code, partner and client-credentials grants, as a bank onboarding one partner
   * application does: the profile's three clients share its id, secret and certificate, and every grant's calls
   * count in that client's quota windows
   */
  oneClient?: boolean;
  /**
   * where a quota window opens (contract "Quotas" counts per client and operation): 'operation' (the default) a window
   * per client and operation, opened by its first call; 'client' one window per client, opened by its first call of
   * any operation, in which each operation is still counted apart
   */
  quotaWindow?: 'operation' | 'client';
}

/** How an off-the-shelf authorization server differs from the specification's, in ways the rules allow. */
export interface MockOAuthShape {
  /** /authorize refuses a request without a PKCE S256 code_challenge (RFC 9700 §2.1.1) */
  pkceRequired?: boolean;
  /** the redirect parameter is RFC 6749's redirect_uri only (redirect_url is ignored, as an unknown parameter) */
  redirectUriOnly?: boolean;
  /** no transfers API behind the OAuth endpoints: every API path answers 404 */
  noApi?: boolean;
  /**
   * introspection for resource servers only: a registered resource-server client (RESOURCE_SERVER_ID, its profile
   * names it in target.oauth.introspection) alone sees tokens; any other client gets {"active": false}
   */
  resourceServerIntrospection?: boolean;
}

export interface ExtraClient {
  id: string;
  kind: 'code' | 'partner' | 'internal';
  /** the client's certificate (PEM); the bank never holds its private key */
  certPem: string;
  redirectUris?: string[];
  /** the client secret (default: a random one) */
  secret?: string;
}

export interface InterceptedRequest {
  req: IncomingMessage;
  res: ServerResponse;
  /** the request body as read (undefined when it was too large or the connection was lost) */
  body: Buffer | undefined;
}
export type MockIntercept = (r: InterceptedRequest, next: () => Promise<void>) => Promise<void>;

export interface MockTlsOverrides {
  /** CA(s) trusted for client certificates (a partner's own CA, or its self-signed certificate) */
  ca?: string | string[];
  cert?: string;
  key?: string;
  minVersion?: 'TLSv1' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3';
  maxVersion?: 'TLSv1' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3';
  ciphers?: string;
}

export interface MockBank {
  readonly mode: Environment;
  /** API base URL, e.g. https://127.0.0.1:43121 */
  readonly url: string;
  /** admin base URL (loopback); the clock is POST {adminUrl}/clock */
  readonly adminUrl: string;
  /** in-process controls (test use only) */
  readonly faults: { set(ids: string[]): void; list(): string[] };
  /** now: epoch ms of the mock's clock; offsetSeconds: how far it has been moved (whole seconds) */
  readonly clock: { now(): number; advance(seconds: number): void; offsetSeconds(): number };
  /** a full profile describing this mock and its registered test clients (secrets inline) */
  profile(name?: string): FullProfileInput;
  /** number of transfers stored so far (for selftests only; suites use GET) */
  transferCount(): number;
  /** number of payments initiated so far (an idempotent repeated PUT initiates none; selftests only) */
  paymentCount(): number;
  close(): Promise<void>;
}

/** A gateway that throttles in front of the bank (lib/mock/server/gateway.ts). */
export interface ThrottleOptions {
  /** calls a second each source address may make (the token bucket's refill rate) */
  perSecond: number;
  /** calls beyond the rate a source may make at once (nginx `burst`, default 0: one call at a time) */
  burst?: number;
  /** the status of a throttled call (default 429; some gateways answer 503) */
  status?: 429 | 503;
}

export interface MockOptions {
  /**
   * a gateway that throttles in front of the bank (nginx `limit_req`): a source's calls beyond `perSecond` (and
   * `burst` at once) are answered by the gateway with 429 (or 503), no Retry-After and an HTML page, and never reach
   * the bank (the quota does not count them)
   */
  throttle?: ThrottleOptions;
  /**
   * in-process only (tests): the clock of the gateway's (throttle) and the spike arrest's windows, real time by
   * default; a test hands the same one to the run (RunOptions.waits), whose waits it then spends at once
   */
  waits?: Waits;
}

/** MockOptions.spikeArrest */
export interface SpikeArrest {
  perSecond: number;
  /**
   * 'each-second' (default): `perSecond` calls pass in any one second of real time, whatever came before.
   * 'after-refusal': a bucket of `perSecond` calls that time does not refill, only a call a second or more after the
   * refusal that emptied it (its Retry-After honoured): the client's (perSecond + 1)th call is refused however slowly it
   * came, and every one until a second has passed since. The gate refuses by count, so a slow or busy machine meets it as a fast one
   * does (tests that must see a refusal)
   */
  refill?: 'each-second' | 'after-refusal';
}
