/**
 * A small server's accept queue (a small target, docs/design.md): a front listener, with the listen backlog the profile
 * gives, that hands at most `maxConnections` connections at a time to the API listener; the others wait unread, in
 * arrival order, as in a server whose workers are all busy. Up to `backlog` of them wait in the queue; a connection
 * that finds the queue full is treated as a dropped SYN: it is offered to the queue again after 1 s, 2 s, 4 s… (the
 * client's SYN retransmissions), so a client that opens too many connections at once sees them answered seconds
 * late or time out (no TCP answer reaches it before its connect or first-byte budget), as against a real
 * Python `http.server` (backlog 5) or a small gateway stub.
 */
import net, { type AddressInfo, type Socket } from 'node:net';

export interface AcceptQueueOptions {
  /** the listen backlog (Node's server.listen(port, host, backlog)); also the queue of waiting connections */
  backlog?: number;
  /** connections served at once (as Node's server.maxConnections, but waiting instead of being dropped) */
  maxConnections?: number;
}

export interface AcceptQueue {
  address(): AddressInfo;
  /** connections waiting for a place (in the queue or as dropped SYNs) */
  waiting(): number;
  close(): Promise<void>;
}

/** the first SYN retransmission of a client (Linux: 1 s, doubling) */
const FIRST_RETRY_MS = 1000;

export async function startAcceptQueue(
  target: net.Server,
  host: string,
  port: number,
  o: AcceptQueueOptions,
): Promise<AcceptQueue> {
  const max = o.maxConnections ?? Number.POSITIVE_INFINITY;
  const backlog = o.backlog ?? 511;
  const served = new Set<Socket>();
  const queue: Socket[] = [];
  const dropped = new Map<Socket, NodeJS.Timeout>();
  const serve = (s: Socket): void => {
    served.add(s);
    s.once('close', () => {
      served.delete(s);
      next();
    });
    target.emit('connection', s);
    s.resume();
  };
  const next = (): void => {
    while (served.size < max && queue.length > 0) {
      const s = queue.shift()!;
      if (!s.destroyed) serve(s);
    }
  };
  const offer = (s: Socket, retryMs: number): void => {
    if (s.destroyed) return;
    if (served.size < max) return serve(s);
    if (queue.length < backlog) {
      queue.push(s);
      return;
    }
    // the queue is full: the SYN is dropped, the client sends it again later
    const t = setTimeout(() => {
      dropped.delete(s);
      offer(s, retryMs * 2);
    }, retryMs);
    t.unref();
    dropped.set(s, t);
  };
  const front = net.createServer({ pauseOnConnect: true }, (s) => {
    s.once('close', () => {
      const t = dropped.get(s);
      if (t) clearTimeout(t);
      dropped.delete(s);
      const i = queue.indexOf(s);
      if (i >= 0) queue.splice(i, 1);
    });
    s.on('error', () => {});
    offer(s, FIRST_RETRY_MS);
  });
  await new Promise<void>((resolve, reject) => {
    front.once('error', reject);
    front.listen(port, host, backlog, () => {
      front.off('error', reject);
      resolve();
    });
  });
  return {
    address: () => front.address() as AddressInfo,
    waiting: () => queue.length + dropped.size,
    close: () =>
      new Promise<void>((resolve) => {
        front.close(() => resolve());
        for (const t of dropped.values()) clearTimeout(t);
        for (const s of [...queue, ...dropped.keys(), ...served]) s.destroy();
        queue.length = 0;
        dropped.clear();
      }),
  };
}
