/**
 * lib/http/undici.ts: undici's request, Agent and connector loaded from their own modules, not undici's index; the
 * request reaches the server as undici's index would send it (method, path with its query, body), on the dispatcher
 * given, and undici's own URL check still refuses what it refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as undiciIndex from 'undici';
import { Agent, buildConnector, request } from '../../lib/http/undici.ts';
import { startHttp, type TestServer } from './servers.ts';

let server: TestServer;
const seen: { method?: string; url?: string; body: string }[] = [];
beforeAll(async () => {
  server = await startHttp((req, res, body) => {
    seen.push({ ...(req.method ? { method: req.method } : {}), ...(req.url ? { url: req.url } : {}), body });
    res.end('ok');
  });
});
afterAll(async () => {
  await server.close();
});

describe('lib/http/undici.ts', () => {
  it("are undici's own Agent and connector", () => {
    expect(Agent).toBe(undiciIndex.Agent);
    expect(buildConnector).toBe(undiciIndex.buildConnector);
  });

  it('sends the method, the path with its query and the body, on the dispatcher given', async () => {
    const agent = new Agent();
    try {
      const a = await request(`${server.url}/a/b?x=1&y=%20`, { dispatcher: agent, method: 'POST', body: 'hello' });
      expect([a.statusCode, await a.body.text()]).toEqual([200, 'ok']);
      // no method: PUT with a body, GET without (undici's index's default)
      await (await request(`${server.url}/put`, { dispatcher: agent, body: 'b' })).body.text();
      await (await request(`${server.url}/get`, { dispatcher: agent })).body.text();
      expect(seen).toEqual([
        { method: 'POST', url: '/a/b?x=1&y=%20', body: 'hello' },
        { method: 'PUT', url: '/put', body: 'b' },
        { method: 'GET', url: '/get', body: '' },
      ]);
    } finally {
      await agent.close();
    }
  });

  it("refuses a URL undici's index refuses, with undici's error", async () => {
    const agent = new Agent();
    try {
      // both throw at once (before any promise), as undici's index does
      const thrown = (f: () => unknown): unknown => {
        try {
          f();
        } catch (e) {
          return e;
        }
        return undefined;
      };
      const ours = thrown(() => request('ftp://127.0.0.1/x', { dispatcher: agent }));
      const theirs = thrown(() => undiciIndex.request('ftp://127.0.0.1/x', { dispatcher: agent }));
      expect(ours).toBeInstanceOf(undiciIndex.errors.InvalidArgumentError);
      expect((ours as Error).message).toBe((theirs as Error).message);
    } finally {
      await agent.close();
    }
  });
});
