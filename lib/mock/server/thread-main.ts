/**
 * The worker-thread side of lib/mock/server/thread.ts: starts mock banks from the options it is sent, reports their
 * addresses and profiles, and closes them when asked. Nothing else crosses the thread boundary.
 */
import { parentPort } from 'node:worker_threads';
import { startMockBank } from '../index.ts';
import { testPki } from '../../pki/index.ts';
import type { MockBank } from '../types.ts';
import type { FromMockThread, ToMockThread } from './thread.ts';

const port = parentPort;
if (!port) throw new Error('lib/mock/server/thread-main.ts runs only as a worker thread');
const post = (m: FromMockThread): void => port.postMessage(m);
const mocks = new Map<number, MockBank>();
const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

port.on('message', (m: ToMockThread) => {
  switch (m.type) {
    case 'start':
      startMockBank(m.options).then(
        (mock) => {
          mocks.set(m.id, mock);
          post({ type: 'ready', id: m.id, url: mock.url, adminUrl: mock.adminUrl, profile: mock.profile(m.name) });
        },
        (e: unknown) => post({ type: 'failed', id: m.id, message: message(e) }),
      );
      return;
    case 'pki':
      testPki().then(
        (pki) => post({ type: 'pki', id: m.id, pki }),
        (e: unknown) => post({ type: 'failed', id: m.id, message: message(e) }),
      );
      return;
    case 'close': {
      const mock = mocks.get(m.id);
      mocks.delete(m.id);
      void (mock?.close() ?? Promise.resolve()).then(() => post({ type: 'closed', id: m.id }));
      return;
    }
    case 'shutdown':
      void Promise.allSettled([...mocks.values()].map((x) => x.close())).then(() => port.close());
      return;
  }
});
post({ type: 'loaded' });
