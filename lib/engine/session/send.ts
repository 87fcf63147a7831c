/**
 * A check's traffic as the session sends it (session.ts): `send` (the call budget, the check's stop, the throttling
 * client, sealed requests and token fingerprints noted, every exchange recorded into the check's evidence) and
 * `burst` (race bursts on the target's in-flight window, each reply recorded and judged against the bank's document).
 * Both count as the session's traffic while in flight (the clock is quiet only without any).
 */
import { createHash } from 'node:crypto';
import { burst as sendBurst, recordBurstReply, type BurstResult } from '../../http/burst/burst.ts';
import { registerTokens } from '../../oauth/index.ts';
import type { HttpRequest, HttpResponse, Recorder } from '../../http/types.ts';
import { inspect } from '../../jose/index.ts';
import { innerHeadersOf } from '../../jose/sent.ts';
import { Inconclusive, type CheckDefinition } from '../check.ts';
import type { CheckContext } from './context.ts';
import type { Evidence, RecordedExchange } from '../results.ts';
import { spent } from './spend.ts';
import { sawExchange } from '../run/answers-seen.ts';
import type { SessionParts, TokenState } from './tokens.ts';
import { byDeadline, stoppedBy, type Send } from '../clock/clock.ts';
import { scoped, throttleOf, withoutThrottled } from './throttle/throttled-calls.ts';

export function recorderInto(evidence: Evidence): Recorder {
  return {
    record: (e: RecordedExchange) => {
      evidence.exchanges.push(e);
      sawExchange(evidence, e);
    },
    get exchanges() {
      return evidence.exchanges;
    },
  };
}

/** a short SHA-256 prefix of a request's Bearer token: shows which token a call used, never the token */
export function tokenFingerprint(headers: Record<string, string> | undefined): string | undefined {
  const auth = Object.entries(headers ?? {}).find(([k]) => k.toLowerCase() === 'authorization')?.[1];
  const token = /^\s*Bearer\s+(\S+)/i.exec(auth ?? '')?.[1];
  if (!token) return undefined;
  // a token is sent on many calls: its fingerprint made once, not hashed again at every call
  let f = fingerprints.get(token);
  if (f === undefined) {
    f = `sha256:${createHash('sha256').update(token).digest('hex').slice(0, 12)}`;
    if (fingerprints.size >= 256) fingerprints.clear();
    fingerprints.set(token, f);
  }
  return f;
}
const fingerprints = new Map<string, string>();

/** records through `into`, the token fingerprint appended to the (redacted) Authorization header */
function fingerprinting(into: Recorder, fingerprint: string): Recorder {
  return {
    record: (e: RecordedExchange) => {
      const h = e.request.headers;
      const key = Object.keys(h).find((k) => k.toLowerCase() === 'authorization');
      if (key) h[key] = `${h[key]} (token ${fingerprint})`;
      into.record(e);
    },
    get exchanges() {
      return into.exchanges;
    },
  };
}

/** what a sealed request carried, headers only: the JWE's, and the JWS's inside it when the harness built it */
function sealedNote(req: HttpRequest): string | undefined {
  const inner = innerHeadersOf(req.body);
  if (!inner) return undefined;
  const outer = inspect(req.body).headers;
  return `sealed request "${req.label ?? req.method}": JWE headers ${JSON.stringify(outer)}; inner JWS headers ${JSON.stringify(inner)} (decoded from what the harness encrypted)`;
}

/** the check's `send`: every exchange recorded into its evidence, sealed requests and token fingerprints noted */
export function sendFor(def: CheckDefinition, evidence: Evidence, parts: SessionParts, stop?: AbortSignal): Send {
  const recorder = recorderInto(evidence);
  const maxCalls = parts.profile.run.maxCallsPerCheck;
  let calls = 0;
  return async (req) => {
    // a check stopped (the run deadline, its time limit) sends nothing more
    if (stop?.aborted) throw stoppedBy(stop);
    if (++calls > maxCalls)
      throw new Inconclusive(`call budget: the check made more than ${maxCalls} calls (profile run.maxCallsPerCheck)`);
    // the throttling client (throttle/throttled-calls.ts) waits within the check's stop and notes in its evidence
    // a prerequisite's calls go first among those waiting for the target's in-flight window: every check waits for them
    const own = { ...req, label: req.label ?? def.id, ...(def.suite === 'prerequisites' ? { first: true } : {}) };
    const labelled = scoped(byDeadline(own, parts, stop), {
      ...(stop ? { stop } : {}),
      note: (t) => evidence.notes.push(parts.redactor.redact(t)),
    });
    const sealed = sealedNote(labelled);
    if (sealed) evidence.notes.push(parts.redactor.redact(sealed));
    const fingerprint = tokenFingerprint(req.headers);
    const send = (): Promise<HttpResponse> =>
      parts.http.send(labelled, fingerprint ? fingerprinting(recorder, fingerprint) : recorder);
    // the clock's own requests are not traffic the quota windows see
    return req.url === parts.profile.target.clock ? send() : asTraffic(parts.state, send);
  };
}

/** a request (or a burst) of the session, counted while in flight: the clock is quiet only without any */
export async function asTraffic<T>(state: TokenState, send: () => Promise<T>): Promise<T> {
  const t = (state.traffic ??= { inFlight: 0, movedSince: 0 });
  t.inFlight++;
  t.movedSince = 0;
  try {
    return await send();
  } finally {
    t.inFlight--;
    t.movedSince = 0;
  }
}

/**
 * race bursts (lib/http/burst/burst.ts), each reply recorded into the check's evidence. A reply a gateway throttled took no
 * part (throttle/throttled-calls.ts withoutThrottled); a burst it throttled whole (nothing reached the bank) is sent again after a
 * wait, as a call is, and is inconclusive when the tries are used up.
 */
export function burstFor(
  def: CheckDefinition,
  evidence: Evidence,
  parts: SessionParts,
  stop?: AbortSignal,
): CheckContext['burst'] {
  const recorder = recorderInto(evidence);
  const throttle = throttleOf(parts.http);
  const once = async (requests: readonly HttpRequest[]): Promise<BurstResult> => {
    // no burst starts while a refusal is told apart at its origin (throttle/throttle.ts: no call may take the gateway's place)
    if (requests[0]) await throttle?.free(requests[0].url, stop);
    const startedAt = new Date();
    const r = await asTraffic(parts.state, () =>
      sendBurst(requests, {
        timeoutMs: parts.profile.run.requestTimeoutMs,
        // the burst takes its places from the target's in-flight window (a small target: lib/http/connections/window.ts)
        ...(parts.http.window && requests[0] ? { window: parts.http.window(requests[0].url) } : {}),
        // connections kept from the session's earlier bursts (burst-pool.ts)
        ...(parts.http.bursts ? { pool: parts.http.bursts } : {}),
        // through the run's proxy, as the session's calls (the run's transport)
        ...(parts.proxy ? { proxy: parts.proxy } : {}),
      }),
    );
    // in the spend and in the quota windows: the target counts a burst's calls as any others (spend.ts spent)
    for (const q of requests.slice(0, r.replies.length)) spent(parts.http, q);
    r.replies.forEach((reply, i) => {
      registerTokens(parts.redactor, reply.response?.json);
      const throttled = reply.response !== undefined && throttle?.is(reply.response) === true;
      if (throttled) throttle!.throttledInBurst(reply.response!);
      const label = `${requests[i]!.label ?? def.id}${throttled ? ' (throttled by a gateway: took no part)' : ''}`;
      const exchange = recordBurstReply(
        { ...requests[i]!, label },
        reply,
        parts.redactor,
        startedAt,
        undefined,
        parts.tap,
      );
      recorder.record(exchange);
      // judged against the bank's document like any answer, unless a gateway throttled it (not the bank's answer)
      if (reply.response && !throttled) parts.answers?.sent(requests[i]!, reply.response, exchange);
    });
    return r;
  };
  return async (requests) => {
    const started = throttle?.now() ?? performance.now();
    let waited = 0;
    for (let n = 1; ; n++) {
      const r = await once(requests);
      const throttled = (i: number): boolean => {
        const res = r.replies[i]?.response;
        return res !== undefined && throttle?.is(res) === true;
      };
      const count = r.replies.filter((_, i) => throttled(i)).length;
      if (count === 0 || !throttle) return r;
      if (count < r.replies.length) {
        evidence.notes.push(
          `a burst of ${r.replies.length}: ${count} replies throttled by a gateway took no part (not ready, no answer)`,
        );
        return withoutThrottled(r, throttled);
      }
      const wait = throttle.waitBefore(n, r.replies[0]!.response!, waited);
      if (wait === undefined)
        throw throttle.gaveUp(n, started, `a burst of ${r.replies.length}, every reply throttled`);
      evidence.notes.push(`a burst of ${r.replies.length} throttled whole by a gateway: sent again after ${wait} ms`);
      waited += wait;
      await throttle.wait(wait, stop);
    }
  };
}
