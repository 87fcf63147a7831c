/** Shared state of one running mock bank, handed to every handler. */
import type { TestPki } from '../pki/types.ts';
import type { Environment } from '../profile/schema.ts';
import type { MockClock } from './clock.ts';
import type { MockData } from './data.ts';
import type { FaultSet } from './fault-set.ts';
import type { QuotaStore } from './transfers/quota.ts';
import type { TokenStore } from './oauth/tokens.ts';
import type { TransferStore } from './transfers/transfer-store.ts';
import type { MockIntercept, MockOAuthShape, MockTlsOverrides } from './types.ts';
import type { TokenLimits } from './limits.ts';

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
  /** every leniency the rules allow (MockOptions.lenient) */
  lenient: boolean;
  /** a second spelling of a member's bytes is read as those bytes (MockOptions.readSpellings, or lenient) */
  readSpellings: boolean;
  /** an off-the-shelf authorization server's shape (MockOptions.oauth) */
  oauth: MockOAuthShape;
  /** partner certification hooks (MockOptions.intercept, MockOptions.tls) */
  intercept?: MockIntercept;
  tls?: MockTlsOverrides;
  limits: TokenLimits;
}

export { DAY_MS, LIMITS } from './limits.ts';
