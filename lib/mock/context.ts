/** Shared state of one running mock bank, handed to every handler. */
import type { TestPki } from '../pki/types.ts';
import type { Environment } from '../profile/schema.ts';
import type { MockClock } from './clock.ts';
import type { MockData } from './data.ts';
import type { FaultSet } from './faults.ts';
import type { QuotaStore } from './quota.ts';
import type { TokenStore } from './tokens.ts';
import type { TransferStore } from './transfer-store.ts';

export interface MockContext {
  mode: Environment;
  pki: TestPki;
  clock: MockClock;
  faults: FaultSet;
  data: MockData;
  tokens: TokenStore;
  quota: QuotaStore;
  transfers: TransferStore;
  /** /authorize answers 302 at once (else a consent page) */
  autoConsent: boolean;
  allowList: ReadonlySet<string>;
  maxBodyBytes: number;
}

/** contract defaults the mock implements (shared/spec/contract.md "Tokens", "Quotas") */
export const LIMITS = {
  accessTokenSeconds: 3600,
  codeSeconds: 60,
  refreshIdleDays: 180,
  refreshMaxDays: 1095,
  quotaPerHour: 100,
  quotaWindowSeconds: 3600,
} as const;

export const DAY_MS = 24 * 3600 * 1000;
