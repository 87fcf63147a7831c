import type { TestPki } from '../pki/types.ts';
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
  /** largest request body accepted, bytes (default 1 MiB) */
  maxBodyBytes?: number;
  /** calls per operation and hour before 429 (default the contract's 100; a throughput bench lifts it) */
  quotaPerHour?: number;
  /** every API answer is sent this many ms late (a distant target, for npm run bench -- --latency) */
  latencyMs?: number;
  /** a client that has not sent its request head within this is dropped (default 10 s): slow clients */
  headersTimeoutMs?: number;
  /** a client that has not sent its whole request within this is dropped (default 30 s) */
  requestTimeoutMs?: number;
}

export interface MockBank {
  readonly mode: Environment;
  /** API base URL, e.g. https://127.0.0.1:43121 */
  readonly url: string;
  /** admin base URL (loopback); the clock is POST {adminUrl}/clock */
  readonly adminUrl: string;
  /** in-process controls (test use only) */
  readonly faults: { set(ids: string[]): void; list(): string[] };
  readonly clock: { now(): number; advance(seconds: number): void };
  /** a full profile describing this mock and its registered test clients (secrets inline) */
  profile(name?: string): FullProfileInput;
  /** number of transfers stored so far (for selftests only; suites use GET) */
  transferCount(): number;
  /** number of payments initiated so far (an idempotent repeated PUT initiates none; selftests only) */
  paymentCount(): number;
  close(): Promise<void>;
}
