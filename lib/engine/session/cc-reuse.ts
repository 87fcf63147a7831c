/**
 * Client-credentials tokens reused within their lifetime (docs/design.md "Client-credentials tokens reused"): a
 * caller that only needs a valid token of a client gets the session's one for the same client id, scope, oauth metadata and identity, while it
 * has more than half its life left on the target's clock (moves included), instead of a token request of its own (a
 * round trip on a distant target's critical path, and calls a real bank's token endpoint may throttle).
 * Never reused: a request a check judges (`fresh`: its fields, its sealing, a control beside a refused request), a
 * request with a test's change (another secret or client id, no MsgId), an answer without an access token.
 */
import { TokenCache } from '../../oauth/index.ts';
import type { TokenResult } from './context.ts';
import type { CredentialsClient } from '../../profile/schema.ts';

/** what names a reusable token: the client, the scope set, the metadata bound into it, the identity it came through */
export interface ReuseKey {
  role: string;
  client: CredentialsClient;
  scope?: string;
  /** undefined: the client's own; null: none */
  oauthMetadata?: Record<string, string> | null;
  identity?: string;
}

/** a stable key: scope words sorted (a set), metadata members sorted */
export function reuseKey(k: ReuseKey): string {
  const scope = (k.scope ?? k.client.scope ?? '').split(/\s+/).filter(Boolean).sort().join(' ');
  const meta = k.oauthMetadata === null ? null : (k.oauthMetadata ?? k.client.oauthMetadata ?? null);
  const metaKey = meta === null ? null : Object.entries(meta).sort(([a], [b]) => a.localeCompare(b));
  return JSON.stringify([k.role, k.client.clientId, scope, metaKey, k.identity ?? k.role]);
}

/** the session's client-credentials answers, by reuseKey (lib/oauth/cache.ts's cache, with the rule below) */
export type ClientCredentialsReuse = TokenCache<TokenResult>;

/**
 * `targetNow`: the target's clock as the harness sees it (ms; the test clock's moves included). An answer is kept with
 * the lifetime it stated (a 200 with an access token and `expires_in`), handed out again while half of it is left on
 * that clock: a move shorter than that (a code's expiry, a minute) cannot expire it where it would not expire a fresh
 * one; a move of a quota window or of a token's life expires every token, fresh or reused. An answer without a stated
 * lifetime is not reused; callers asking meanwhile share one request.
 */
export function clientCredentialsReuse(targetNow: () => number): ClientCredentialsReuse {
  return new TokenCache<TokenResult>({
    now: targetNow,
    // TokenCache's margin is at most half the life: an unbounded one reuses a token while half its life is left
    marginSeconds: Number.POSITIVE_INFINITY,
    defaultLifetimeSeconds: 0,
    lifetimeOf: (r) =>
      r.response.status === 200 && typeof r.token?.access_token === 'string' ? r.token.expires_in : undefined,
  });
}
