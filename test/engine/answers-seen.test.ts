/**
 * Whose an inconclusive verdict is, through a proxy that re-terminates TLS: the runner reads the statuses of the
 * answers the check saw (lib/engine/run/answers-seen.ts) and whether the quota answer ended it (QuotaSpent), never the
 * reason's text. A check whose refusals were all the target's quota answer, or that the quota answer ended, is the
 * target's (no proxy note); otherwise another refusal, a call without an answer, or no answer leaves the note.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Inconclusive, QuotaSpent, type CheckDefinition } from '../../lib/engine/check.ts';
import type { CheckContext } from '../../lib/engine/session/context.ts';
import { prepare, type PreparedTarget } from '../../lib/engine/run/prepare.ts';
import type { Evidence, RecordedExchange } from '../../lib/engine/results.ts';
import { runCheck, defaultRunOptions, type ContextFactory } from '../../lib/engine/run/runner.ts';
import { recorderInto } from '../../lib/engine/session/send.ts';
import { shareAnswersSeen } from '../../lib/engine/run/answers-seen.ts';
import { proxyRouteOf, type ProxyRoute } from '../../lib/tls/tunnel.ts';
import { EmbeddedProfile } from '../../lib/profile/schema.ts';

let prepared: PreparedTarget;
beforeAll(async () => {
  prepared = await prepare(EmbeddedProfile.parse({ name: 'answers-seen', environment: 'sandbox', embedded: {} }));
});
afterAll(async () => {
  await prepared.close();
});
/** the run's proxy route the checks' contexts carry (CheckContext.proxy), as each test sets it */
let via: ProxyRoute | undefined;
afterEach(() => {
  via = undefined;
});

/** an exchange answered with `status` (undefined: a transport error) */
function exchange(status: number | undefined): RecordedExchange {
  return {
    method: 'POST',
    url: 'https://127.0.0.1:1/transfers/validate',
    startedAt: new Date(0).toISOString(),
    durationMs: 1,
    request: { headers: {} },
    ...(status !== undefined ? { response: { status, headers: {} } } : { error: 'ECONNRESET' }),
  } as RecordedExchange;
}

const REASON = 'no evidence either way';

/** the reason of an inconclusive check that saw `statuses` (recorded as the session records them), in `scratch` or its own evidence */
async function reasonAfter(
  statuses: (number | undefined)[],
  scratch = false,
  error: typeof Inconclusive = Inconclusive,
): Promise<string | undefined> {
  let evidence: Evidence | undefined;
  const factory: ContextFactory = {
    profile: prepared.runtime.profile,
    redact: (t) => t,
    context: (_def, e) => {
      evidence = e;
      return { dispose: () => undefined, ...(via ? { proxy: via } : {}) } as unknown as CheckContext;
    },
  };
  const def: CheckDefinition = {
    id: 'x.inconclusive',
    suite: 'x',
    title: 'inconclusive',
    requirements: ['MASK-01'],
    run: () => {
      let into = evidence!;
      if (scratch) {
        into = { exchanges: [], notes: [], tls: [] };
        shareAnswersSeen(into, evidence!);
      }
      const recorder = recorderInto(into);
      for (const s of statuses) recorder.record(exchange(s));
      return Promise.reject(new error(REASON));
    },
  };
  const r = await runCheck(def, factory, defaultRunOptions);
  expect(r.verdict).toBe('inconclusive');
  return r.reason;
}

describe('through a re-terminating proxy, a quota answer is the target’s', () => {
  it('refusals that are all the quota answer (429): no proxy note, 2xx answers beside them or not', async () => {
    expect(prepared.runtime.profile.contract.quota.status).toBe(429);
    via = proxyRouteOf({ url: 'http://127.0.0.1:8080', ca: 'the proxy CA' });
    expect(await reasonAfter([429, 429])).toBe(REASON);
    expect(await reasonAfter([200, 429])).toBe(REASON);
    // a property check's runs go to a scratch evidence: its answers count as the check's
    expect(await reasonAfter([429], true)).toBe(REASON);
  });

  it('the quota answer that ended the check (QuotaSpent) is the target’s, whatever the check saw before', async () => {
    via = proxyRouteOf({ url: 'http://127.0.0.1:8080', ca: 'the proxy CA' });
    expect(await reasonAfter([400, 429], false, QuotaSpent)).toBe(REASON);
    expect(await reasonAfter([400, 429])).toMatch(/^no evidence either way \(not judged through /);
  });

  it('another refusal, a call without an answer, or no answer at all: the proxy is named', async () => {
    via = proxyRouteOf({ url: 'http://127.0.0.1:8080', ca: 'the proxy CA' });
    for (const seen of [[403, 429], [400], [undefined, 429], [], [200]]) {
      const reason = await reasonAfter(seen);
      expect(reason).toMatch(/^no evidence either way \(not judged through .*re-terminates TLS/);
    }
  });

  it('without a re-terminating proxy the reason is the check’s alone', async () => {
    expect(await reasonAfter([403])).toBe(REASON);
    via = proxyRouteOf({ url: 'http://127.0.0.1:8080' });
    expect(await reasonAfter([403])).toBe(REASON);
  });
});
