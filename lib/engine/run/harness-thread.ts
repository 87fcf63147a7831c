/**
 * A profile's harness on a worker thread of its own: with two or more profiles, one thread ran every profile's
 * checks, sessions and HTTP clients (its JOSE, its recording) and was the run's bottleneck while the mocks' thread
 * idled half the time. Now the first profile runs on the main thread (its modules are loaded there already) and each
 * other on a thread of its own: a thread costs its own module load and its own warm-up (each thread compiles and
 * optimizes the code it runs), about 0.15 CPU-s and a few per cent of the run's CPU, so one thread per profile, the
 * main one idle, cost about 13 % more CPU against about 5 % (docs/performance.md, "The crypto floor"). The main
 * thread relays a thread's mock's start and close to the mocks' thread, passes its results on as they come (the
 * console's lines are still written by the main thread only, whole and in order per profile) and gathers its run.
 *
 * A profile's thread loads its profile from its file itself (its OpenAPI document's hints included), is handed the
 * run's test PKI (PEM text, as the mocks' thread hands it to this one: never through a file) and runs runProfile
 * (profile-run.ts) exactly as certify runs it in-process. A thread that stops before its run is done gives a run
 * with an error naming the profile and the results it had reported; the other profiles go on.
 */
import type { HarnessThreads } from './harness-pool.ts';
import type { LoadedProfile } from './preflight.ts';
import type { MockThread, ThreadMock } from '../../mock/server/thread.ts';
import type { MockOptions } from '../../mock/types.ts';
import type { FullProfileInput } from '../../profile/schema.ts';
import type { TestPki } from '../../pki/types.ts';
import { testPki } from '../../pki/index.ts';
import type { CheckResult, ProfileRun } from '../results.ts';
import type { Selection } from './select.ts';
import type { Transport } from '../../http/transport.ts';
import { applyWaivers } from '../verdict.ts';
import { byRequirement, messageOf, unprepared, type ProfileRunOptions } from './profile-run.ts';

/** what a profile's thread is asked to run */
export interface HarnessJob {
  /** the profile's file (the thread loads it, as the main thread did) */
  path: string;
  pki: TestPki;
  selection: Selection;
  long: boolean;
  destructive: boolean;
  seed?: number;
  deadlineAt?: number;
  /** the embedded mocks run on the mocks' thread: the profile's thread asks this one to start and close them */
  mocks: boolean;
}

export type ToHarnessThread =
  | { type: 'run'; job: HarnessJob }
  | { type: 'mock-ready'; id: number; url: string; adminUrl: string; profile: FullProfileInput }
  | { type: 'mock-failed'; id: number; message: string }
  | { type: 'mock-closed'; id: number }
  /** the run was received: the thread ends */
  | { type: 'end' };
export type FromHarnessThread =
  | { type: 'result'; result: CheckResult }
  | { type: 'wait'; what: string }
  | { type: 'mock-start'; id: number; options: MockOptions; name: string }
  | { type: 'mock-close'; id: number }
  | { type: 'done'; run: ProfileRun }
  /** the profile could not be run at all (e.g. its file no longer loads) */
  | { type: 'failed'; message: string };

/**
 * the fewest checks a run selects for its profiles to go on threads of their own: a thread's own module load and
 * warm-up cost about 0.15–0.2 CPU-s, the harness's CPU of some fifteen checks; a run of two profiles and two checks
 * took 30 % more CPU and longer on threads (docs/performance.md, "The crypto floor")
 */
export const THREADED_FROM_CHECKS = 40;

/**
 * whether a run's profiles go on threads of their own (the caller gives the threads on a machine of two or more
 * cores: scripts/startup.ts): two or more of them, each from a file, none asking a person or a script for consent
 * (they ask one at a time, on the terminal), no --har or --proxy (the run's transport is one object on the main
 * thread), and a run long enough to repay a thread (THREADED_FROM_CHECKS)
 */
export function onHarnessThreads(
  loaded: readonly LoadedProfile[],
  req: { transport?: Transport },
  selected: number,
  fromChecks = THREADED_FROM_CHECKS,
): boolean {
  if (loaded.length < 2 || selected < fromChecks) return false;
  if (req.transport?.har || req.transport?.proxy) return false;
  return loaded.every(
    ({ path, profile }) =>
      path !== '' && ('embedded' in profile || ('target' in profile && profile.target.consent.mode === 'auto')),
  );
}

/** the profile's run on a thread of its own (taken from `threads`); never throws */
export async function runOnHarnessThread(
  threads: HarnessThreads,
  { path, profile }: LoadedProfile,
  options: ProfileRunOptions & { selection: Selection },
  mockThread: MockThread | undefined,
): Promise<ProfileRun> {
  const startedAt = new Date().toISOString();
  const started = performance.now();
  const results: CheckResult[] = [];
  const mocks = new Map<number, ThreadMock>();
  const job: HarnessJob = {
    path,
    pki: await testPki(),
    selection: options.selection,
    long: options.long,
    destructive: options.destructive,
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
    ...(options.deadlineAt !== undefined ? { deadlineAt: options.deadlineAt } : {}),
    mocks: mockThread !== undefined,
  };
  const worker = threads.take();
  const send = (m: ToHarnessThread): void => worker.postMessage(m);
  send({ type: 'run', job });
  return new Promise<ProfileRun>((resolve) => {
    let ended = false;
    const end = (run: ProfileRun): void => {
      if (ended) return;
      ended = true;
      options.onProfileDone?.(run);
      resolve(run);
    };
    const stopped = (why: string): void => {
      if (ended) return;
      // the mocks it started are closed here: nobody else will
      for (const mock of mocks.values()) void mock.close().catch(() => {});
      mocks.clear();
      const n = results.length;
      const note = `the harness thread of profile ${profile.name} stopped before its run ended (${why}): ${n} ${n === 1 ? 'check' : 'checks'} had reported`;
      const run = unprepared(profile, startedAt, Math.round(performance.now() - started), [note]);
      const waivers = 'waivers' in profile ? profile.waivers : undefined;
      end({ ...run, results: applyWaivers(results, waivers).sort(byRequirement) });
    };
    worker.on('message', (m: FromHarnessThread) => {
      switch (m.type) {
        case 'result':
          results.push(m.result);
          options.onResult?.(profile.name, m.result);
          return;
        case 'wait':
          options.onWait?.(m.what);
          return;
        case 'mock-start':
          if (!mockThread) return send({ type: 'mock-failed', id: m.id, message: "no embedded mocks' thread" });
          mockThread.start(m.options, m.name).then(
            (mock) => {
              mocks.set(m.id, mock);
              send({ type: 'mock-ready', id: m.id, url: mock.url, adminUrl: mock.adminUrl, profile: mock.profile });
            },
            (e: unknown) => send({ type: 'mock-failed', id: m.id, message: messageOf(e) }),
          );
          return;
        case 'mock-close': {
          const mock = mocks.get(m.id);
          mocks.delete(m.id);
          void (mock?.close() ?? Promise.resolve()).then(() => send({ type: 'mock-closed', id: m.id }));
          return;
        }
        case 'done':
          send({ type: 'end' });
          // what went wrong with the mocks' thread meanwhile (in-process, prepare's problems() says it)
          end(mockThread ? { ...m.run, errors: [...m.run.errors, ...mockThread.problems] } : m.run);
          return;
        case 'failed':
          send({ type: 'end' });
          stopped(m.message);
          return;
      }
    });
    worker.on('error', (e) => stopped(e.message));
    worker.on('exit', (code) => stopped(`exit code ${code}`));
  });
}
