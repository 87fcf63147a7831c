/**
 * The embedded mock's shapes in a profile (`embedded`): the faults to switch on, and how the mock bank differs from
 * the contract's defaults in ways the rules allow (leniencies, an off-the-shelf authorization server, a small, far,
 * closing or throttled server). Part of the profile schema (lib/profile/schema.ts); a leaf of the data layer.
 */
import { z } from 'zod';

export const EmbeddedOptions = z.strictObject({
  /** mock faults to switch on (by fault id), for demonstrations */
  faults: z.array(z.string()).default([]),
  /** the mock takes every leniency the rules allow (a conformant but lenient bank: no MUST may fail) */
  lenient: z.boolean().optional(),
  /** the mock answers this many ms late: a distant target (npm run bench -- --latency) */
  latencyMs: z.number().int().min(0).max(10_000).optional(),
  /** its test clock control answers this many ms late too (a distant target's clock is as far away) */
  clockLatencyMs: z.number().int().min(0).max(10_000).optional(),
  /** the mock as an off-the-shelf authorization server: PKCE required, redirect_uri only, no API behind it */
  oauth: z
    .strictObject({
      pkceRequired: z.boolean().optional(),
      redirectUriOnly: z.boolean().optional(),
      noApi: z.boolean().optional(),
      /** only a registered resource-server client sees tokens at introspection; others get {"active": false} */
      resourceServerIntrospection: z.boolean().optional(),
    })
    .optional(),
  /** a small server: the API listener's listen backlog (queue of waiting connections), e.g. 5 */
  backlog: z.number().int().min(1).max(4096).optional(),
  /** a small server: API connections served at once, the others wait; one request per connection */
  maxConnections: z.number().int().min(1).max(10_000).optional(),
  /** every answer says `Connection: close` and the connection is closed after it (API and test clock) */
  connectionClose: z.boolean().optional(),
  /** a new connection is served only after the listener's latency (the connect's round trip of a distant target) */
  connectRoundTrip: z.boolean().optional(),
  /** a connection left with a body unread (an early 413) is closed at once, not in stages (RFC 9112 §9.6) */
  abortiveClose: z.boolean().optional(),
  /** a gateway that throttles in front of the mock (nginx `limit_req`: 429 or 503, no Retry-After, an HTML page) */
  throttle: z
    .strictObject({
      perSecond: z.number().int().min(1).max(100_000),
      burst: z.number().int().min(0).max(10_000).optional(),
      status: z.union([z.literal(429), z.literal(503)]).optional(),
    })
    .optional(),
  /** what the quota counts: every call past the API key, token and scope checks (the default), or only accepted ones */
  quotaCounts: z.enum(['every', 'accepted']).optional(),
  /** one client id registered for the code, partner and client-credentials grants (a bank onboarding one application) */
  oneClient: z.boolean().optional(),
  /** where a quota window opens: per client and operation (the default), or per client at its first call of any operation */
  quotaWindow: z.enum(['operation', 'client']).optional(),
  /**
   * the mock's OpenAPI document, `file:path` relative to the profile (docs/openapi/transfers.yaml describes the mock):
   * every answer is judged against it, as target.openapi of a full profile
   */
  openapi: z.string().startsWith('file:', 'write file:path (relative to the profile)').optional(),
});
export type EmbeddedOptions = z.infer<typeof EmbeddedOptions>;
