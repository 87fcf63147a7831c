/**
 * The admin listener: the mock's test controls, on loopback and on its own port (never on the API listener).
 *   POST /clock {"advance_seconds": N} -> 204     GET /clock -> {now, epoch_seconds, offset_seconds}
 *   GET /faults -> {faults, available}           PUT /faults {"faults": [...]} -> 200 (unknown id -> 400)
 *   GET /consent -> {auto}                       PUT /consent {"auto": bool} -> 200
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { MAX_ADVANCE_SECONDS } from '../clock.ts';
import type { MockContext } from '../context.ts';
import { FAULTS } from '../faults.ts';
import { UnknownFaultError } from '../fault-set.ts';
import { readBody, sendEmpty, sendJson } from './http.ts';
import { closeAfter, closeServer, delayAnswers, delayConnections } from './server.ts';

async function jsonBody(req: http.IncomingMessage): Promise<Record<string, unknown> | undefined> {
  const read = await readBody(req, 64 * 1024);
  if (!read.ok) return undefined;
  try {
    const v: unknown = JSON.parse(read.body.toString('utf8'));
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

async function handle(ctx: MockContext, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const path = new URL(req.url ?? '/', 'http://admin.invalid').pathname;
  const key = `${req.method} ${path}`;
  const bad = (msg: string): void => sendJson(res, 400, { error: 'invalid_request', error_description: msg });
  switch (key) {
    case 'GET /':
      return sendJson(res, 200, { mode: ctx.mode, endpoints: ['/clock', '/faults', '/consent'] });
    case 'GET /clock':
      return sendJson(res, 200, {
        now: ctx.clock.now(),
        epoch_seconds: ctx.clock.nowSeconds(),
        offset_seconds: ctx.clock.offsetSeconds(),
      });
    case 'POST /clock': {
      const b = await jsonBody(req);
      const n = b?.advance_seconds;
      if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > MAX_ADVANCE_SECONDS) {
        return bad(`advance_seconds must be an integer between 0 and ${MAX_ADVANCE_SECONDS}`);
      }
      ctx.clock.advance(n);
      return sendEmpty(res, 204);
    }
    case 'GET /faults':
      return sendJson(res, 200, { faults: ctx.faults.list(), available: FAULTS });
    case 'PUT /faults': {
      const b = await jsonBody(req);
      const ids = b?.faults;
      if (!Array.isArray(ids) || !ids.every((x): x is string => typeof x === 'string'))
        return bad('faults must be an array of fault ids');
      try {
        ctx.faults.set(ids);
      } catch (e) {
        if (e instanceof UnknownFaultError) return bad(e.message);
        throw e;
      }
      return sendJson(res, 200, { faults: ctx.faults.list() });
    }
    case 'GET /consent':
      return sendJson(res, 200, { auto: ctx.autoConsent });
    case 'PUT /consent': {
      const b = await jsonBody(req);
      if (typeof b?.auto !== 'boolean') return bad('auto must be a boolean');
      ctx.autoConsent = b.auto;
      return sendJson(res, 200, { auto: ctx.autoConsent });
    }
  }
  const known = ['/', '/clock', '/faults', '/consent'].includes(path);
  return sendJson(res, known ? 405 : 404, { error: known ? 'method_not_allowed' : 'not_found' });
}

export interface AdminListener {
  url: string;
  close(): Promise<void>;
}

export async function startAdminListener(
  ctx: MockContext,
  port: number,
  latencyMs?: number,
  connectionClose?: boolean,
  connectRoundTrip?: boolean,
): Promise<AdminListener> {
  const server = http.createServer((req, res) => {
    if (latencyMs) delayAnswers(res, latencyMs);
    if (connectionClose) closeAfter(res);
    handle(ctx, req, res).catch(() => {
      if (!res.headersSent) sendJson(res, 500, { error: 'server_error' });
    });
  });
  if (connectRoundTrip && latencyMs) delayConnections(server, latencyMs);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // always loopback, whatever the API host is
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const addr = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${addr.port}`, close: () => closeServer(server) };
}
