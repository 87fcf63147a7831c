/**
 * What a check receives: the target as the profile describes it, and the harness's clients. A check never
 * reaches the mock's internals; it sees only what a real target offers (the API, the OAuth endpoints, and
 * the test clock when the profile names one).
 */
import type { Customer, Environment, FullProfile } from '../../profile/schema.ts';
import type { HttpRequest, HttpResponse, Identity } from '../../http/types.ts';
import type { GeneralJwe, OpenResult } from '../../jose/types.ts';
import type { CaseOutcome, Evidence, PropertyEvidence, TlsEvidence } from '../results.ts';
import type { BurstResult } from '../../http/burst/burst.ts';
import type { TestData } from '../../data/index.ts';
import type { RunOptions } from '../types.ts';
import type { OpenApiModel } from '../../openapi/types.ts';
import type { AnswersView } from './openapi-answers.ts';
import type { ProxyRoute } from '../../tls/tunnel.ts';

/** A registered client identity of the profile. */
export type ClientRole = 'code' | 'partner' | 'internal';
/** A negative client certificate of the profile (tls.negativeCertificates). */
export type NegativeCert = 'weak1024' | 'expired' | 'untrustedCa' | 'unregistered';

export type Operation = 'validate' | 'create' | 'get';

/**
 * What a check does with the quotas of the API's operations in a quota window (TargetClock.window; the quota is
 * counted per client and operation, or plan-wide when the profile declares contract.quota.planPerHour): `spends`,
 * operations whose window it fills or whose calls it counts (nobody else calls them in that window); `calls`,
 * operations it calls a few times and needs served (nobody spends them in that window)
 */
export interface QuotaUse {
  spends?: readonly Operation[];
  calls?: readonly Operation[];
  /**
   * the window shows, when it ends well, that the target counts operations apart (QUOTA-02): until then the run's
   * timeline takes them for one counter (windows of different operations one after another)
   */
  showsApart?: boolean;
}

/** Token response fields (specification §2); everything optional because a check verifies them. */
export interface TokenResponse {
  token_type?: unknown;
  access_token?: unknown;
  expires_in?: unknown;
  consented_on?: unknown;
  scope?: unknown;
  refresh_token?: unknown;
  refresh_token_expires_in?: unknown;
  [k: string]: unknown;
}
export interface TokenResult {
  /** the raw HTTP response (body already opened when it was sealed) */
  response: HttpResponse;
  /** the decoded token response when the call succeeded */
  token?: TokenResponse;
  /** UAT client credentials: how the sealed response opened */
  opened?: OpenResult;
}

export interface CodeGrantOptions {
  scope?: string;
  state?: string;
  /** override the redirect_url parameter (only sent when given) */
  redirectUrl?: string;
  /** extra/overridden query parameters for /authorize (null removes one) */
  query?: Record<string, string | null>;
  /** send a PKCE S256 challenge even when the profile does not use PKCE (its verifier goes with the code's exchange) */
  pkce?: boolean;
}

/**
 * What /authorize answered, in any consent mode: what the target sent, never a made-up status. With manual or
 * script consent the callback URL the person's browser or the script reached is the Location.
 */
export interface AuthorizeAnswer {
  /** the /authorize answer the harness received itself (auto consent, or a hand-made request sent directly) */
  response?: HttpResponse;
  /** where the code or error went: the redirect's Location, or the callback URL of the consent */
  location?: string;
  /** the location is the callback a person's browser or the consent script reached */
  viaConsent?: boolean;
  code?: string;
  state?: string;
  /** RFC 6749 §4.1.2.1 error and error_description of the redirect or callback */
  error?: string;
  errorDescription?: string;
  /** what came back, in words, redacted (for messages): "HTTP 400", "consent #3 (script): callback ...: a code" */
  outcome: string;
}

export interface Tokens {
  /** authorize + consent: what came back (the code, when one did) */
  authorize(customer: Customer, opts?: CodeGrantOptions): Promise<AuthorizeAnswer>;
  /** exchange a code; `clientSecret` overrides the registered one */
  exchangeCode(
    code: string,
    opts?: { clientSecret?: string; clientId?: string; /** leave the PKCE code_verifier out */ omitVerifier?: boolean },
  ): Promise<TokenResult>;
  refresh(refreshToken: string, opts?: { clientSecret?: string }): Promise<TokenResult>;
  /**
   * the form fields a code's exchange carries beyond grant_type and code where the profile asks for them: its PKCE
   * code_verifier, the redirect_uri (target.oauth), for a check that builds the exchange by hand
   */
  exchangeFields(code: string): Record<string, string>;
  /** a fresh authorization-code grant (authorize + exchange); anything short of an access token is inconclusive */
  codeGrant(
    customer: Customer,
    opts?: CodeGrantOptions,
  ): Promise<TokenResult & { code: string; access: string; refresh?: string }>;
  /** a cached access token for the customer (code flow, transfers scope), reused until it expires */
  codeToken(customer: Customer): Promise<string>;
  /**
   * a client-credentials token (sandbox: Basic + form; UAT: sealed JSON): the session's answer for the same client id,
   * scope set, oauth metadata and identity while it has more than half its life left on the target's clock (cc-reuse.ts),
   * else a request; `fresh` (a check that judges the answer, or a control beside a refused request), another secret or
   * client id, or no MsgId: always a request of its own
   */
  clientCredentials(
    role: 'partner' | 'internal',
    opts?: {
      scope?: string;
      oauthMetadata?: Record<string, string> | null;
      clientSecret?: string;
      clientId?: string;
      /** UAT: omit the MsgId header */
      omitMsgId?: boolean;
      /** a request of its own, never an answer reused (the check judges it, or needs a token no one else holds) */
      fresh?: boolean;
      identity?: Identity;
    },
  ): Promise<TokenResult>;
  /** a cached partner access token (bound per the profile's oauthMetadata), reused until it expires */
  partnerToken(): Promise<string>;
}

export interface ApiCall {
  op: Operation;
  /** create/get: the transfer id (a fresh one when absent) */
  transferId?: string;
  /** whose client id header, certificate and signing key are used (default 'code') */
  as?: ClientRole;
  /** bearer token; null sends no Authorization header */
  token: string | null;
  /** X-Gateway-Client-Id value; null omits the header; default the `as` client's id */
  clientId?: string | null;
  /** the JSON document; sealed in UAT (to the bank key, signed by the `as` client key) */
  body?: unknown;
  /** sent exactly as given (string or object), bypassing sealing: for JOSE negatives and malformed JSON */
  rawBody?: string | object;
  method?: string;
  /** path override (relative to the API base URL) */
  path?: string;
  identity?: Identity;
  headers?: Record<string, string>;
  label?: string;
}
export interface ApiResponse {
  status: number;
  headers: Record<string, string>;
  /** the response document: opened when it came sealed and opened, else the parsed JSON (or undefined) */
  body: unknown;
  /** UAT: how the response opened (undefined when it was not a JOSE envelope or the call was sandbox) */
  opened?: OpenResult;
  raw: HttpResponse;
}

export interface TargetClock {
  /** true when the profile names a test clock */
  readonly available: boolean;
  /** move the target's time forward (test clock), or wait for real when --long allows (throws NotRun otherwise) */
  advance(seconds: number): Promise<void>;
  /**
   * moves the clock by at least `seconds` together with the other checks of the same clock group
   * (CheckDefinition.clockGroup): one move, the largest any member asked for, once every member has asked or ended;
   * outside a group it is advance(seconds). Once per check. Inconclusive when the move is over `atMost` seconds.
   * Resolves with the seconds moved.
   */
  advanceTogether(seconds: number, atMost?: number): Promise<number>;
  /**
   * lets at least `seconds` pass: in a clock group, on the moves the other members make (moving the clock by what
   * is left once none of them may move it any more); outside a group it is advance(seconds). Resolves with the
   * seconds that passed since the call.
   */
  waitFor(seconds: number): Promise<number>;
  /**
   * a stopwatch from now: the seconds of every move started since (its own, or, in a clock group, any member's), an
   * upper bound on the time that has passed at the target
   */
  stopwatch(): () => number;
  /**
   * lets at least `seconds` pass since the session's last request: advance(seconds), unless the clock has already
   * moved that far since the last request ended and none is in flight (then windows of that length, such as quotas,
   * are over without a move, and the evidence says so)
   */
  ensurePassed(seconds: number): Promise<void>;
  /**
   * runs `f` holding a lease on the clock (lib/engine/clock/leases.ts): no other check, prerequisite or clock group moves
   * the clock until `f` ends (a move in flight ends first). For a time-bound exchange: a code until its exchange, a
   * token until the call that must find it valid, a quota window while it is filled and judged. The check's own
   * moves are not held back; it never asks for a clock group's move (advanceTogether, waitFor) while holding one.
   */
  hold<T>(why: string, f: () => Promise<T>): Promise<T>;
  /** true while this check holds a lease (hold) */
  holding(): boolean;
  /**
   * runs `f` in a quota window (holding a lease, as hold): the operations it `spends` unused since the clock last
   * passed contract.quota.windowSeconds, and none it `calls` spent since. Among the exclusive checks of a run with a
   * test clock (the run's timeline, rendezvous.ts) it waits for that on the moves the others make, and moves the
   * clock itself only once nobody else may; alone, a window it spends in is passed before (ensurePassed) and after.
   * Never asked while holding a lease.
   */
  window<T>(use: QuotaUse, why: string, f: () => Promise<T>): Promise<T>;
}

/**
 * The target's quota windows as the harness counted them (lib/engine/session/spend.ts QuotaBudget: every call of the session
 * passes there), per client role and operation: what a property check plans its runs on (lib/engine/property/property.ts).
 */
export interface QuotaLedger {
  /** calls of `op` the client may still send in the current window: the quota less one, less what was sent */
  left(as: ClientRole, op: Operation): number;
  /** counts up to `n` calls ahead (their sends are not counted again); resolves with how many were granted */
  reserve(as: ClientRole, op: Operation, n: number): number;
  /** gives back reserved calls that were not sent */
  release(as: ClientRole, op: Operation, n: number): void;
}

export interface CheckContext {
  /** the check's id (`<suite>.<name>`) */
  readonly checkId: string;
  readonly profile: FullProfile;
  readonly env: Environment;
  readonly options: RunOptions;
  /**
   * the bank's OpenAPI document as the harness reads it (lib/openapi/types.ts), when the profile names one
   * (target.openapi; docs/openapi.md): the operations, their request and response schemas, sealed payloads
   */
  readonly openapi?: OpenApiModel;
  /** every answer of the session to the API judged against `openapi` so far (the openapi suite reads it) */
  readonly answers?: AnswersView;
  /**
   * the run's proxy (--proxy, the run's Transport: lib/http/transport.ts), when it has one: the route the session's
   * calls, bursts and TLS probes take, and what says a handshake seen through it is not the target's
   */
  readonly proxy?: ProxyRoute;
  /** customers[i] of the profile; `workflow` picks the first with/without a workflow (NotApplicable when none) */
  customer(which: number | { workflow: boolean }): Customer;
  /** an absolute URL: a path key of profile.target.paths or a path, on the API or the OAuth base */
  url(path: string, base?: 'api' | 'oauth'): string;
  /** the mutual-TLS identity of a client role, of a negative certificate, or none (UAT); undefined in sandbox */
  identity(who: ClientRole | NegativeCert | 'none'): Identity | undefined;
  /** send any request (recorded, redacted) */
  send(req: HttpRequest): Promise<HttpResponse>;
  /**
   * requests released together (lib/http/burst/burst.ts: each on its own connection, written up to the last byte, then
   * released at once), each recorded (redacted); a request's failure is in its reply, never thrown
   */
  burst(requests: readonly HttpRequest[]): Promise<BurstResult>;
  /**
   * the size a burst of `n` requests to `url` would get now: at most the target's in-flight window and the largest
   * burst it was seen to accept at once (lib/http/connections/window.ts); a burst larger is cut to it
   */
  burstSize?(url: string, n: number): number;
  /**
   * opens `count` connections for bursts of `req` ahead of them (lib/http/connections/burst-ahead.ts: only to a target
   * that closes after every answer and has shown no limit); resolves with how many were opened, once all are settled
   */
  burstAhead?(req: Pick<HttpRequest, 'url' | 'identity'>, count: number): Promise<number>;
  /**
   * runs something that opens its own connection to the target (a TLS probe) as one place among the calls in flight
   * to `url`'s target (lib/http/connections/window.ts), so that a small target's accept queue is not overfilled; `alone`: once
   * nothing else is in flight to it, nothing else meanwhile
   */
  holding?<T>(url: string, run: () => Promise<T>, o?: { alone?: boolean }): Promise<T>;
  /** a transfers API call, sealed as the environment requires */
  api(call: ApiCall): Promise<ApiResponse>;
  /** a valid transfer request body for the customer (masked debit identifier, its beneficiary) */
  transferBody(customer: Customer, overrides?: Record<string, unknown>): Record<string, unknown>;
  newTransferId(): string;
  /**
   * seeded test data of the run (lib/data; the seed is in the report), for realistic bodies: one generator per
   * session, loaded at the first call
   */
  data(): Promise<TestData>;
  /** the seed of `data` (the property checks derive theirs from it) */
  readonly dataSeed: number;
  readonly tokens: Tokens;
  readonly jose: {
    /** seal as a client (sign with its key, encrypt to the bank key) */
    seal(payload: unknown, as?: ClientRole): Promise<GeneralJwe>;
    /** open a response sealed to a client (decrypt with its key, verify with the bank key) */
    open(envelope: unknown, as?: ClientRole, allowFlattened?: boolean): Promise<OpenResult>;
    /** PEMs: the bank's API public key; a client's private key and certificate */
    readonly bankPublicKey: string;
    clientKey(as?: ClientRole): { privateKey: string; certificate: string };
  };
  readonly clock: TargetClock;
  note(text: string): void;
  /** a negative case's own outcome (evidence.cases in the results) */
  recordCase(c: CaseOutcome): void;
  /** a property-based check's run (evidence.property in the results; lib/engine/property/property.ts), redacted */
  recordProperty(p: PropertyEvidence): void;
  /** the quota windows as counted so far (property checks plan their runs on it) */
  readonly quota: QuotaLedger;
  /**
   * a context like this one whose exchanges and notes go to an evidence of its own, not the check's: a property
   * check's runs are counted, not stored; the one that shows the counterexample is copied into the check's evidence
   */
  scratch(): { ctx: CheckContext; evidence: Evidence };
  /** a scratch evidence's exchanges and notes into the check's own (already redacted) */
  adopt(e: Evidence): void;
  tls(e: TlsEvidence): void;
  /** redact secrets from text before putting it in a message */
  redact(text: string): string;
  /** release per-check resources (called by the runner) */
  dispose(): void;
}
