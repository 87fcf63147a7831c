/**
 * A burst: N requests sent so that they really overlap at the target. Each request gets its own connection
 * (TLS handshake done), and everything but the last byte of its body is written; once every connection is
 * ready (or the ready phase times out), the last bytes are written one after another in one synchronous loop,
 * so the requests are released within a fraction of a millisecond. The spread of the release times and of
 * the first response bytes is measured, so that a check can say whether the requests overlapped.
 *
 * Not a load generator: N is small (bounded by MAX_BURST), each request is HTTP/1.1 on a connection of its own:
 * a new one, or one an earlier burst of the same identity and origin left idle (burst-pool.ts; never two requests
 * of one burst on one connection). A kept connection saves the connect and the handshake, not the release: it is
 * written up to the last byte like a new one, and one that fails before the release is replaced by a new one.
 */
import type { Socket } from 'node:net';
import { prepare, type Pending } from './burst-prepare.ts';
import type { BurstOptions, BurstReply, BurstResult, PrepareOptions } from './burst-types.ts';
import { MAX_BURST } from './burst-types.ts';
import { summariseJose } from '../record/jose-summary.ts';
import { recordedBody } from '../record/recorder.ts';
import { tapExchange, type WireTap } from '../record/tap.ts';
import { learnFromHeaders } from '../record/redact.ts';
import type { Outcome } from '../connections/window.ts';
import type { HttpRequest, KeptConnections, RecordedExchange, Redactor } from '../types.ts';

export { MAX_BURST } from './burst-types.ts';
export type { BurstOptions, BurstReply, BurstResult } from './burst-types.ts';

function spread(xs: number[]): number | undefined {
  return xs.length === 0 ? undefined : Math.max(...xs) - Math.min(...xs);
}

/** the release waits this long at least for a connection still not ready after the last one was */
const READY_STALL_MS = 1000;

/**
 * waits until every request is written (or failed), the ready timeout, or a stall: some ready and none more for
 * max(READY_STALL_MS, the time the ready ones took) — a target that accepts no more connections at once. A request
 * whose kept connection failed before the release is waited for again (its fresh connection)
 */
function readyPhase(prepared: readonly Pending[], timeoutMs: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const t0 = performance.now();
    let last = t0;
    const count = (): number => prepared.filter((p) => p.settled).length;
    const end = (): void => {
      clearInterval(tick);
      for (const p of prepared) delete p.changed;
      resolve();
    };
    const tick = setInterval(() => {
      const now = performance.now();
      if (now - t0 >= timeoutMs) end();
      else if (count() >= 1 && now - last > Math.max(READY_STALL_MS, last - t0)) end();
    }, 25);
    for (const p of prepared)
      p.changed = () => {
        if (p.settled) last = performance.now();
        if (count() === prepared.length) end();
      };
    if (count() === prepared.length) end();
  });
}

/** Sends the requests as one burst; never throws for a request's failure (its reply names the error). */
export async function burst(requests: readonly HttpRequest[], options: BurstOptions = {}): Promise<BurstResult> {
  if (requests.length === 0 || requests.length > MAX_BURST)
    throw new Error(`burst: between 1 and ${MAX_BURST} requests, not ${requests.length}`);
  const opts: PrepareOptions = {
    readyTimeoutMs: options.readyTimeoutMs ?? 5_000,
    timeoutMs: options.timeoutMs ?? 10_000,
    maxResponseBytes: options.maxResponseBytes ?? 1024 * 1024,
    ...(options.proxy ? { proxy: options.proxy } : {}),
  };
  // alone once the target has shown a limit: its places are then the burst's own (no other call of the harness waits
  // in its queue meanwhile); beside the other calls against a target that has shown none
  const slot = await options.window?.acquire(requests.length, { alone: 'if-limited' });
  // nothing else in flight (alone, or a burst wider than the in-flight window, which waited for the others to end): the
  // harness's idle keep-alive connections would hold places the burst's connections need (sockets.ts)
  const sent = slot ? requests.slice(0, slot.size) : requests;
  // the connections earlier bursts kept, one per request while there are any, taken before the others are freed
  const kept = sent.map((r) => options.pool && keptFor(options.pool, r));
  if (slot && (slot.exclusive || slot.level === slot.size)) await options.window?.vacate(slot.size);
  const prepared = sent.map((r, i) => prepare(r, opts, options.pool, kept[i]));
  try {
    await readyPhase(prepared, opts.readyTimeoutMs);
    // the release: one synchronous loop, nothing else runs in between
    for (const p of prepared) {
      // an answer already begun (before its last byte was sent) is not released: it raced nothing
      if (p.reply.firstByteAt !== undefined || p.reply.response) {
        p.reply.answeredEarly = true;
        continue;
      }
      if (!p.reply.ready || p.reply.error) continue;
      p.released = true;
      p.reply.releasedAt = performance.now();
      p.req.end(p.last);
    }
    // requests not ready in time are abandoned: released late they would prove nothing
    // (their connections given up at once: one still in the target's accept queue would hold a place there, and the
    // request ends only once its connection is made or has failed)
    for (const p of prepared)
      if (!p.reply.ready && !p.reply.answeredEarly) {
        p.abandon.abort();
        p.req.destroy();
      }
    await Promise.all(prepared.map((p) => p.done));
  } finally {
    const replies = prepared.map((p) => p.reply);
    options.window?.burstAccepted(sent.length, replies.filter((r) => r.ready || r.answeredEarly).length, {
      alone: slot?.alone() === true && (slot.exclusive || slot.level === slot.size),
    });
    slot?.done(replies.map(outcomeOf));
  }
  const result = summarise(prepared.map((p) => p.reply));
  return sent.length < requests.length ? { ...result, asked: requests.length } : result;
}

/** a kept connection of the request's identity and origin, taken out of the pool */
function keptFor(pool: KeptConnections, r: HttpRequest): Socket | undefined {
  return pool.take(pool.key(r.identity, new URL(r.url)));
}

/** what a burst's reply teaches the in-flight window: its answer time from the release, or a timeout */
function outcomeOf(r: BurstReply): Outcome {
  if (r.firstByteAt !== undefined && r.releasedAt !== undefined) return { firstByteMs: r.firstByteAt - r.releasedAt };
  return r.error === 'ETIMEDOUT' ? { timedOut: true } : {};
}

function summarise(replies: BurstReply[]): BurstResult {
  const released = replies.flatMap((r) => (r.releasedAt === undefined ? [] : [r.releasedAt]));
  const first = replies.flatMap((r) =>
    r.firstByteAt === undefined || !r.response || r.releasedAt === undefined ? [] : [r.firstByteAt],
  );
  const fb = spread(first);
  const reused = replies.filter((r) => r.reused).length;
  return {
    replies,
    ...(reused ? { reused } : {}),
    ready: released.length,
    releaseSpreadMs: spread(released) ?? 0,
    ...(fb !== undefined ? { firstByteSpreadMs: fb } : {}),
    ...(first.length && released.length ? { marginMs: Math.min(...first) - Math.max(...released) } : {}),
  };
}

/**
 * a reply's duration: from its release to its last answer byte; from its start when it was answered before its
 * release (an early answer); never negative
 */
export function durationOf(reply: BurstReply): number {
  if (reply.doneAt === undefined) return 0;
  const from =
    reply.releasedAt !== undefined && reply.releasedAt <= reply.doneAt && !reply.answeredEarly
      ? reply.releasedAt
      : (reply.startedAt ?? reply.doneAt);
  return Math.max(0, Math.round(reply.doneAt - from));
}

/**
 * The recorded exchange of one request of a burst (redacted like the client's: the request's headers teach the
 * redactor its bearer token first; a response's tokens must be registered by the caller before this).
 */
export function recordBurstReply(
  req: HttpRequest,
  reply: BurstReply,
  redactor: Redactor,
  startedAt: Date,
  bodyChars = 4096,
  /** --har's wire tap (lib/http/transport.ts), when the run has one */
  tap?: WireTap,
): RecordedExchange {
  const headers = { ...(req.headers ?? {}) };
  learnFromHeaders(redactor, headers);
  const text =
    req.body === undefined
      ? undefined
      : typeof req.body === 'string' || Buffer.isBuffer(req.body)
        ? String(req.body)
        : JSON.stringify(req.body);
  const ex: RecordedExchange = {
    label: `${req.label ?? 'burst'}${reply.answeredEarly ? ' (answered before its last byte was sent)' : ''}`,
    method: req.method,
    url: redactor.redact(req.url),
    startedAt: startedAt.toISOString(),
    durationMs: durationOf(reply),
    request: {
      headers: redactor.redactHeaders(headers),
      ...(text !== undefined ? { body: recordedBody(text, redactor, bodyChars) } : {}),
    },
  };
  const res = reply.response;
  if (res) {
    ex.response = {
      status: res.status,
      headers: redactor.redactHeaders(res.headers),
      ...(res.text ? { body: recordedBody(res.text, redactor, bodyChars) } : {}),
    };
    const jose = summariseJose(res.text);
    if (jose) ex.jose = { direction: 'response', form: `${jose.kind} ${jose.form}`, headers: jose.headers };
  } else
    ex.error = `${reply.error ?? 'UNKNOWN'}: ${reply.ready ? 'no answer' : 'not ready at the release'}${reply.reused ? ' (on a connection kept from an earlier burst)' : ''}`;
  tapExchange(
    tap,
    ex,
    redactor,
    { url: req.url, headers, ...(text !== undefined ? { body: text } : {}), sealed: req.body },
    res,
  );
  return ex;
}
