/** Partner certification: the harness plays the bank and certifies a partner's client (docs/partner.md). */
import type { Environment } from '../profile/schema.ts';

/**
 * A genuine, correctly signed answer in another serialization than the general JSON one §5.4 and the contract
 * mandate: a compact or a flattened JWE (around the general JWS), or a compact or a flattened JWS (inside the
 * general JWE). Not a forgery, so not CLI-02: JOSE-05 (SHOULD) read for the side that receives, judged per variant.
 */
export const FORM_SPOILS = ['compact-jwe', 'compact-jws', 'flattened-jwe', 'flattened-jws'] as const;
export type FormSpoil = (typeof FORM_SPOILS)[number];

/**
 * The client-side negative catalogue (CLI-02, and JOSE-05 for the serializations): how the bank spoils an answer the client must act on. Each spoil
 * of each answer is a scenario of its own, `<answer>-<spoil>` (e.g. validate-jwk), judged separately.
 */
export const SPOILS = [
  'bad-signature',
  'unsigned',
  'other-key',
  'plain',
  'jwk',
  'x5c',
  'x5c-chain',
  'jku',
  'x5u',
  'kid',
  'alg-none',
  'hs256',
  'rs512',
  'ps256',
  'crit',
  'tampered-ciphertext',
  'tampered-tag',
  'tampered-iv',
  'tampered-protected',
  'other-recipient',
  'replayed',
  ...FORM_SPOILS,
] as const;
export type Spoil = (typeof SPOILS)[number];
/** the answers the bank spoils: validate's, create's and the UAT client-credentials token answer */
export type SpoiledAnswer = 'validate' | 'create' | 'cc-token';

/** one run of the partner's client each; the bank behaves normally or misbehaves on purpose */
export type ScenarioId =
  | 'normal'
  | 'untrusted-server-cert'
  | 'legacy-tls'
  | `${SpoiledAnswer}-${Spoil}`
  | 'validate-429'
  | 'create-answer-lost'
  | 'token-expiry'
  | 'state-mismatch';

/** how the client obtains its token: the code flow (customer sign-in) or client credentials bound to the account */
export type Flow = 'code' | 'client-credentials';

/** key-fetch: a request to the harness's own key listener (a jku or x5u the bank's spoiled answer named) */
export type Route = 'authorize' | 'code-token' | 'cc-token' | 'validate' | 'create' | 'get' | 'key-fetch' | 'other';

/** one HTTP request of the partner's client as the bank saw it (raw: judged, then redacted for the report) */
export interface SeenRequest {
  seq: number;
  /** arrival, ms since the epoch */
  at: number;
  method: string;
  /** path and query as sent */
  target: string;
  route: Route;
  headers: Record<string, string>;
  body: string;
  /** negotiated TLS version (UAT), e.g. TLSv1.3 */
  tlsProtocol?: string;
  /** SHA-256 of the client certificate presented (UAT) */
  peerSha256?: string;
  /** what the bank answered (status, headers, body), when it answered */
  response?: { status: number; headers: Record<string, string>; body: string; at: number };
  /** the scenario's misbehaviour applied to this request, if any */
  misbehaviour?: string;
}

export interface ScenarioRun {
  scenario: ScenarioId;
  /** exit code of the client (null: killed, or a client started by hand) */
  exitCode: number | null;
  /** the client was started by hand (--listen): no exit code to judge */
  byHand?: boolean;
  /** why the run was cut short (timeout, flood), when it was */
  stopped?: string;
  durationMs: number;
  /** the client's stdout and stderr (redacted, truncated) */
  output: string;
  requests: SeenRequest[];
  /** payments the bank initiated during the scenario */
  payments: number;
}

export interface PartnerSetup {
  mode: Environment;
  flow: Flow;
  clientId: string;
  /** the partner's onboarding certificate (PEM) and its SHA-256 */
  certPem: string;
  certSha256: string;
}
