/**
 * Embedded mock banks on a worker thread of their own, so that a certification uses both cores: the harness
 * (sealing, opening, recording) on the main thread, the banks (the same work on their side) on this one. The
 * thread is started early (it loads its modules while the test PKI is generated) and hosts every embedded
 * profile's mock. A mock here offers what a real target offers — its URLs, its description as a profile, the
 * loopback admin listener — and none of the in-process controls of startMockBank (selftests that need those
 * start the mock in-process).
 */
import { Worker } from 'node:worker_threads';
import type { FullProfileInput } from '../../profile/schema.ts';
import type { TestPki } from '../../pki/types.ts';
import type { MockOptions } from '../types.ts';

export type ToMockThread =
  | { type: 'start'; id: number; options: MockOptions; name: string }
  | { type: 'close'; id: number }
  | { type: 'pki'; id: number }
  | { type: 'shutdown' };
export type FromMockThread =
  | { type: 'loaded' }
  | { type: 'ready'; id: number; url: string; adminUrl: string; profile: FullProfileInput }
  | { type: 'pki'; id: number; pki: TestPki }
  | { type: 'failed'; id: number; message: string }
  | { type: 'closed'; id: number };

export interface ThreadMock {
  readonly url: string;
  readonly adminUrl: string;
  /** the mock's description of itself (as MockBank.profile) */
  readonly profile: FullProfileInput;
  close(): Promise<void>;
}

export interface MockThread {
  start(options: MockOptions, name: string): Promise<ThreadMock>;
  /**
   * the run-time test PKI (lib/pki testPki), made on this thread: its certificates are issued there while the
   * caller's thread loads its modules (certify adopts it as its process's PKI and hands it back to start)
   */
  testPki(): Promise<TestPki>;
  /** why the thread stopped before it was shut down, if it did (a run reports it) */
  readonly problems: readonly string[];
  /** closes every mock still open and ends the thread */
  shutdown(): Promise<void>;
}

/** how long a thread that does not end after shutdown is given before it is ended */
const SHUTDOWN_GRACE_MS = 5_000;

/**
 * From the TypeScript sources the thread starts at thread-entry.mjs (it registers tsx's hooks, which threads do not
 * inherit); from certify's bundle (scripts/bin/certify.mjs) at the bundled thread-main.mjs beside this module.
 */
const ENTRY = new URL(import.meta.url.endsWith('.ts') ? './thread-entry.mjs' : './thread-main.mjs', import.meta.url);

export function startMockThread(): MockThread {
  const worker = new Worker(ENTRY);
  const problems: string[] = [];
  const waiting = new Map<number, { resolve(m: FromMockThread): void; reject(e: Error): void }>();
  let nextId = 1;
  /** mocks asked for (a thread that only made the PKI has nothing to close) */
  let mocks = 0;
  let shuttingDown = false;
  let shutdown: Promise<void> | undefined;
  let exited = false;
  const exit = new Promise<void>((resolve) =>
    worker.once('exit', (code) => {
      exited = true;
      if (!shuttingDown) problems.push(`the embedded mock's thread stopped (exit code ${code})`);
      const why = new Error(problems.join('; ') || "the embedded mock's thread ended");
      for (const w of waiting.values()) w.reject(why);
      waiting.clear();
      resolve();
    }),
  );
  worker.on('error', (e) => problems.push(`the embedded mock's thread failed: ${e.message}`));
  worker.on('message', (m: FromMockThread) => {
    if (m.type === 'loaded') return;
    const w = waiting.get(m.id);
    waiting.delete(m.id);
    w?.resolve(m);
  });
  const ask = (m: ToMockThread & { id: number }): Promise<FromMockThread> =>
    new Promise((resolve, reject) => {
      if (exited) return reject(new Error(problems.join('; ') || "the embedded mock's thread has ended"));
      waiting.set(m.id, { resolve, reject });
      worker.postMessage(m);
    });

  let pki: Promise<TestPki> | undefined;
  return {
    problems,
    testPki() {
      pki ??= ask({ type: 'pki', id: nextId++ }).then((m) => {
        if (m.type === 'pki') return m.pki;
        throw new Error(`the embedded mock's thread made no test PKI: ${m.type === 'failed' ? m.message : m.type}`);
      });
      return pki;
    },
    async start(options, name) {
      const id = nextId++;
      mocks++;
      const m = await ask({ type: 'start', id, options, name });
      if (m.type === 'failed') throw new Error(`the embedded mock did not start: ${m.message}`);
      if (m.type !== 'ready') throw new Error(`the embedded mock's thread answered ${m.type} to start`);
      let closed: Promise<void> | undefined;
      return {
        url: m.url,
        adminUrl: m.adminUrl,
        profile: m.profile,
        close: () => (closed ??= exited ? Promise.resolve() : ask({ type: 'close', id }).then(() => undefined)),
      };
    },
    shutdown() {
      shutdown ??= (async () => {
        shuttingDown = true;
        // no mock was ever started (a run stopped by its configuration): nothing to close, no need to wait
        // for the thread to finish loading
        if (mocks === 0) void worker.terminate();
        else if (!exited) worker.postMessage({ type: 'shutdown' } satisfies ToMockThread);
        const timer = setTimeout(() => void worker.terminate(), SHUTDOWN_GRACE_MS);
        await exit;
        clearTimeout(timer);
      })();
      return shutdown;
    },
  };
}
