/**
 * A profile's harness thread (lib/engine/run/harness-thread.ts): the suites' checks handed to the thread's side of
 * the engine (lib never imports the suites). Started by certify for each profile of a run of two or more.
 */
// zod's setting before any schema is built (as certify's own start-up: scripts/startup.ts)
import '../lib/cli/zod-jitless.ts';
import { serveHarnessThread } from '../lib/engine/run/harness-thread-main.ts';
import { allChecks } from '../suites/index.ts';

serveHarnessThread(allChecks);
