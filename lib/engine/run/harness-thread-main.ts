/**
 * The worker-thread side of harness-thread.ts: a profile's harness. It is handed the run's test PKI and the profile's
 * file, loads the profile, runs it (runProfile, as certify does in-process) with its mock started and closed through
 * the main thread (which hosts the mocks' thread), and posts each result as it comes and the run at its end.
 * The checks come from the thread's entry (scripts/harness-thread.ts): lib never imports the suites.
 */
import { parentPort } from 'node:worker_threads';
import type { CheckDefinition } from '../check.ts';
import type { MockThread } from '../../mock/server/thread.ts';
import { adoptTestPki, testPki } from '../../pki/index.ts';
import { loadProfile } from '../../profile/load.ts';
import { selects } from './select.ts';
import { messageOf, runProfile } from './profile-run.ts';
import type { FromHarnessThread, HarnessJob, ToHarnessThread } from './harness-thread.ts';

type Answer = Extract<ToHarnessThread, { id: number }>;

export function serveHarnessThread(checks: readonly CheckDefinition[]): void {
  const port = parentPort;
  if (!port) throw new Error('a harness thread runs only as a worker thread');
  const post = (m: FromHarnessThread): void => port.postMessage(m);
  const waiting = new Map<number, (m: Answer) => void>();
  let nextId = 1;
  const ask = (m: Extract<FromHarnessThread, { id: number }>): Promise<Answer> =>
    new Promise((resolve) => {
      waiting.set(m.id, resolve);
      post(m);
    });

  /** the mocks' thread as the main thread relays it (prepare starts and closes the profile's mock through it) */
  const relayed: MockThread = {
    problems: [],
    testPki,
    async start(options, name) {
      const id = nextId++;
      const m = await ask({ type: 'mock-start', id, options, name });
      if (m.type === 'mock-failed') throw new Error(`the embedded mock did not start: ${m.message}`);
      if (m.type !== 'mock-ready') throw new Error(`the main thread answered ${m.type} to a mock's start`);
      let closed: Promise<void> | undefined;
      return {
        url: m.url,
        adminUrl: m.adminUrl,
        profile: m.profile,
        close: () => (closed ??= ask({ type: 'mock-close', id }).then(() => undefined)),
      };
    },
    shutdown: async () => {},
  };

  const run = async (job: HarnessJob): Promise<void> => {
    adoptTestPki(Promise.resolve(job.pki));
    const profile = await loadProfile(job.path);
    const selected = checks.filter((c) => selects(job.selection, c));
    const done = await runProfile(
      profile,
      {
        long: job.long,
        destructive: job.destructive,
        ...(job.seed !== undefined ? { seed: job.seed } : {}),
        ...(job.deadlineAt !== undefined ? { deadlineAt: job.deadlineAt } : {}),
        onWait: (what) => post({ type: 'wait', what }),
        onResult: (_, result) => post({ type: 'result', result }),
      },
      selected,
      job.mocks ? relayed : undefined,
    );
    post({ type: 'done', run: done });
  };

  port.on('message', (m: ToHarnessThread) => {
    if (m.type === 'run') {
      run(m.job).catch((e: unknown) => post({ type: 'failed', message: messageOf(e) }));
      return;
    }
    // the run is in the main thread's hands: the thread ends (its handles with it)
    if (m.type === 'end') process.exit(0);
    const answer = waiting.get(m.id);
    waiting.delete(m.id);
    answer?.(m);
  });
}
