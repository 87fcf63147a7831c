/**
 * The profile's `run` settings (lib/profile/schema.ts): concurrency, the budgets that keep a hostile or dead target
 * from hanging the run, the race and quota burst sizes, the data seed and the property-based checks' runs.
 */
import { z } from 'zod';

const HttpUrl = z.url({ protocol: /^https?$/ });

/** a whole number in [min, max]; every error names the setting */
function wholeIn(field: string, min: number, max: number): z.ZodNumber {
  const error = `${field} must be a whole number from ${min} to ${max}`;
  return z.number({ error }).int({ error }).min(min, { error }).max(max, { error });
}

export const RunSettings = z
  .strictObject({
    concurrency: z.number().int().min(1).max(128).default(4),
    requestTimeoutMs: z.number().int().positive().max(120_000).default(10_000),
    /**
     * jku/x5u outbound-fetch detection: the address a listener of the harness binds to, which the target must be
     * able to reach (without it, against a real target, the check is not run; the embedded mock uses loopback)
     */
    canaryHost: z.string().optional(),
    /** the canary's port (default: any free port) */
    canaryPort: z.number().int().min(0).max(65535).optional(),
    /** the canary's base URL as the target reaches it, when it differs from http://canaryHost:port (NAT, proxy) */
    canaryUrl: HttpUrl.optional(),
    // budgets (a hostile or dead target must not hang the run): each limit hit is named in the verdict; the time limits
    // default to requestTimeoutMs
    /** TCP connect + TLS handshake */
    connectTimeoutMs: z.number().int().positive().max(120_000).optional(),
    /** the response's status line and headers, once the request is sent */
    firstByteTimeoutMs: z.number().int().positive().max(120_000).optional(),
    /** the whole exchange, request sent to the last body byte */
    responseTimeoutMs: z.number().int().positive().max(600_000).optional(),
    /** largest response body read; beyond it the harness stops reading */
    maxResponseBytes: z
      .number()
      .int()
      .positive()
      .max(256 * 1024 * 1024)
      .default(4 * 1024 * 1024),
    /** bound on the HTTP calls one check may make */
    maxCallsPerCheck: z.number().int().positive().max(100_000).default(1000),
    /** requests in one race burst (RACE-01..04) and bursts per race check */
    raceBurst: z.number().int().min(2).max(100).default(20),
    raceRepeats: z.number().int().min(1).max(10).default(3),
    /**
     * calls in flight at once while a quota check fills an operation's window (QUOTA-01..04); default: the
     * quota and one more, so the window fills, and its refusal comes, in one round trip
     */
    quotaInFlight: z.number().int().min(1).max(1000).optional(),
    /**
     * seed of the generated test data (lib/data) and of the property-based checks' inputs (lib/engine/property/property.ts,
     * one seed per check derived from it); a random one, printed in the report, when absent; `--seed` overrides it
     */
    dataSeed: z.number().int().min(0).optional(),
    /** property-based checks (lib/engine/property/property.ts): generated inputs per property, calls spent shrinking one */
    properties: z
      .strictObject({
        /** default 200 against the embedded mock, 20 against a real target */
        runs: wholeIn('run.properties.runs', 1, 10_000).optional(),
        /** 0: the first failure found is reported as it is */
        shrinkCalls: wholeIn('run.properties.shrinkCalls', 0, 1000).default(60),
      })
      .prefault({}),
  })
  .prefault({});
