/**
 * Client-credentials tokens reused within their lifetime (docs/design.md "Client-credentials tokens reused"): a
 * caller that only needs a valid token of a client gets the session's one for the same client id, scope, oauth
 * metadata and identity, while it has more than half its life left on the target's clock (moves included; more where
 * one move of the run is longer: reuseMargin), instead of a token request of its own (a round trip on a distant
 * target's critical path, and calls a real bank's token endpoint may throttle).
 * Never reused: a request a check judges (`fresh`: its fields, its sealing, a control beside a refused request), a
 * request with a test's change (another secret or client id, no MsgId), an answer without an access token.
 */
import { TokenCache } from '../../oauth/index.ts';
import type { TokenResult } from './context.ts';
import type { Contract, CredentialsClient } from '../../profile/schema.ts';

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

/**
 * The rule every token the session hands out again follows (client-credentials answers here, the partner and code
 * tokens in tokens.ts), as TokenCache's margin: a token is handed out while more of its life is left on the target's
 * clock than half its life, and than the longest single move the run makes that is shorter than its life (a quota
 * window's, windowSeconds + 1; a code's validity, codeSeconds + 1; a property's or the planner's fresh window). So one
 * move between a token's hand-out and its use cannot expire it unless it expires a fresh token too (a move of a
 * token's life, or of days for the refresh checks). A token whose life is no longer than a window is handed out
 * until half of it is gone, as before: every window's move expires every token, fresh or handed out again.
 */
export function reuseMargin(contract: Pick<Contract, 'quota' | 'tokens'>): (lifeSeconds: number) => number {
  const moves = [contract.quota.windowSeconds + 1, contract.tokens.codeSeconds + 1];
  return (life) => Math.max(life / 2, ...moves.filter((m) => m < life));
}

/** half the life: the margin without a contract's moves */
const halfLife = (life: number): number => life / 2;

/** the session's client-credentials answers, by reuseKey (lib/oauth/cache.ts's cache, with the rule below) */
export type ClientCredentialsReuse = TokenCache<TokenResult>;

/**
 * `targetNow`: the target's clock as the harness sees it (ms; the test clock's moves included). An answer is kept with
 * the lifetime it stated (a 200 with an access token and `expires_in`), handed out again while more than `margin` of
 * it is left on that clock (reuseMargin: the session's; half the life by default). An answer without a stated
 * lifetime is not reused; callers asking meanwhile share one request.
 */
export function clientCredentialsReuse(
  targetNow: () => number,
  margin: (lifeSeconds: number) => number = halfLife,
): ClientCredentialsReuse {
  return new TokenCache<TokenResult>({
    now: targetNow,
    marginSeconds: margin,
    defaultLifetimeSeconds: 0,
    lifetimeOf: (r) =>
      r.response.status === 200 && typeof r.token?.access_token === 'string' ? r.token.expires_in : undefined,
  });
}
