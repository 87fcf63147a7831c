/**
 * One call on an undici dispatcher (an Agent, connections/agents.ts), its answer read whole as text: what undici's
 * `request` and a read of its body stream gave client.ts, through undici's own handler interface instead. `request`
 * made, for every call, an async resource, an abort signal's listeners and a Readable stream for the body, and the
 * body's chunks went through the stream's buffer and events: a share of each call the main thread's profile showed
 * (docs/performance.md, "The crypto floor"). The answer and the errors are the same: undici's errors as undici gives
 * them (the same objects its diagnostics channels publish: connections/socket-use.ts), the whole exchange's deadline
 * a TimeoutError (as AbortSignal.timeout's: budgets.ts calls it ETIMEDOUT), a body past the byte budget or announced
 * past it RESPONSE_TOO_LARGE (the call then aborted, as destroying its body stream did).
 */
import type { Dispatcher } from 'undici';
import { parseHeaders, parseURL } from './undici.ts';

/** a call's answer: status, headers as undici parses them (names in lower case, a repeated one as an array), text */
export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** ms from `t0` to the status line and headers */
  firstByteMs: number;
  /**
   * ms from the request's write (undici's onConnect: its connection made, its turn come) to the status line and
   * headers: the target's time for it and the distance, without the connect or the harness's own waits
   */
  answerMs: number;
}

export interface CallOptions {
  method: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** undici's budgets: status line and headers once sent, and the longest pause between body chunks */
  headersTimeout: number;
  bodyTimeout: number;
  /** the whole exchange's deadline (ms) */
  responseMs: number;
  /** the largest body read (bytes) */
  maxBytes: number;
  /** updated as the answer comes: its headers came, its body's bytes so far (the error message says them) */
  progress: { headers: boolean; bytes: number };
  /** the call's start (performance.now()), for firstByteMs */
  t0: number;
}

const tooLarge = (what: string): Error => Object.assign(new Error(what), { code: 'RESPONSE_TOO_LARGE' });

/** undici's handler of one call (its legacy interface, the one its dispatchers call without a wrapper) */
class AnswerHandler implements Dispatcher.DispatchHandler {
  private abortCall: ((reason?: Error) => void) | undefined;
  /** why the call is to be aborted, before undici handed it its abort (it was waiting for a connection) */
  private reason: Error | undefined;
  private status = 0;
  private headers: Record<string, string | string[] | undefined> = {};
  private firstByteMs = 0;
  private answerMs = 0;
  /** when undici wrote the request (its onConnect) */
  private sentAt = 0;
  private readonly chunks: Buffer[] = [];
  private settled = false;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly o: CallOptions,
    private readonly resolve: (a: Answer) => void,
    private readonly reject: (e: Error) => void,
  ) {
    this.timer = setTimeout(
      () => this.fail(new DOMException('The operation was aborted due to timeout', 'TimeoutError')),
      o.responseMs,
    );
    this.timer.unref();
  }

  /** the call failed on our side (its deadline, its byte budget): said to the caller at once, the call aborted */
  private fail(e: Error): void {
    this.settle(e);
    if (this.abortCall) this.abortCall(e);
    else this.reason = e;
  }

  private settle(e: Error | undefined): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    if (e) this.reject(e);
    else
      this.resolve({
        status: this.status,
        headers: this.headers,
        text: Buffer.concat(this.chunks).toString('utf8'),
        firstByteMs: this.firstByteMs,
        answerMs: this.answerMs,
      });
  }

  onConnect(abort: (reason?: Error) => void): void {
    this.sentAt = performance.now();
    if (this.reason) return abort(this.reason);
    this.abortCall = abort;
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[], _resume: () => void, _statusText: string): boolean {
    // an informational answer (100 Continue, 103 Early Hints): the answer is still to come
    if (statusCode < 200) return true;
    const now = performance.now();
    this.firstByteMs = now - this.o.t0;
    this.answerMs = now - this.sentAt;
    this.o.progress.headers = true;
    this.status = statusCode;
    this.headers = parseHeaders(rawHeaders);
    const declared = this.headers['content-length'];
    // announced too large: stop before reading any of it
    if (typeof declared === 'string' && Number(declared) > this.o.maxBytes)
      this.fail(tooLarge(`response body of ${declared} bytes announced`));
    return true;
  }

  onData(chunk: Buffer): boolean {
    if (this.settled) return true;
    this.o.progress.bytes += chunk.length;
    if (this.o.progress.bytes > this.o.maxBytes) {
      this.fail(tooLarge(`response body larger than ${this.o.maxBytes} bytes`));
      return true;
    }
    this.chunks.push(chunk);
    return true;
  }

  onComplete(): void {
    this.settle(undefined);
  }

  onError(err: Error): void {
    this.settle(err);
  }
}

/** one call of `url` on `dispatcher`: its answer, or undici's error (or the deadline's, or the byte budget's) */
export function callOn(dispatcher: Dispatcher, url: string, o: CallOptions): Promise<Answer> {
  return new Promise<Answer>((resolve, reject) => {
    let handler: AnswerHandler | undefined;
    try {
      const u = parseURL(url);
      handler = new AnswerHandler(o, resolve, reject);
      dispatcher.dispatch(
        {
          origin: u.origin,
          path: u.search ? `${u.pathname}${u.search}` : u.pathname,
          method: o.method as Dispatcher.HttpMethod,
          headers: o.headers,
          ...(o.body !== undefined ? { body: o.body } : {}),
          headersTimeout: o.headersTimeout,
          bodyTimeout: o.bodyTimeout,
        },
        handler,
      );
    } catch (e) {
      // undici's dispatchers hand their own refusals to onError; a URL undici cannot parse is refused here
      if (handler) handler.onError(e as Error);
      else reject(e as Error);
    }
  });
}
