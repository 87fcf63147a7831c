/**
 * lib/http/undici.ts: undici's Agent, connector, URL check and header parse loaded from their own modules, not
 * undici's index; and lib/http/answer.ts, a call dispatched on an Agent with the harness's handler, against undici's
 * index's `request` as the oracle: the same request reaches the server (method, path with its query, body), the same
 * status, headers and body come back, an informational answer is passed over, and a URL undici refuses is refused
 * with undici's error. Its budgets (a deadline, a body too large) are client.ts's, tested in budgets.test.ts.
 */
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as undiciIndex from 'undici';
import { callOn, type CallOptions } from '../../lib/http/answer.ts';
import { Agent, buildConnector } from '../../lib/http/undici.ts';
import { startHttp, type TestServer } from './servers.ts';

let server: TestServer;
const seen: { method?: string; url?: string; body: string }[] = [];
beforeAll(async () => {
  server = await startHttp((req, res, body) => {
    seen.push({ ...(req.method ? { method: req.method } : {}), ...(req.url ? { url: req.url } : {}), body });
    if (req.url === '/hints') (res as ServerResponse).writeEarlyHints({ link: '</x.css>; rel=preload' });
    res.setHeader('x-twice', ['a', 'b']);
    res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    res.end(`ok ${req.method} ${req.url}`);
  });
});
afterAll(async () => {
  await server.close();
});

const opts = (method: string, body?: string): CallOptions => ({
  method,
  headers: { 'x-a': '1' },
  ...(body !== undefined ? { body } : {}),
  headersTimeout: 5000,
  bodyTimeout: 5000,
  responseMs: 5000,
  maxBytes: 1024,
  progress: { headers: false, bytes: 0 },
  // the call's start for its firstByteMs, which no test here reads: not the machine's time
  t0: 0,
});

describe('lib/http/undici.ts', () => {
  it("are undici's own Agent and connector", () => {
    expect(Agent).toBe(undiciIndex.Agent);
    expect(buildConnector).toBe(undiciIndex.buildConnector);
  });

  it("a call on the harness's handler: sent and answered as undici's request sends and reads it", async () => {
    const agent = new Agent();
    try {
      for (const [method, path, body] of [
        ['POST', '/a/b?x=1&y=%20', 'hello'],
        ['PUT', '/put', 'b'],
        ['GET', '/get', undefined],
        ['GET', '/hints', undefined],
      ] as const) {
        seen.length = 0;
        const o = opts(method, body);
        const ours = await callOn(agent, `${server.url}${path}`, o);
        const theirs = await undiciIndex.request(`${server.url}${path}`, {
          dispatcher: agent,
          method,
          headers: { 'x-a': '1' },
          ...(body !== undefined ? { body } : {}),
        });
        const theirText = await theirs.body.text();
        expect(seen).toHaveLength(2);
        expect(seen[0]).toEqual(seen[1]);
        expect(seen[0]).toEqual({ method, url: path, body: body ?? '' });
        expect(ours.status).toBe(theirs.statusCode);
        const drop = (h: Record<string, unknown>) => {
          const { date: _d, ...rest } = h;
          return rest;
        };
        expect(drop(ours.headers)).toEqual(drop(theirs.headers));
        expect(ours.text).toBe(theirText);
        expect(o.progress).toEqual({ headers: true, bytes: Buffer.byteLength(theirText) });
      }
    } finally {
      await agent.close();
    }
  });

  it("refuses a URL undici's index refuses, with undici's error", async () => {
    const agent = new Agent();
    try {
      const ours = await callOn(agent, 'ftp://127.0.0.1/x', opts('GET')).catch((e: unknown) => e);
      let theirs: unknown;
      try {
        await undiciIndex.request('ftp://127.0.0.1/x', { dispatcher: agent });
      } catch (e) {
        theirs = e;
      }
      expect(ours).toBeInstanceOf(undiciIndex.errors.InvalidArgumentError);
      expect((ours as Error).message).toBe((theirs as Error).message);
    } finally {
      await agent.close();
    }
  });
});
