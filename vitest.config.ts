import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'selftest',
          include: ['test/**/*.test.ts'],
          exclude: ['test/matrix/**'],
          // a test in which no assertion ran fails (a loop over an empty list, a skipped branch)
          expect: { requireAssertions: true },
          // Vitest's default is one worker less than the cores: on a 2-core machine that is one worker, and the
          // slow files (the command's end-to-end runs) would run one after the other
          maxWorkers: 2,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          // the fault matrix (test/matrix): two shards, one per worker, each running several cases at once (a
          // case is a whole run against its own mock; their slow, sequential ends overlap other cases' work)
          name: 'matrix',
          include: ['test/matrix/**/*.test.ts'],
          expect: { requireAssertions: true },
          // per-check coverage across the shards: records cleared before, gathered and enforced after
          globalSetup: ['test/matrix/global-setup.ts'],
          maxWorkers: 2,
          maxConcurrency: 8,
          testTimeout: 300_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'conformance',
          include: ['suites/**/*.check.ts'],
          globalSetup: ['lib/engine/vitest/vitest-global-setup.ts'],
          // checks that move the target's clock or exhaust quotas must not overlap other files
          fileParallelism: false,
          // one worker, modules and the session (token caches, agents) kept across suite files: the suites
          // share no mutable module state besides the session, which is meant to be shared
          isolate: false,
          pool: 'threads',
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
