/**
 * Client-credentials tokens reused within their lifetime (docs/design.md "Client-credentials tokens reused"): a
 * caller that only needs a valid token of a client gets the session's one for the same client id, scope, oauth metadata and identity, while it
 * has more than half its life left on the target's clock (moves included), instead of a token request of its own (a
 * round trip on a distant target's critical path, and calls a real bank's token endpoint may throttle).
 * Never reused: a request a check judges (`fresh`: its fields, its sealing, a control beside a refused request), a
 * request with a test's change (another secret or client id, no MsgId), an answer without an access token.
 */
import type { TokenResult } from './context.ts';
import type { CredentialsClient } from '../../profile/schema.ts';

/**
 * the part of its stated life a reused token must have left on the target's clock: a move shorter than that (a code's
 * expiry, a minute) cannot expire it where it would not expire a fresh one; a move of a quota window or of a token's
 * life expires every token, fresh or reused
 */
const LEFT = 0.5;

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

interface Entry {
  result: TokenResult;
  /** target time (ms) until which it is handed out again */
  reuseUntil: number;
}

export class ClientCredentialsReuse {
  private readonly entries = new Map<string, Entry>();
  private readonly inFlight = new Map<string, Promise<TokenResult>>();
  /** token requests made through it, and answers handed out again (tests, the evidence's note) */
  requests = 0;
  reused = 0;

  /** `targetNow`: the target's clock as the harness sees it (ms; the test clock's moves included) */
  constructor(private readonly targetNow: () => number) {}

  /** the kept answer of `key` while it has life left, else one request (shared by callers asking meanwhile) */
  async get(key: string, request: () => Promise<TokenResult>): Promise<TokenResult> {
    const e = this.entries.get(key);
    if (e && this.targetNow() < e.reuseUntil) {
      this.reused++;
      return e.result;
    }
    this.entries.delete(key);
    const pending = this.inFlight.get(key);
    if (pending) {
      this.reused++;
      return pending;
    }
    const askedAt = this.targetNow();
    this.requests++;
    const p = request().then(
      (result) => {
        this.inFlight.delete(key);
        const access = result.token?.access_token;
        const life = result.token?.expires_in;
        // kept only with a lifetime it stated: an answer without one is not reused
        if (result.response.status === 200 && typeof access === 'string' && typeof life === 'number' && life > 0) {
          this.entries.set(key, { result, reuseUntil: askedAt + life * (1 - LEFT) * 1000 });
        }
        return result;
      },
      (err: unknown) => {
        this.inFlight.delete(key);
        throw err;
      },
    );
    this.inFlight.set(key, p);
    return p;
  }
}
