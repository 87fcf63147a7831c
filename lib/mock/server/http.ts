/** Small HTTP helpers for the mock's node:http(s) listeners (no framework). */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** ::ffff:127.0.0.2 -> 127.0.0.2 */
export function normaliseAddress(address: string | undefined): string {
  if (!address) return '';
  return address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
}

export type BodyResult = { ok: true; body: Buffer } | { ok: false; reason: 'too-large' | 'aborted' };

/** bodies already read before the handler ran (MockOptions.intercept): readBody answers from here */
const prebuffered = new WeakMap<IncomingMessage, BodyResult>();
export function setPrebuffered(req: IncomingMessage, body: BodyResult): void {
  prebuffered.set(req, body);
}

/**
 * Reads the request body up to `max` bytes. A declared Content-Length above `max` is refused before a byte
 * is read; a chunked body is refused as soon as it passes `max` (the rest is never buffered).
 */
export function readBody(req: IncomingMessage, max: number): Promise<BodyResult> {
  const pre = prebuffered.get(req);
  if (pre) return Promise.resolve(pre.ok && pre.body.length > max ? { ok: false, reason: 'too-large' } : pre);
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > max) return Promise.resolve({ ok: false, reason: 'too-large' });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (r: BodyResult): void => {
      if (done) return;
      done = true;
      req.off('data', onData);
      resolve(r);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > max) {
        chunks.length = 0;
        req.pause();
        finish({ ok: false, reason: 'too-large' });
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => finish({ ok: true, body: Buffer.concat(chunks) }));
    req.once('error', () => finish({ ok: false, reason: 'aborted' }));
    req.once('aborted', () => finish({ ok: false, reason: 'aborted' }));
  });
}

/** the request a connection serves now: the one whose body a close in stages waits for (closeInStages) */
const latest = new WeakMap<Socket, IncomingMessage>();

/** how long a connection closed in stages keeps reading what its client still sends (closeInStages) */
export const LINGER_MS = 2000;

/**
 * RFC 9112 §9.6 ("Tear-down"): a connection that node:http closes after an answer while its client is still sending
 * the request body (a 413 before the body was read, an early refusal) is closed in stages: the write side first,
 * then the rest of the body read and dropped until the client closes or LINGER_MS pass, then the socket. Closed at
 * once, the unread bytes make the server's TCP stack send a reset, which a relay on the way (a proxy, a load
 * balancer) may act on before the answer reaches the client: the answer is lost. A request read whole is closed
 * as node:http does.
 */
export function closeInStages(req: IncomingMessage, lingerMs = LINGER_MS): void {
  const socket = req.socket;
  const wrapped = latest.has(socket);
  latest.set(socket, req);
  if (wrapped) return; // a kept connection's next request: the close below judges the latest one
  const atOnce = socket.destroySoon.bind(socket);
  let closing = false;
  // node:http closes a connection that may not be kept by socket.destroySoon() once the answer is sent
  socket.destroySoon = (): void => {
    const last = latest.get(socket);
    if (!last || last.complete || socket.destroyed) return atOnce();
    if (closing) return;
    closing = true;
    const timer = setTimeout(() => socket.destroy(), lingerMs);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
    socket.once('end', () => socket.destroy());
    socket.end();
    last.resume();
    socket.resume();
  };
}

export interface SendOptions {
  headers?: Record<string, string>;
  /** close the connection after the answer (a body was left unread) */
  close?: boolean;
  /** sendJson: the media type, when not application/json */
  contentType?: string;
}

export function sendRaw(
  res: ServerResponse,
  status: number,
  body: string | Buffer,
  contentType: string | undefined,
  opts: SendOptions = {},
): void {
  if (res.headersSent) return;
  const headers: Record<string, string | number> = { ...(opts.headers ?? {}) };
  if (contentType) headers['Content-Type'] = contentType;
  headers['Content-Length'] = Buffer.byteLength(body);
  if (opts.close) headers.Connection = 'close';
  res.writeHead(status, headers);
  res.end(body);
  if (opts.close) res.once('finish', () => res.socket?.destroySoon());
}

/**
 * a JSON value already serialized (a sealed envelope built as text): sendJson sends the text as it is; anything else
 * that serializes it gets the value
 */
export class JsonText {
  constructor(readonly text: string) {}
  toJSON(): unknown {
    return JSON.parse(this.text);
  }
}

export function sendJson(res: ServerResponse, status: number, value: unknown, opts: SendOptions = {}): void {
  sendRaw(
    res,
    status,
    value instanceof JsonText ? value.text : JSON.stringify(value),
    opts.contentType ?? 'application/json',
    opts,
  );
}

export function sendEmpty(res: ServerResponse, status: number, opts: SendOptions = {}): void {
  if (res.headersSent) return;
  const headers: Record<string, string | number> = { ...(opts.headers ?? {}), 'Content-Length': 0 };
  res.writeHead(status, headers);
  res.end();
}

/** the media type of the request, lower-case, without parameters */
export function mediaType(req: IncomingMessage): string {
  return (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
}

/** a single header value (first one when repeated) */
export function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

/** `Authorization: Basic base64(id:secret)` (RFC 6749 §2.3.1: both parts form-urlencoded) */
export function parseBasic(value: string | undefined): { id: string; secret: string } | undefined {
  if (!value) return undefined;
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(value);
  if (!m) return undefined;
  const text = Buffer.from(m[1]!, 'base64').toString('utf8');
  const i = text.indexOf(':');
  if (i < 0) return undefined;
  try {
    return {
      id: decodeURIComponent(text.slice(0, i).replace(/\+/g, ' ')),
      secret: decodeURIComponent(text.slice(i + 1).replace(/\+/g, ' ')),
    };
  } catch {
    return undefined;
  }
}

/** `Authorization: Bearer <token>` (RFC 6750 §2.1 b64token syntax); undefined when absent, null when malformed */
export function parseBearer(value: string | undefined): string | null | undefined {
  if (value === undefined || !/^Bearer(\s|$)/i.test(value)) return undefined;
  const m = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/i.exec(value.trim());
  return m ? m[1]! : null;
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
