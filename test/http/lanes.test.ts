/**
 * lib/http/connections/lanes.ts and its use by lib/http/client.ts: the calls of one identity to a near target go at most
 * LANE_WIDTH side by side (each beyond its idle connections would open one more), the others wait their turn in
 * arrival order; a target that is not near is never held back. The answer times are the test's (performance faked):
 * a target is near or far by the test's say, never by how fast this machine is.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { createHttpClient } from '../../lib/http/client.ts';
import { connections } from '../../lib/http/connections/connections.ts';
import { LANE_WIDTH, Lanes, NEAR_MS } from '../../lib/http/connections/lanes.ts';
import { createRedactor } from '../../lib/http/record/redact.ts';
import type { HttpClient, Identity } from '../../lib/http/types.ts';

const O = 'https://bank.example:443';

describe('lanes', () => {
  test("a near target: an identity's calls go LANE_WIDTH at once, the next waits for one to end, in arrival order", async () => {
    const lanes = new Lanes(() => true);
    const leaves = Array.from({ length: LANE_WIDTH }, () => lanes.enter(O, 1));
    expect(leaves.every((l) => typeof l === 'function')).toBe(true);
    const order: number[] = [];
    const next = [lanes.enter(O, 1), lanes.enter(O, 1)].map((p, i) =>
      Promise.resolve(p).then((leave) => {
        order.push(i);
        return leave;
      }),
    );
    expect(next.map((p) => p instanceof Promise)).toEqual([true, true]);
    // another identity's lane is its own
    expect(typeof lanes.enter(O, 2)).toBe('function');
    await Promise.resolve();
    expect(order).toEqual([]);
    (leaves[0] as () => void)();
    (leaves[0] as () => void)(); // a second release gives nothing back
    await next[0];
    await Promise.resolve();
    expect(order).toEqual([0]);
    (leaves[1] as () => void)();
    const second = await next[1]!;
    expect(order).toEqual([0, 1]);
    second();
  });

  test("a prerequisite's call (first) goes before the waiting calls that are not, after those that are", async () => {
    const lanes = new Lanes(() => true);
    const busy = Array.from({ length: LANE_WIDTH }, () => lanes.enter(O, 1) as () => void);
    const order: string[] = [];
    const wait = (name: string, first: boolean) =>
      Promise.resolve(lanes.enter(O, 1, first)).then((leave) => {
        order.push(name);
        return leave;
      });
    const all = [wait('a', false), wait('p1', true), wait('b', false), wait('p2', true)];
    for (const leave of busy.slice(0, 4)) leave();
    (await Promise.all(all)).forEach((leave) => leave());
    expect(order).toEqual(['p1', 'p2', 'a', 'b']);
  });

  test('a target not near is never held back', () => {
    const lanes = new Lanes(() => false);
    const all = Array.from({ length: 4 * LANE_WIDTH }, () => lanes.enter(O, 1));
    expect(all.every((l) => typeof l === 'function')).toBe(true);
  });

  test("a call that waited its turn goes on its identity's Agent of that moment, never on one retired meanwhile", async () => {
    const c = connections({ connectMs: 1000, firstByteMs: 1000 });
    const url = `${O}/transfers`;
    // near: an answer came within NEAR_MS of its request's write
    const s = await c.windowOf(url).acquire();
    s.done([{ firstByteMs: 1, answerMs: 1 }]);
    const id: Identity = { name: 'partner' };
    const held = await Promise.all(Array.from({ length: LANE_WIDTH }, () => c.slot(url, id)));
    const before = held[0]!.agent;
    const waiting = c.slot(url, id);
    // a small target's places freed of idle connections (sockets.ts): the identity's Agent retired, closed to new calls
    await c.agents.retire(c.agents.agentFor(id).n);
    expect(before.closed).toBe(true);
    held[0]!.ended();
    const got = await waiting;
    expect(got.agent).not.toBe(before);
    expect(got.agent.closed).toBe(false);
    got.ended();
    for (const h of held.slice(1)) h.ended();
    await c.agents.close();
  });

  test('calls waiting when the target turns out not near go at once', async () => {
    let near = true;
    const lanes = new Lanes(() => near);
    const first = Array.from({ length: LANE_WIDTH }, () => lanes.enter(O, 1) as () => void);
    const waiting = [lanes.enter(O, 1), lanes.enter(O, 1), lanes.enter(O, 1)];
    near = false;
    first[0]!();
    const released = await Promise.all(waiting);
    expect(released).toHaveLength(3);
  });
});

describe('the client against a keep-alive target', () => {
  let server: Server | undefined;
  let client: HttpClient | undefined;
  afterEach(async () => {
    vi.useRealTimers();
    await client?.close();
    await new Promise<void>((r) => (server ? (server.closeAllConnections(), server.close(() => r())) : r()));
    server = client = undefined;
  });

  /**
   * a server that answers `delayMs` after each call, or holds them while `hold` is on; it counts its connections and
   * the most calls it had at once
   */
  async function target(delayMs: number, close = false) {
    const seen = { connections: 0, most: 0, now: 0 };
    let held: (() => void)[] | undefined;
    server = createServer((_req, res) => {
      seen.now++;
      seen.most = Math.max(seen.most, seen.now);
      const answer = (): void => {
        seen.now--;
        res
          .writeHead(200, { 'content-type': 'application/json', ...(close ? { connection: 'close' } : {}) })
          .end('{"ok":true}');
      };
      if (held) held.push(answer);
      else if (delayMs) setTimeout(answer, delayMs);
      else answer();
    });
    server.on('connection', () => seen.connections++);
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/x`,
      seen,
      hold: () => (held = []),
      release: () => {
        const all = held ?? [];
        held = undefined;
        for (const a of all) a();
      },
    };
  }

  /**
   * one identity's calls until the target's in-flight window lets `n` go at once (answered rounds double it), then `n`
   * calls at once while the target holds them until `arrived` of them have reached it
   */
  async function wide(t: Awaited<ReturnType<typeof target>>, n: number, arrived: number) {
    client = createHttpClient({ redactor: createRedactor(), defaultTimeoutMs: 10_000 });
    const c = client;
    const id: Identity = { name: 'partner' };
    const w = c.window!(t.url);
    const send = () => c.send({ method: 'GET', url: t.url, identity: id });
    for (let round = 0; w.limit() < n && round < 10; round++)
      await Promise.all(Array.from({ length: w.limit() }, send));
    expect(w.limit()).toBeGreaterThanOrEqual(n);
    t.hold();
    t.seen.most = 0;
    const calls = Array.from({ length: n }, send);
    await vi.waitFor(() => expect(t.seen.now).toBe(arrived), { timeout: 5000 });
    const most = t.seen.most;
    t.release();
    const answers = await Promise.all(calls);
    expect(answers.every((a) => a.status === 200)).toBe(true);
    return { most, fastest: w.fastestAnswerMs() };
  }

  test(`a near target (its fastest answer within ${NEAR_MS} ms): ${4 * LANE_WIDTH} calls of one identity go ${LANE_WIDTH} at a time, on as many connections`, async () => {
    // the answers' times are the test's: none passes, every answer is at once
    vi.useFakeTimers({ toFake: ['performance'] });
    const t = await target(0);
    const r = await wide(t, 4 * LANE_WIDTH, LANE_WIDTH);
    expect(r.fastest).toBe(0);
    expect(r.most).toBe(LANE_WIDTH);
    expect(t.seen.connections).toBe(LANE_WIDTH);
  });

  test(`a near target that closes after every answer is not held back: ${4 * LANE_WIDTH} calls at once, a connection each`, async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const t = await target(0, true);
    const r = await wide(t, 4 * LANE_WIDTH, 4 * LANE_WIDTH);
    expect(r.fastest).toBe(0);
    expect(r.most).toBe(4 * LANE_WIDTH);
  });

  test(`a target whose answers take ${NEAR_MS} ms at least is not held back: ${4 * LANE_WIDTH} calls at once, a connection each`, async () => {
    const t = await target(NEAR_MS + 5);
    const r = await wide(t, 4 * LANE_WIDTH, 4 * LANE_WIDTH);
    expect(r.fastest).toBeGreaterThanOrEqual(NEAR_MS);
    expect(r.most).toBe(4 * LANE_WIDTH);
    expect(t.seen.connections).toBeGreaterThanOrEqual(4 * LANE_WIDTH);
  });
});
