/** A leaf module (no imports), so that the mock's context and token store form no import cycle. */

/** contract defaults the mock implements (docs/contract.md "Tokens", "Quotas") */
export const LIMITS = {
  accessTokenSeconds: 3600,
  codeSeconds: 60,
  refreshIdleDays: 180,
  refreshMaxDays: 1095,
  quotaPerHour: 100,
  quotaWindowSeconds: 3600,
} as const;

export const DAY_MS = 24 * 3600 * 1000;

/** the token lifetimes of a mock (MockOptions.limits overrides some, for selftests that really wait) */
export interface TokenLimits {
  accessTokenSeconds: number;
  codeSeconds: number;
  refreshIdleDays: number;
  refreshMaxDays: number;
}
