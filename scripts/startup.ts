/**
 * certify's start-up, in one place: what a run does before its first check so that the first run, and every short
 * one, starts fast (docs/performance.md "Start-up"; the bundle itself is scripts/bin/bundle.mjs). It
 *  - starts the embedded mocks' worker thread at once when the command line names the embedded mock (a first look
 *    at the command line and the profiles, before either is checked), which makes the run's test PKI from the key
 *    cache while this thread checks them and loads its own modules;
 *  - loads the heavy modules (the engine, the suites, the report writers) only once the command line and the
 *    profiles are known to be good, and for --list only what a listing needs (no HTTP client, no report writers);
 * scripts/certify.ts then reads as its story: parse, load the profiles, certify, write the reports.
 */
import { DEFAULT_PROFILES, firstLook } from '../lib/cli/options.ts';
import type { LoadedProfile } from '../lib/engine/run/preflight.ts';
import type { MockThread } from '../lib/mock/server/thread.ts';
import { callersPath } from '../lib/cli/cwd.ts';

/** the modules a run needs, loaded together */
async function loadRunModules() {
  const [certify, errors, summary, write, json, progress, suites, select] = await Promise.all([
    import('../lib/engine/run/certify.ts'),
    import('../lib/profile/errors.ts'),
    import('../lib/report/summary.ts'),
    import('../lib/report/write.ts'),
    import('../lib/report/json.ts'),
    import('../lib/cli/progress.ts'),
    import('../suites/index.ts'),
    import('../lib/engine/run/select.ts'),
  ]);
  return { ...certify, ...errors, ...summary, ...write, ...json, ...progress, ...suites, ...select };
}
export type RunModules = Awaited<ReturnType<typeof loadRunModules>>;

/** what --list needs: no HTTP client (undici), no engine run, no report writers (it sends nothing, writes nothing) */
async function loadListModules() {
  const [list, errors, suites] = await Promise.all([
    import('../lib/engine/run/list.ts'),
    import('../lib/profile/errors.ts'),
    import('../suites/index.ts'),
  ]);
  return { ...list, ...errors, ...suites };
}
export type ListModules = Awaited<ReturnType<typeof loadListModules>>;

/**
 * The embedded mocks' worker thread, asked at once for the run's test PKI: its keys come from the key cache and its
 * certificates are issued on that thread, which would otherwise wait idle for this one to load its modules; the PKI
 * is this process's too (the harness's clients, the checks' keys)
 */
async function startMocksThread(): Promise<MockThread> {
  const thread = (await import('../lib/mock/server/thread.ts')).startMockThread();
  const pki = thread.testPki();
  // the process's PKI before anything asks for one (prepare, after the modules below)
  (await import('../lib/pki/index.ts')).adoptTestPki(pki);
  return thread;
}

export interface Startup {
  /** the mocks' worker thread, when one was started */
  readonly mockThread: MockThread | undefined;
  /** --list's modules, with the listing's small-key PKI (a tenth of the cost: it sends nothing) made meanwhile */
  forListing(): Promise<ListModules>;
  /** a run's modules, with the mocks' thread started now if a loaded profile needs it and none runs yet */
  forRun(loaded: readonly LoadedProfile[]): Promise<RunModules>;
  /** ends the mocks' thread (it would keep the process alive), whatever happened */
  shutdown(): Promise<void>;
}

/** begins the start-up from the raw command line (before it is checked: see the header) */
export async function beginStartup(argv: readonly string[]): Promise<Startup> {
  const first = firstLook([...argv]);
  // --fresh-keys: the test PKI's keys are generated anew and replace the per-machine cache (lib/pki/key-cache.ts);
  // set before the mocks' thread starts (a worker thread takes a copy of the environment)
  if (first.freshKeys) process.env.HARNESS_FRESH_KEYS = '1';
  let mockThread: MockThread | undefined;
  const typed = first.profiles.map((p) => callersPath('certify', p, DEFAULT_PROFILES));
  if ((await import('../lib/profile/peek.ts')).namesEmbeddedMock(typed)) mockThread = await startMocksThread();
  // zod's setting before any schema is built (the catalogue's, loaded with the command line's checks)
  await import('../lib/cli/zod-jitless.ts');
  return {
    get mockThread() {
      return mockThread;
    },
    async forListing() {
      const pki = import('../lib/pki/index.ts').then((m) => m.testPkiForListing());
      pki.catch(() => {});
      const m = await loadListModules();
      // the listing's small-key PKI is the process's before the listing asks for one
      await pki;
      return m;
    },
    async forRun(loaded) {
      if (!mockThread && loaded.some((l) => 'embedded' in l.profile)) mockThread = await startMocksThread();
      return loadRunModules();
    },
    async shutdown() {
      await mockThread?.shutdown();
    },
  };
}
